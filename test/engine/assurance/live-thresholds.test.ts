import { describe, expect, it } from 'vitest';
import {
  FALLBACK_PRECISION_FLOOR,
  liveThresholds,
  type LiveThresholds,
} from '../../../engine/assurance/live-thresholds.ts';
import { liveThresholdsText } from '../../../engine/assurance/calibration-text.ts';
import { heldOutExamples as examples } from '../../helpers/held-out-examples.ts';

/** Labels split at 0.3, no training non-match pooled (u from the labels). */
const heldOutOnly = { validationFraction: 0.3, nonMatchesFromTraining: 0 };

/**
 * Live thresholds at concentrated common names' share (true pairs 1.3% of the candidates) and a target of 0.99, which
 * no cut of these rows shows: Certain falls back to the highest held-out score, above 0.99.
 */
function fallbackAtHighestScore(rows: readonly (readonly [number, number, number])[]): LiveThresholds {
  const live = liveThresholds(examples(rows), 0.013, 0.99);
  if (live === null) throw new Error('both classes');
  expect(live.certainFrom).toBe('highest-score');
  expect(live.Certain).toBeGreaterThan(0.99);
  return live;
}

describe('live thresholds from held-out labels', () => {
  // 3,000 matches and 3,000 non-matches, drawn half and half; live, one candidate pair in ten is a true pair.
  const shape = [
    [0.9, 60, 0],
    [0.7, 20, 1],
    [0.4, 10, 4],
    [0.2, 6, 20],
    [0.05, 4, 75],
  ] as const;
  const heldOut = examples(shape.map(([score, m, n]) => [score, m * 30, n * 30] as const));

  it('reweights precision to the live share of true pairs: the labels’ balance would overstate it', () => {
    const live = liveThresholds(heldOut, 0.1, 0.95);
    expect(live).not.toBeNull();
    if (live === null) return;
    // At 0.7: TPR 0.8, FPR 0.01 → precision 0.1·0.8 / (0.1·0.8 + 0.9·0.01) = 0.08 / 0.089 = 0.8989 < 0.95: not Certain.
    // At 0.9: TPR 0.6, FPR 0 → precision 1; with 95% confidence (TPR ≥ 0.582, FPR ≤ 0.00128) 0.98. Best live F1: 0.9
    // (F1 0.75) vs 0.7 (F1 2·0.8989·0.8/1.6989 = 0.8466) → 0.7, but the target needs 0.9, and Certain is the higher.
    expect(live.Certain).toBeGreaterThan(0.7);
    expect(live.Certain).toBeLessThanOrEqual(0.9);
    expect(live.targetPrecisionMet).toBe(true);
    expect(live.atCertain.precision).toBe(1);
    expect(live.atCertain.recall).toBeCloseTo(0.6, 12);
    expect(live.atCertain.precisionLowerBound).toBeGreaterThan(0.95);
    expect(live.atCertain.precisionLowerBound).toBeLessThan(1);
    expect(live.heldOutNonMatchesNeeded).toBeNull();
    // The review band below it: [0.7, 0.9) holds 20 matches and 1 non-match → 0.1·0.2 / (0.1·0.2 + 0.9·0.01) = 0.69 ≥ 0.5;
    // [0.4, 0.9) adds 10 and 4 → 0.1·0.3 / (0.03 + 0.9·0.05) = 0.4 < 0.5. So Probable sits in (0.4, 0.7].
    expect(live.Probable).toBeGreaterThan(0.4);
    expect(live.Probable).toBeLessThanOrEqual(0.7);
    expect(live.atProbable.recall).toBeCloseTo(0.8, 12);
    expect(liveThresholdsText(live, 0.95, { Certain: 0.97, Probable: 0.5 }, heldOutOnly)).toMatch(
      /Probable [\d.]+ is the lowest cut that keeps the review band between it and Certain more often one person than two with 95% confidence, piece by piece/,
    );
    // On the labels' own balance (prior 0.5) the same cut at 0.7 reaches 80 / 81 = 0.988 ≥ 0.95: the labels would
    // have said 0.7 is safe; live it is 0.899.
    const balanced = liveThresholds(heldOut, 0.5, 0.95);
    expect(balanced?.Certain).toBeLessThanOrEqual(0.7);
  });

  it('certifies no cut the labels cannot show: a point estimate of precision 1 from too few non-matches is not enough', () => {
    // The same shape with 100 non-matches: at 0.9 no false positive, so the point estimate is precision 1, yet FPR
    // could be 3.7% (its Wilson upper bound), and live precision then as low as 0.6.
    const few = liveThresholds(examples(shape), 0.1, 0.95);
    expect(few?.targetPrecisionMet).toBe(false);
    expect(few?.atCertain.precision).toBe(1);
    expect(few?.atCertain.precisionLowerBound).toBeLessThan(0.95);
    expect(few?.Certain).toBeGreaterThan(0.7);
    expect(few?.heldOutNonMatches).toBe(100);
    expect(few?.heldOutNonMatchesNeeded).toBeGreaterThan(100);

    // True pairs rare among candidates (a million-record registry's 1.25%): 300 held-out non-matches, none near the
    // matches, show nothing about the false links a cut makes live. About 5,800 would (z² / FPR with FPR ≤
    // 0.0125 · 0.98 · 0.05 / (0.95 · 0.9875) ≈ 6.5e-4).
    const rare = liveThresholds(
      examples([
        [0.9, 294, 0],
        [0.001, 6, 300],
      ]),
      0.0125,
      0.95,
    );
    expect(rare?.targetPrecisionMet).toBe(false);
    expect(rare?.certainFrom).toBe('highest-score');
    expect(rare?.atCertain.precision).toBe(1);
    expect(rare?.heldOutNonMatchesNeeded).toBeGreaterThan(5_000);
    expect(rare?.heldOutNonMatchesNeeded).toBeLessThan(7_000);
    // And no review band the labels cannot show is more often one person than two.
    expect(rare?.Probable).toBe(rare?.Certain);

    // The report says what would show it, and when no label set can: keep the profile.
    const profile = { Certain: 0.97, Probable: 0.5 };
    if (few === null || rare === null) throw new Error('both have classes');
    expect(liveThresholdsText(few, 0.95, profile, heldOutOnly)).toMatch(
      /no held-out cut shows the target precision 0\.95 in live matching with 95% confidence \(100 held-out non-matches cannot rule out enough false links when true pairs are this rare; about [\d,]+ with none scored at Certain would, about [\d,]+ labelled at this validation fraction\)/,
    );
    expect(liveThresholdsText(few, 0.95, profile, heldOutOnly)).not.toMatch(/more than a label set holds/);
    expect(liveThresholdsText(rare, 0.95, profile, heldOutOnly)).toMatch(
      /about [\d,]+ labelled at this validation fraction: more than a label set holds \(10,000 pairs\), so keep the profile or ask a lower target precision/,
    );
    // No review band: the report says so rather than calling Certain the band's lowest cut.
    expect(liveThresholdsText(rare, 0.95, profile, heldOutOnly)).toMatch(
      /Probable 0\.9 is Certain itself: no piece of the pairs below Certain shows more pairs of one person than of two with 95% confidence, so none of them goes to review/,
    );
  });

  it('grows the review band down piece by piece while each piece shows 0.5, past pieces too small to show anything', () => {
    // Concentrated common names (names-dates-common): true pairs 1.3% of the candidates, so no cut shows 0.95 and
    // Certain falls back to the highest score. Just below it one true pair alone: a piece of one shows nothing (the
    // lower end of its recall is near 0), yet with the 240 true pairs at 0.9 and no non-match it shows 0.5 and more.
    const rows = [
      [1, 1, 0],
      [0.99, 1, 0],
      [0.9, 240, 0],
      [0.6, 100, 0],
      [0.5, 40, 10],
      [0.4, 100, 0],
      [0.01, 10, 2600],
    ] as const;
    const live = fallbackAtHighestScore(rows);
    // Not at Certain (no review band: every pair below it unlinked and unreviewed), but down to 0.6: the piece
    // [0.6, 0.9) holds 100 true pairs and no non-match. Not below: the next piece, once large enough to show 0.5, holds
    // 140 true pairs and 10 non-matches ([0.4, 0.6)), at a live share of 1.3% more often two people than one, and the
    // band ends there, though 100 clean pairs sit at 0.4: a tail never rides on the pairs above it.
    expect(live.Probable).toBeLessThanOrEqual(0.6);
    expect(live.Probable).toBeGreaterThan(0.5);
    expect(live.atProbable.recall).toBeCloseTo(342 / 492, 12);
    // The band as one, [0.4, Certain), would show 0.5: 482 true pairs and 10 non-matches.
    const asOne = liveThresholds(
      examples([
        [1, 1, 0],
        [0.4, 481, 10],
        [0.01, 10, 2600],
      ]),
      0.013,
      0.99,
    );
    expect(asOne?.Probable).toBeLessThanOrEqual(0.4);
  });

  it('judges a piece of the band once it could carry one non-match: one stray non-match does not end the band', () => {
    // Just below Certain, 60 true pairs and one non-match: with no non-match they would show 0.5 (the lower end of
    // their live precision 0.59), with one they do not yet (0.49). Ended there, the band would hold nothing, and the
    // 240 clean true pairs below would go unreviewed; grown on to them, the piece holds 300 true pairs and the one
    // non-match, and shows 0.5 and more.
    const rows = [
      [1, 1, 0],
      [0.99, 60, 1],
      [0.9, 240, 0],
      [0.01, 10, 2600],
    ] as const;
    const live = fallbackAtHighestScore(rows);
    expect(live.Probable).toBeLessThanOrEqual(0.9);
    expect(live.Probable).toBeGreaterThan(0.01);
    expect(live.atProbable.recall).toBeCloseTo(301 / 311, 12);
  });

  it('falls back to the cut where the labels show the most when that is at least 0.95, short of a higher target', () => {
    // Heavy typos: 3,000 true pairs well apart from 1,500 held-out non-matches, prior 0.073. With no false positive the
    // labels show at least 0.968 at 0.9: not the 0.99 asked, but at least FALLBACK_PRECISION_FLOOR.
    const apart = examples([
      [0.9, 3000, 0],
      [0.05, 0, 1500],
    ]);
    const live = liveThresholds(apart, 0.073, 0.99);
    expect(live?.targetPrecisionMet).toBe(false);
    expect(live?.certainFrom).toBe('best-shown');
    expect(live?.atCertain.precisionLowerBound).toBeGreaterThanOrEqual(FALLBACK_PRECISION_FLOOR);
    expect(live?.atCertain.precisionLowerBound).toBeLessThan(0.99);
    expect(live?.Certain).toBeGreaterThan(0.05);
    expect(live?.Certain).toBeLessThanOrEqual(0.9);
    expect(live?.atCertain.recall).toBe(1);
    if (live === null) throw new Error('both classes');
    expect(liveThresholdsText(live, 0.99, { Certain: 0.97, Probable: 0.5 }, heldOutOnly)).toMatch(
      /Certain [\d.]+ is the cut where they show the most, at least 0\.9\d+ with 95% confidence \(short of the target, at least 0\.95\)/,
    );
    // Asked 0.95, the same labels show it.
    expect(liveThresholds(apart, 0.073, 0.95)?.certainFrom).toBe('target');
  });

  it('warns when a model on the random-pair scale would link below 0.5, and names the prior each way', () => {
    // FEBRL-like: true pairs down to 0.002, no held-out non-match above 1e-6, at a candidates' share of 0.34.
    const low = examples([
      [0.9, 1400, 0],
      [0.002, 100, 0],
      [1e-6, 0, 1500],
    ]);
    const live = liveThresholds(low, 0.34, 0.99);
    if (live === null) throw new Error('both classes');
    expect(live.targetPrecisionMet).toBe(true);
    expect(live.Certain).toBeLessThan(0.5);
    const profile = { Certain: 0.97, Probable: 0.5 };
    const fromRandomPairs = liveThresholdsText(live, 0.99, profile, heldOutOnly, null, 2.7e-4);
    expect(fromRandomPairs).toMatch(
      /whose prior 2\.7e-4 is restated for random pairs.*0\.340, the share of true pairs/,
    );
    expect(fromRandomPairs).toMatch(
      /the model itself holds a pair below 0\.5 more likely two people than one.*prefer Certain 0\.5/,
    );
    const fromLabels = liveThresholdsText(live, 0.99, profile, heldOutOnly);
    expect(fromLabels).toMatch(/whose prior 0\.340 is the share of true pairs among the pairs the scorer meets/);
    expect(fromLabels).toMatch(/its u came from labelled non-matches drawn among the closest candidates/);
  });

  it('says so when no cut reaches the target, and keeps Certain at the highest held-out score', () => {
    const noisy = examples([
      [0.95, 5, 1],
      [0.5, 5, 5],
    ]);
    const live = liveThresholds(noisy, 0.01, 0.99);
    expect(live?.targetPrecisionMet).toBe(false);
    expect(live?.Certain).toBeGreaterThan(0.5);
    expect(live?.Certain).toBeLessThanOrEqual(0.95);
    expect(live?.Probable).toBe(live?.Certain);
  });

  it('never links a pair the scorer’s limits hold, and counts it in review wherever its score reaches Probable', () => {
    const held = (score: number, matches: number, nonMatches: number) =>
      examples([[score, matches, nonMatches]]).map((e) => ({ ...e, held: true }));
    const without = liveThresholds(heldOut, 0.1, 0.95);
    if (without === null) throw new Error('both classes');
    // 30 twins the limits hold, scoring 0.95 (above every other pair): linked, they would cost Certain its target
    // (FPR 0.01 at 0.9, as at 0.7 above); held, live matching sends them to review at any Probable.
    const twins = [...heldOut, ...held(0.95, 0, 30)];
    const withTwins = liveThresholds(twins, 0.1, 0.95);
    if (withTwins === null) throw new Error('both classes');
    expect(withTwins.Certain).toBe(without.Certain);
    expect(withTwins.targetPrecisionMet).toBe(true);
    expect(withTwins.atCertain.precision).toBe(1);
    expect(withTwins.atCertain.recall).toBeCloseTo(0.6, 12);
    expect(withTwins.Probable).toBe(without.Probable);
    // Reviewed with the band: [Probable, Certain) holds 600 matches and 30 non-matches, and the twins add 30 more.
    expect(withTwins.atProbable.recall).toBeCloseTo(0.8, 12);
    const fpr = (30 + 30) / 3030;
    expect(withTwins.atProbable.precision).toBeCloseTo((0.1 * 0.8) / (0.1 * 0.8 + 0.9 * fpr), 12);
    expect(withTwins.heldOutNonMatches).toBe(3030);

    // 600 true pairs the limits hold at 0.9 (names only, say): never linked, so Certain's recall counts them as missed;
    // reviewed once Probable is at or below 0.9.
    const namesOnly = [...heldOut, ...held(0.9, 600, 0)];
    const withNamesOnly = liveThresholds(namesOnly, 0.1, 0.95);
    if (withNamesOnly === null) throw new Error('both classes');
    expect(withNamesOnly.atCertain.recall).toBeCloseTo(1800 / 3600, 12);
    expect(withNamesOnly.Probable).toBeLessThanOrEqual(0.7);
    expect(withNamesOnly.atProbable.recall).toBeCloseTo((1800 + 600 + 600) / 3600, 12);

    // Nothing can be linked when every pair is held: no live thresholds.
    expect(liveThresholds([...held(0.9, 3, 0), ...held(0.1, 0, 3)], 0.1, 0.95)).toBeNull();
  });

  it('stops the review band before the piece that would take it over a review budget, and says so', () => {
    // 3,000 matches and 3,000 non-matches. Certain needs 0.9 (at 0.75 live precision is 0.07 / 0.0745 = 0.94); below
    // it two pieces each show 0.5 (300 matches and 15 non-matches: at least 0.55 with 95% confidence), then one that
    // cannot (300 and 120) ends the band.
    const rows = [
      [0.9, 1800, 0],
      [0.75, 300, 15],
      [0.7, 300, 15],
      [0.4, 300, 120],
      [0.2, 180, 600],
      [0.05, 120, 2250],
    ] as const;
    const labels = examples(rows);
    // 10,000 records and 20,000 candidate pairs: each piece holds 20,000 · (0.1 · 0.1 + 0.9 · 0.005) = 290 of them,
    // 29 per 1,000 records.
    const registry = { records: 10_000, candidatePairs: 20_000 };
    const free = liveThresholds(labels, 0.1, 0.95);
    const roomy = liveThresholds(labels, 0.1, 0.95, { ...registry, perThousandRecords: 60 });
    const tight = liveThresholds(labels, 0.1, 0.95, { ...registry, perThousandRecords: 40 });
    const none = liveThresholds(labels, 0.1, 0.95, { ...registry, perThousandRecords: 20 });
    if (free === null || roomy === null || tight === null || none === null) throw new Error('both classes');
    expect(free.reviewLoad).toBeUndefined();
    expect(free.Probable).toBeGreaterThan(0.4);
    expect(free.Probable).toBeLessThanOrEqual(0.7);
    // Both pieces fit 60: the band is the 0.5 rule's own.
    expect(roomy.Probable).toBe(free.Probable);
    expect(roomy.reviewLoad?.pairsPerThousandRecords).toBeCloseTo(58, 9);
    expect(roomy.reviewLoad?.budgetRaisedProbable).toBe(false);
    // 40 takes the first piece only: Probable between the two pieces' scores, recall with reviews 0.7, not 0.8.
    expect(tight.Certain).toBe(free.Certain);
    expect(tight.Probable).toBeGreaterThan(0.7);
    expect(tight.Probable).toBeLessThanOrEqual(0.75);
    expect(tight.atProbable.recall).toBeCloseTo(0.7, 12);
    expect(tight.reviewLoad).toEqual({
      budgetPerThousandRecords: 40,
      pairsPerThousandRecords: expect.closeTo(29, 9) as number,
      budgetRaisedProbable: true,
      unbudgetedPairsPerThousandRecords: expect.closeTo(58, 9) as number,
    });
    const text = liveThresholdsText(tight, 0.95, { Certain: 0.97, Probable: 0.5 }, heldOutOnly);
    expect(text).toMatch(/as far down from Certain as the review band can grow within the review budget/);
    expect(text.match(/go to review/g)).toHaveLength(1);
    expect(text).toMatch(
      /about 29\.0 of the registry's candidate pairs per 1,000 records go to review, within the review budget of 40 per 1,000; without the budget the band would hold about 58\.0/,
    );
    // 20 takes neither: no band.
    expect(none.Probable).toBe(none.Certain);
    expect(none.reviewLoad?.pairsPerThousandRecords).toBe(0);
    expect(none.reviewLoad?.budgetRaisedProbable).toBe(true);
    expect(liveThresholdsText(none, 0.95, { Certain: 0.97, Probable: 0.5 }, heldOutOnly)).toMatch(
      /is Certain itself: the first piece .* would take the review band over the review budget/,
    );

    // Pairs the limits hold at or above Certain go to review at any Probable, so they count from the start: 150 held
    // non-matches at 0.95 are 20,000 · 0.9 · 150 / 3,150 = 857 candidate pairs, 86 per 1,000, over any band's room.
    const held = examples([[0.95, 0, 150]]).map((e) => ({ ...e, held: true }));
    const heldOver = liveThresholds([...labels, ...held], 0.1, 0.95, { ...registry, perThousandRecords: 60 });
    expect(heldOver?.Probable).toBe(heldOver?.Certain);
    expect(heldOver?.reviewLoad?.pairsPerThousandRecords).toBeCloseTo((2000 * 0.9 * 150) / 3150, 9);
    if (heldOver == null) throw new Error('both classes');
    expect(liveThresholdsText(heldOver, 0.95, { Certain: 0.97, Probable: 0.5 }, heldOutOnly)).toMatch(
      /Even so about 85\.7 of the registry's candidate pairs per 1,000 records go to review, over the review budget/,
    );
  });

  it('answers null without both classes, and refuses a prior outside (0, 1)', () => {
    expect(liveThresholds(examples([[0.9, 3, 0]]), 0.1, 0.99)).toBeNull();
    expect(() => liveThresholds(heldOut, 0, 0.99)).toThrow(RangeError);
    expect(() => liveThresholds(heldOut, 1, 0.99)).toThrow(RangeError);
  });
});
