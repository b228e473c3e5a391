/** The workbench's sentences: the population a draw came from, and what to do when no pair is left to show. */
import type { CandidatePairsOutput } from '../../../engine/contract/workbench.ts';
import { formatCount, formatCountOf, recordSampleText } from '../../format.ts';

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

/** What the workbench says when every pair loaded is labelled and none is left to show. */
export function nothingToShowText(loaded: number, labelled: number, page: number): string {
  if (loaded > 0) return `Every pair drawn so far is labelled. Export them, use them, or load ${String(page)} more.`;
  if (labelled === 0) return 'Load pairs to go on.';
  return labelled === 1
    ? 'Load pairs to go on; the pair already given a verdict is skipped.'
    : `Load pairs to go on; the ${formatCountOf(labelled, 'pair')} already given a verdict are skipped.`;
}
