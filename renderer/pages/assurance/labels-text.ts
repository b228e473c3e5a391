/** The label sample's sentence about the blocking-candidate population its non-matches and prior came from. */
import type { OperationOutput } from '../../../engine/contract/operations.ts';
import { formatCount, recordSampleText } from '../../format.ts';

/**
 * "Among 12,000 blocking candidates, 480 are true pairs: estimated prior", or, on a sampled registry, "Among about
 * 60,800,000 blocking candidates (estimated from a seeded sample of 100,000 of the 1,000,000 records), about 762,000
 * are true pairs: estimated prior". The prior itself follows, set apart by the page.
 */
export function candidatePopulationText(candidates: OperationOutput<'labels/sample'>['candidates']): string {
  const sampled = candidates.sampledRecords !== undefined;
  const about = sampled ? 'about ' : '';
  // An estimate is given to three significant figures: its last digits would claim a precision it does not have.
  const count = (n: number): string => formatCount(sampled ? Number(n.toPrecision(3)) : n);
  const bound = candidates.truncated ? '+' : '';
  const sample = sampled
    ? ` (estimated from ${recordSampleText(candidates.sampledRecords ?? 0, candidates.records)})`
    : '';
  return (
    `Among ${about}${count(candidates.pairs)}${bound} blocking candidates${sample}, ` +
    `${about}${count(candidates.truePairs)}${bound} are true pairs: estimated prior`
  );
}
