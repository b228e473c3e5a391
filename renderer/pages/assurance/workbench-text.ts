/** The workbench's sentence about the population a draw came from. */
import type { CandidatePairsOutput } from '../../../engine/contract/workbench.ts';
import { formatCount, recordSampleText } from '../../format.ts';

/** "12 of 20,000 scored candidate pairs lie in the band (…); 50 drawn from it so far." */
export function drawPopulationText(population: CandidatePairsOutput['population'], drawn: number): string {
  const records =
    population.sampledRecords === undefined
      ? `${formatCount(population.records)} records`
      : recordSampleText(population.sampledRecords, population.records);
  return (
    `${formatCount(population.inRange)} of ${formatCount(population.scoredPairs)} scored candidate pairs lie in the band ` +
    `(${formatCount(population.candidatePairs)}${population.truncated ? '+' : ''} candidates among ${records}); ` +
    `${formatCount(drawn)} drawn from it so far.`
  );
}
