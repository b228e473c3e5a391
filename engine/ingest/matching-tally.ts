/**
 * What matching met during an ingest, for the health figures (contract/health.ts MatchingFigures): per blocking rule
 * the candidate identities its blocks held and its blocks skipped as too common, the records whose candidates were
 * more than the cap, and the compared pairs per score band. Counts only; a few additions per record.
 */
import type { BlockingTag } from '../blocking/tags.ts';
import type { MatchingFigures } from '../contract/health.ts';
import { SCORE_BAND_EDGES, scoreBand } from '../contract/score-bands.ts';
import { MAX_BLOCK_SIZE, MAX_CANDIDATES } from './candidates.ts';

export class MatchingTally {
  private comparedPairs = 0;
  private capped = 0;
  private readonly scoreBands: number[] = [...SCORE_BAND_EDGES.map(() => 0), 0];
  private readonly rules = new Map<string, { candidates: number; overCap: number }>();

  /** ruleNames: the profile's blocking rules, each counted from zero (a rule no record yields a key for shows 0). */
  constructor(ruleNames: readonly string[] = []) {
    for (const name of ruleNames) this.rules.set(name, { candidates: 0, overCap: 0 });
  }

  /** One record's candidate search: its tags, each tag's block size (as read: at most MAX_BLOCK_SIZE + 1), the identities found. */
  candidates(tags: readonly BlockingTag[], blockSizes: readonly number[], found: number): void {
    tags.forEach((tag, i) => {
      const size = blockSizes[i] ?? 0;
      let rule = this.rules.get(tag.ruleName);
      if (rule === undefined) {
        rule = { candidates: 0, overCap: 0 };
        this.rules.set(tag.ruleName, rule);
      }
      if (size > MAX_BLOCK_SIZE) rule.overCap++;
      else rule.candidates += size;
    });
    if (found > MAX_CANDIDATES) this.capped++;
  }

  scored(score: number): void {
    this.comparedPairs++;
    const band = scoreBand(score);
    this.scoreBands[band] = (this.scoreBands[band] ?? 0) + 1;
  }

  figures(): MatchingFigures {
    return {
      comparedPairs: this.comparedPairs,
      scoreBands: [...this.scoreBands],
      capped: this.capped,
      rules: Object.fromEntries([...this.rules].sort(([a], [b]) => a.localeCompare(b))),
    };
  }
}
