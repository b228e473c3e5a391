/**
 * u as Fellegi and Sunter define it, P(band | the two records are two people), from random record pairs.
 *
 * Random pairs are almost all non-matches, but not all: two records picked at random are one person with the
 * random-pair prior's probability, and those pairs agree on nearly every field. Where values are diverse they
 * can be most of the agreement seen at random. On FEBRL 3 (5,000 records, 6,538 true pairs) random pairs share a
 * birth date 5.1e-4 of the time, and pairs of one person make 4.8e-4 of that (prior 5.2e-4 × m 0.92); counted
 * as non-matches they cut an exact birth date's weight by ln(5.1e-4 / 3.3e-5) ≈ 2.7.
 *
 * So each random pair counts toward u by 1 − g, g its posterior of being one person under the fitted m, the
 * current u and the model's prior: EM over the random pairs' two-class mixture with m and λ (= the prior, the
 * share of matches among random pairs by definition) held, which moves u alone, and whose penalised
 * log-likelihood never decreases (fellegi-sunter-em.ts). A pair of people who share a household's address or
 * phone has a low posterior (names and birth dates disagree), so it stays in u and shared-household agreement
 * keeps its modest weight; only pairs the model would call one person leave it.
 */
import type { BandPatterns, EmOptions } from './fellegi-sunter-em.ts';
import { fitMixture } from './fellegi-sunter-em.ts';

export interface NonMatchU {
  /** P(band | non-match) at field * 4 + band. */
  readonly u: Float64Array;
  /** Σ g over the random pairs: how many of them the model takes for one person. */
  readonly matchesWeightedOut: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * `randomPairs`: the random pairs' band patterns; `m`: the fitted m; `startU`: u counted from the random pairs
 * (every pair a non-match); `prior`: the model's random-pair prior.
 */
export function nonMatchU(
  randomPairs: BandPatterns,
  m: Float64Array,
  startU: Float64Array,
  prior: number,
  options: Pick<EmOptions, 'smoothing' | 'tolerance' | 'maxIterations' | 'floor'>,
): NonMatchU {
  const fit = fitMixture(
    randomPairs,
    { m, u: startU, lambda: prior },
    { ...options, fixU: false, fixM: true, fixLambda: true },
  );
  let matches = 0;
  for (let p = 0; p < randomPairs.counts.length; p++) matches += (randomPairs.counts[p] ?? 0) * (fit.posterior[p] ?? 0);
  return { u: fit.parameters.u, matchesWeightedOut: matches, iterations: fit.iterations, converged: fit.converged };
}
