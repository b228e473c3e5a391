import type { ScoredExample } from '../../engine/stats/threshold-sweep.ts';

/** Held-out examples from [score, matches, non-matches at that score] rows. */
export function heldOutExamples(scores: readonly (readonly [number, number, number])[]): ScoredExample[] {
  const out: ScoredExample[] = [];
  for (const [score, matches, nonMatches] of scores) {
    for (let i = 0; i < matches; i++) out.push({ score, isMatch: true });
    for (let i = 0; i < nonMatches; i++) out.push({ score, isMatch: false });
  }
  return out;
}
