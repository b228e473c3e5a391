/**
 * Which of two pair outcomes is the stronger evidence, wherever one pair must stand for two identities (the pair an
 * ingested record is matched on, the pair a reconciliation asks about, the pair a review case page shows first, and
 * the pair the impact preview of a profile reports on).
 *
 * By score first. A rule (scorer.ts) holds many pairs at exactly the Probable threshold, so on equal scores a Certain
 * decision comes before any other, then the pair whose fields scored highest before the hold (heldFrom): the pair the
 * rule held on the most evidence, rather than whichever record happened to be read first.
 */
import type { PairOutcome, Scorer } from './scorer.ts';
import type { PreparedRecord } from './prepared-record.ts';
import type { FieldScratch } from './field-comparison.ts';

type Ranked = Pick<PairOutcome, 'score' | 'decision' | 'heldFrom'>;

/** Negative when a is the stronger, positive when b is, 0 when neither (a sort comparator: strongest first). */
export function compareOutcomes(a: Ranked, b: Ranked): number {
  if (a.score !== b.score) return b.score - a.score;
  const certain = Number(b.decision === 'certain') - Number(a.decision === 'certain');
  if (certain !== 0) return certain;
  return (b.heldFrom ?? b.score) - (a.heldFrom ?? a.score);
}

/** True when candidate is stronger evidence than the best so far (or there is none yet). */
export function isStronger(candidate: Ranked, best: Ranked | undefined): boolean {
  return best === undefined || compareOutcomes(candidate, best) < 0;
}

/**
 * The strongest pair of two identities' records at Probable or above (scorer.outcomeFromProbable: a pair certain to
 * stay below is not scored), with its outcome; undefined when none reaches Probable.
 */
export function strongestPair(
  scorer: Scorer,
  left: readonly PreparedRecord[],
  right: readonly PreparedRecord[],
  scratch?: FieldScratch,
): { outcome: PairOutcome; a: PreparedRecord; b: PreparedRecord } | undefined {
  let best: { outcome: PairOutcome; a: PreparedRecord; b: PreparedRecord } | undefined;
  for (const a of left)
    for (const b of right) {
      const outcome = scorer.outcomeFromProbable(a, b, scratch);
      if (outcome !== undefined && isStronger(outcome, best?.outcome)) best = { outcome, a, b };
    }
  return best;
}
