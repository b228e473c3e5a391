import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { febrlFile } from '../../helpers/febrl.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { estimateRun, febrlLoader } from '../../../engine/benchmark/estimate-run.ts';
import { namesAndBirthDate } from '../../../engine/benchmark/febrl-run.ts';

/**
 * The unsupervised estimate (matching/estimate: no labels) on FEBRL, applied with profile/apply and re-matched
 * by ingesting every record again into a fresh tenant under the applied profile, measured against the ground
 * truth (a true pair that blocking misses, or whose record validation refuses, counts as missed). FEBRL 4 is
 * a tuning set; FEBRL 3 is held out (nothing was changed after measuring it).
 *
 *   2026-11-23  FEBRL 4: EM converged in 9 iterations over 13,434 candidate pairs, λ 0.372, about 4,996
 *               expected true pairs (5,000 exist); model alone (profile thresholds 0.99 / 0.5): auto-links
 *               P 1.0000 R 0.9956 F1 0.9978; with the suggested thresholds (Certain 0.63): P 1.0000
 *               R 0.9990 F1 0.9995 (published best for a leading library: 0.9998)
 *               FEBRL 3 (held out): model alone F1 0.9959; suggested thresholds (Certain 0.5) F1 0.9985
 *   2026-11-23  u over non-matches (random pairs the fitted model takes for one person weighted out,
 *               non-match-u.ts), default Certain 0.97: FEBRL 4 model alone P 1.0000 R 0.9990 F1 0.9995,
 *               suggested thresholds (0.5 / 0.5) F1 0.9997; FEBRL 3 model alone F1 0.9985, suggested 0.9988
 *   2026-11-23  m from one EM session per blocking rule over names, birth date or identifier (session-m.ts):
 *               FEBRL 4 and 3 unchanged; FEBRL 3 with names and birth dates only: model alone P 1.0000
 *               R 0.8515 F1 0.9198 (was 0.8632), 72.8 review cases per 1,000 (was 146.4)
 *   2026-11-23  review budget (20 candidate pairs per 1,000 records) on the suggested Probable, the estimate's scores
 *               with the live term-frequency adjustment: names and dates, suggested 0.97 / 0.9242: F1 0.9198,
 *               25.4 review cases per 1,000 (125 of 127 joining a true pair)
 *   2026-11-25  household evidence (address, contact details, non-personal identifiers) not counted when the given
 *               name or birth date disagrees, twin hold lifted by a trusted identifier only: FEBRL 4 model alone
 *               F1 0.9969, suggested 0.9980; FEBRL 3 model alone 0.9948, suggested 0.9959 (FEBRL has no households:
 *               the pairs it loses look like two household members)
 *
 * The floors sit just below the measurements.
 */
describe('the unsupervised estimate on FEBRL, applied and re-matched', () => {
  it('FEBRL 4: recovers the number of true pairs and links at F1 >= 0.996, alone and with its suggested thresholds', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl-estimate.db') });
    const run = await estimateRun(
      engine,
      'febrl4',
      febrlLoader(engine, [
        { sourceSystem: 'febrl-4a', path: febrlFile('dataset4a.csv') },
        { sourceSystem: 'febrl-4b', path: febrlFile('dataset4b.csv') },
      ]),
      ['profile', 'suggested'],
    );
    const { report } = run;
    expect(report.convergence.converged).toBe(true);
    expect(report.candidates.modelled).toBeGreaterThan(13_000);
    // 5,000 true pairs exist; 4,997 of them are blocking candidates.
    expect(report.expectedMatches).toBeGreaterThan(4950);
    expect(report.expectedMatches).toBeLessThan(5050);
    expect(report.priorMatchProbability).toBeGreaterThan(0.9e-4);
    expect(report.priorMatchProbability).toBeLessThan(1.1e-4);
    expect(report.suggestedThresholds.Certain).toBeLessThan(0.99);

    const alone = run.rematched.profile?.population;
    expect(alone?.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // Birth dates of another day in the same year held to review (scorer.ts birthDateConflict, 2026-11-26): 0.99649.
    expect(alone?.autoLinks.f1).toBeGreaterThanOrEqual(0.996);
    const suggested = run.rematched.suggested?.population;
    expect(suggested?.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9968.
    expect(suggested?.autoLinks.f1).toBeGreaterThanOrEqual(0.996);
    expect((1000 * (suggested?.reviewCases ?? Infinity)) / (suggested?.records ?? 1)).toBeLessThanOrEqual(5);
    engine.close();
  }, 400_000);

  it('FEBRL 3 (held out): the same method, unchanged, links at F1 >= 0.992, and >= 0.9925 with its suggested thresholds', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl-estimate.db') });
    const run = await estimateRun(
      engine,
      'febrl3',
      febrlLoader(engine, [{ sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv') }]),
      ['profile', 'suggested'],
    );
    expect(run.report.convergence.converged).toBe(true);
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9928, with its thresholds 0.9935.
    expect(run.rematched.profile?.population.autoLinks.f1).toBeGreaterThanOrEqual(0.992);
    const suggested = run.rematched.suggested?.population;
    expect(suggested?.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // 2026-12-05: a record without a birth date is a bare record (judged-member.ts). Emma Louca's record born 1936-05-12,
    // a generation from her four born 1959-03-08, no longer joins them through her record without a date, as a son of
    // one name would not join his father's: 0.9928 (0.9932 before).
    expect(suggested?.autoLinks.f1).toBeGreaterThanOrEqual(0.9925);
    engine.close();
  }, 300_000);

  it('FEBRL 3 with names and birth dates only: m from the person-rule sessions links at F1 >= 0.845, and its suggested thresholds keep reviews within 30 per 1,000', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl-estimate.db') });
    const run = await estimateRun(
      engine,
      'febrl3-names',
      febrlLoader(engine, [{ sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv'), project: namesAndBirthDate }]),
      ['profile', 'suggested'],
    );
    // Every rule of the default profile that these fields can key is over the person, so every field's m comes from sessions.
    expect(run.report.mSessions?.fields).toEqual(['familyName', 'givenName', 'birthDate']);
    expect(run.report.mSessions?.sessions.filter((s) => s.matchShare !== null).length).toBeGreaterThanOrEqual(4);
    const alone = run.rematched.profile?.population;
    expect(alone?.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.857 (0.919 before).
    // 2026-11-27: a pair agreeing on names alone (one record without a birth date) goes to review (scorer.ts namesOnly): 0.8500.
    expect(alone?.autoLinks.f1).toBeGreaterThanOrEqual(0.845);
    // With the profile's thresholds (not the suggested ones) the review band is wide: 147 per 1,000 since twins without a sex stopped
    // counting the family name (2026-11-26; 80 before). The suggested thresholds below keep it within 30.
    expect((1000 * (alone?.reviewCases ?? Infinity)) / (alone?.records ?? 1)).toBeLessThanOrEqual(155);
    // The default review budget (20 candidate pairs per 1,000 records) raises Probable; Certain, and so F1, stay.
    expect(run.report.suggestedThresholds.Probable).toBeGreaterThan(0.5);
    expect(run.report.suggestion).toMatch(/review budget \(20 per 1,000 of the 5000 records\)/);
    expect(run.report.reviewBand).toMatchObject({ budgetPerThousandRecords: 20, budgetRaisedProbable: true });
    expect(run.report.reviewBand?.pairsPerThousandRecords).toBeLessThanOrEqual(20);
    expect(run.report.reviewBand?.expectedTruePairsLeftOut).toBeGreaterThan(0);
    const suggested = run.rematched.suggested?.population;
    // 0.8500 (2026-11-27, as above), 15.6 reviews per 1,000, every one joining a true pair.
    expect(suggested?.autoLinks.f1).toBeGreaterThanOrEqual(0.845);
    const reviewRate = (1000 * (suggested?.reviewCases ?? Infinity)) / (suggested?.records ?? 1);
    expect(reviewRate).toBeLessThanOrEqual(30);
    // The pairs kept for review are the ones most likely one person: at least half of the cases join a true pair.
    expect(suggested?.reviewCasesJoiningTruePair ?? 0).toBeGreaterThanOrEqual(
      0.5 * (suggested?.reviewCases ?? Infinity),
    );
    engine.close();
  }, 300_000);
});
