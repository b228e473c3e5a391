/**
 * The workbench's verdicts, kept by pair (its two record references), not by position: a verdict survives a new
 * draw, another band, leaving the page and a reload (page-state.ts writes down the references and the verdict, never
 * the records' values). Labels are matches and non-matches in the order they were given; unsure ones are left out.
 */
import type { LabelPair } from '../../../engine/contract/label-tsv.ts';
import type { RecordRef } from '../../../engine/contract/matching.ts';
import type { Codec } from '../../hooks/page-state.ts';

export type Verdict = 'match' | 'non-match' | 'unsure';
const VERDICTS: readonly Verdict[] = ['match', 'non-match', 'unsure'];

export interface PairRefs {
  readonly left: RecordRef;
  readonly right: RecordRef;
}

export interface KeptVerdict extends PairRefs {
  readonly verdict: Verdict;
  /** Given by the ground truth (a registry audit sample drawn with it), not by a person. */
  readonly fromGroundTruth?: true;
  /** With fromGroundTruth: the verdict a person had given the pair, which comes back when the truth's are dropped. */
  readonly byHand?: Verdict;
}

/** One key per pair, whichever side each record is on. */
export function pairKey(pair: PairRefs): string {
  const a = `${pair.left.sourceSystem}\u0000${pair.left.localId}`;
  const b = `${pair.right.sourceSystem}\u0000${pair.right.localId}`;
  return a < b ? `${a}\u0001${b}` : `${b}\u0001${a}`;
}

function refs(pair: PairRefs): PairRefs {
  return {
    left: { sourceSystem: pair.left.sourceSystem, localId: pair.left.localId },
    right: { sourceSystem: pair.right.sourceSystem, localId: pair.right.localId },
  };
}

/** A copy holding the references, the verdict and, for the ground truth's, its origin and the person's verdict. */
function copied(kept: KeptVerdict): KeptVerdict {
  if (kept.fromGroundTruth !== true) return { ...refs(kept), verdict: kept.verdict };
  return {
    ...refs(kept),
    verdict: kept.verdict,
    fromGroundTruth: true,
    ...(kept.byHand === undefined ? {} : { byHand: kept.byHand }),
  };
}

export function withVerdict(
  verdicts: ReadonlyMap<string, KeptVerdict>,
  pair: PairRefs,
  verdict: Verdict,
): Map<string, KeptVerdict> {
  return withVerdicts(verdicts, [{ ...refs(pair), verdict }]);
}

/**
 * withVerdict for many pairs, in their order, in one new map however many there are (a saved audit reopened, a sample
 * labelled from the ground truth): each verdict moves its pair to the end, as given last.
 */
export function withVerdicts(
  verdicts: ReadonlyMap<string, KeptVerdict>,
  given: Iterable<KeptVerdict>,
): Map<string, KeptVerdict> {
  const next = new Map(verdicts);
  for (const kept of given) {
    const key = pairKey(kept);
    next.delete(key);
    next.set(key, copied(kept));
  }
  return next;
}

export function withoutVerdict(verdicts: ReadonlyMap<string, KeptVerdict>, pair: PairRefs): Map<string, KeptVerdict> {
  const next = new Map(verdicts);
  next.delete(pairKey(pair));
  return next;
}

/** Matches and non-matches in the order they were given. */
export function labelledPairs(verdicts: ReadonlyMap<string, KeptVerdict>): LabelPair[] {
  const out: LabelPair[] = [];
  for (const kept of verdicts.values()) {
    if (kept.verdict === 'unsure') continue;
    out.push({ ...refs(kept), isMatch: kept.verdict === 'match' });
  }
  return out;
}

/** Pairs of a draw not yet in the list, in the draw's order. */
export function appendNew<P extends PairRefs>(loaded: readonly P[], drawn: readonly P[]): P[] {
  const seen = new Set(loaded.map(pairKey));
  const out = [...loaded];
  for (const pair of drawn) {
    const key = pairKey(pair);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pair);
  }
  return out;
}

/** The first pair at or after `from` without a verdict, or the list's length when every one has one. */
export function nextUnlabelled(
  pairs: readonly PairRefs[],
  verdicts: ReadonlyMap<string, KeptVerdict>,
  from: number,
): number {
  for (let i = Math.max(0, from); i < pairs.length; i++) {
    const pair = pairs[i];
    if (pair !== undefined && !verdicts.has(pairKey(pair))) return i;
  }
  return pairs.length;
}

function isRef(value: unknown): value is RecordRef {
  if (typeof value !== 'object' || value === null) return false;
  const { sourceSystem, localId } = value as Record<string, unknown>;
  return (
    typeof sourceSystem === 'string' &&
    typeof localId === 'string' &&
    sourceSystem.length <= 200 &&
    localId.length <= 200
  );
}

/**
 * Written down as a list of references and verdicts (with a ground-truth label's origin); anything else read back is
 * dropped. Read into one new map, however many there are.
 */
export const VERDICTS_CODEC: Codec<Map<string, KeptVerdict>> = {
  write: (verdicts) => [...verdicts.values()],
  read: (stored) => {
    if (!Array.isArray(stored)) return undefined;
    const given: KeptVerdict[] = [];
    for (const item of stored as unknown[]) {
      if (typeof item !== 'object' || item === null) continue;
      const { left, right, verdict, fromGroundTruth, byHand } = item as Record<string, unknown>;
      const known = VERDICTS.find((v) => v === verdict);
      if (!isRef(left) || !isRef(right) || known === undefined) continue;
      const hand = VERDICTS.find((v) => v === byHand);
      given.push(
        fromGroundTruth === true
          ? { left, right, verdict: known, fromGroundTruth: true, ...(hand === undefined ? {} : { byHand: hand }) }
          : { left, right, verdict: known },
      );
    }
    return withVerdicts(new Map(), given);
  },
};

/** The workbench's TSV added to a label set's text: its header dropped, rows already there (as typed) skipped. */
export function mergeLabelText(existing: string, workbenchTsv: string): { text: string; added: number } {
  const have = new Set(
    existing
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  const rows = workbenchTsv
    .split(/\r?\n/)
    .filter((line, i) => line.trim() !== '' && !(i === 0 && line.startsWith('leftSource\t')));
  const fresh = rows.filter((line) => !have.has(line.trim()));
  const base = existing.replace(/\s+$/, '');
  return {
    text: fresh.length === 0 ? existing : `${base === '' ? '' : `${base}\n`}${fresh.join('\n')}\n`,
    added: fresh.length,
  };
}
