/** The label sample's sentence about the blocking-candidate population its non-matches and prior came from. */
import type { OperationOutput } from '../../../engine/contract/operations.ts';
import { formatCount } from '../../format.ts';

/**
 * "Among 12,000 blocking candidates, 480 are true pairs: estimated prior", or, on a sampled registry, "Among about
 * 60,800,000 blocking candidates (estimated from a seeded sample of 100,000 of the 1,000,000 records), about 762,000
 * are true pairs: estimated prior". The prior itself follows, set apart by the page.
 */
export function candidatePopulationText(candidates: OperationOutput<'labels/sample'>['candidates']): string {
  const about = candidates.sampledRecords === undefined ? '' : 'about ';
  const bound = candidates.truncated ? '+' : '';
  const sample =
    candidates.sampledRecords === undefined
      ? ''
      : ` (estimated from a seeded sample of ${formatCount(candidates.sampledRecords)} of the ${formatCount(candidates.records)} records)`;
  return (
    `Among ${about}${formatCount(candidates.pairs)}${bound} blocking candidates${sample}, ` +
    `${about}${formatCount(candidates.truePairs)}${bound} are true pairs: estimated prior`
  );
}
