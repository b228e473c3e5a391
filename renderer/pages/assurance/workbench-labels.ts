/** The workbench's verdicts as label pairs: matches and non-matches in the order shown, unsure ones left out. */
import type { LabelPair } from '../../../engine/contract/label-tsv.ts';
import type { RecordRef } from '../../../engine/contract/matching.ts';

export type Verdict = 'match' | 'non-match' | 'unsure';

export function labelledPairs(pairs: readonly { readonly left: RecordRef; readonly right: RecordRef }[], verdicts: ReadonlyMap<number, Verdict>): LabelPair[] {
  const out: LabelPair[] = [];
  pairs.forEach((pair, index) => {
    const verdict = verdicts.get(index);
    if (verdict === 'match' || verdict === 'non-match') {
      out.push({ left: { sourceSystem: pair.left.sourceSystem, localId: pair.left.localId }, right: { sourceSystem: pair.right.sourceSystem, localId: pair.right.localId }, isMatch: verdict === 'match' });
    }
  });
  return out;
}
