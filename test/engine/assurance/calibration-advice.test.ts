/**
 * A calibration report says whether its model does better than the active profile (profile-comparison.ts), measured
 * on its held-out labels; here the advice is checked against what happens when the model is applied with its live
 * thresholds to a fresh tenant and matched end to end (engine/benchmark/febrl-assurance.ts: 10,000 sampled labels,
 * 30% held out, target precision 0.99), beside the default profile on the same records.
 *
 * On 2026-11-30 (`npm run quality -- --calibrated`): on names and birth dates only the model at its live Certain
 * 0.684 links fewer true pairs (held-out recall 0.638 against the profile's 0.757, precision shown 0.968 against
 * 0.973; end to end F1 0.7667 against the default's 0.8655), and with heavy errors too (0.0082 against 0.5180): the
 * report says to keep the profile. On every field with heavy errors the model does better (recall 1.0 against
 * 0.967; F1 0.9872 against 0.9822), and on FEBRL 3 and 4 and FEBRL 3's names and birth dates too. Those are the
 * specification's u, from the labelled non-matches (`uFrom: 'labels'`).
 *
 * With u from random pairs of the registry (registry-u.ts; the console's and the CLI's default), names and birth
 * dates only (2026-11-30): live Certain 0.53, held-out recall 0.825 against the profile's 0.757 at precision shown
 * 0.976 against 0.973, so the model does better; end to end F1 0.9031 (P 0.9868) against the default's 0.8655 and
 * the estimate without labels' 0.8655 (its fit fails its checks there and falls back to the default).
 *
 * 2026-12-06: the live false-positive rate read over every labelled non-match the model never learned from (with u from
 * random pairs, the training ones too: 8,756 where 2,627 were held out among a few common names), and the review band
 * grown piece by piece (live-thresholds.ts). Names and birth dates: live Certain 0.97, F1 0.8786 (P 0.9980: the target
 * 0.99 now holds end to end) against 0.8650 by default and without labels. With heavy errors: 0.6119 (P 1.0000) at 0.9,
 * against the default's 0.5153; its Certain was the highest held-out score (F1 0.0000). Among a few common names (true
 * pairs 1.3% of the candidates) no cut shows 0.95 even so: keep the profile; applied, the model links nothing on its
 * own and its 19.3 review cases per 1,000 records all join a true pair (it had no review band).
 *
 * 2026-12-06, later: the live thresholds keep the review band within the estimate's review budget (live-thresholds.ts).
 * Among a few common names the band the 0.5 rule grows (102.3 cases per 1,000 records once held pairs were read as live
 * matching holds them) stops at 9.8 cases per 1,000, all one person; every other set's line is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { QUALITY_EXTRACTS } from '../../../engine/benchmark/extracts.ts';
import { estimateRun, extractLoader } from '../../../engine/benchmark/estimate-run.ts';
import type { USource } from '../../../engine/contract/assurance.ts';
import { assuranceRun } from '../../../engine/benchmark/febrl-assurance.ts';
import { populationQuality } from '../../../engine/benchmark/population-quality.ts';

/**
 * Each test takes 10 to 24 s on the machine its figures were measured on. The limit only catches a hang: a CI
 * machine once ran a test of the same kind (extract-quality.test.ts) nine times slower than here (2026-12-01).
 */
const LIMIT_MS = 480_000;

async function advice(name: keyof typeof QUALITY_EXTRACTS, uFrom: USource, withEstimate = false) {
  const engine = LocalEngine.open({ dbPath: join(tempDir(), `${name}.db`) });
  const data = await extractLoader(engine, QUALITY_EXTRACTS[name]);
  const ctx = { tenantId: `${name}-default`, actor: 'test' };
  const { truth } = await data.load(ctx, data.profile);
  const byDefault = await populationQuality(engine, ctx, truth);
  const run = await assuranceRun(engine, name, data, uFrom);
  const estimated = withEstimate ? await estimateRun(engine, name, data, ['suggested'], ctx) : null;
  engine.close();
  const against = run.calibration.liveThresholds?.againstProfile;
  if (against == null) throw new Error('the report sets the model beside no profile');
  return {
    against,
    byDefault: byDefault.autoLinks.f1 ?? 0,
    calibrated: run.population.autoLinks,
    population: run.population,
    noLabels: estimated?.rematched.suggested?.population.autoLinks.f1 ?? null,
  };
}

describe('a calibration’s advice against the active profile, checked end to end', { timeout: LIMIT_MS }, () => {
  it('names and birth dates only, u from the labels: keep the profile, and the model applied anyway links fewer true pairs', async () => {
    const { against, byDefault, calibrated } = await advice('names-dates', 'labels');
    expect(against.keepProfile).toBe(true);
    expect(calibrated.f1).toBeLessThan(byDefault);
  });

  it('every field with heavy errors, u from the labels: the model does better, and applied it beats the profile', async () => {
    const { against, byDefault, calibrated } = await advice('heavy-typos', 'labels');
    expect(against.keepProfile).toBe(false);
    expect(calibrated.f1).toBeGreaterThanOrEqual(byDefault);
  });

  it('names and birth dates only, u from random pairs: the model does better, and applied it beats the profile and the estimate without labels', async () => {
    const { against, byDefault, calibrated, noLabels } = await advice('names-dates', 'random-pairs', true);
    expect(against.keepProfile).toBe(false);
    expect(calibrated.f1).toBeGreaterThanOrEqual(byDefault + 0.01);
    expect(calibrated.f1).toBeGreaterThanOrEqual(noLabels ?? 1);
    // The target asked (0.99) holds end to end: the false-positive rate is read over every non-match the model never
    // learned from (2026-12-06; 0.9868 when it was read over the held-out ones alone).
    expect(calibrated.precision).toBeGreaterThanOrEqual(0.99);
  });

  it('names and birth dates with heavy errors, u from random pairs: applied, the model beats the profile and the estimate without labels', async () => {
    const { against, byDefault, calibrated, noLabels } = await advice('names-dates-heavy', 'random-pairs', true);
    expect(against.keepProfile).toBe(false);
    expect(calibrated.f1).toBeGreaterThanOrEqual(byDefault + 0.05);
    expect(calibrated.f1).toBeGreaterThanOrEqual(noLabels ?? 1);
    expect(calibrated.precision).toBeGreaterThanOrEqual(0.99);
  });

  it('names among a few common names, u from random pairs: keep the profile, and the model applied anyway sends its surest pairs to review, as many as a team can staff', async () => {
    const { against, population } = await advice('names-dates-common', 'random-pairs');
    // No cut shows 0.95 (true pairs 1.3% of the candidates): the model links almost nothing on its own, and says so.
    expect(against.keepProfile).toBe(true);
    expect(population.autoLinks.recall ?? 1).toBeLessThan(0.01);
    // Its review band holds the pairs it is surest of, nearly all of them one person, and stops at the review budget
    // (20 of the registry's candidate pairs per 1,000 records, the estimate's): 9.8 cases per 1,000 records, every one
    // one person. Without the budget it sent to review the true pairs the profile would link, 102 cases per 1,000
    // (98.5% one person), where the profile opens 22.5 and links the rest: more than the 30 a team staffs on names
    // and birth dates. A band of mostly two people would fail the share below.
    const perThousand = (1000 * population.reviewCases) / population.records;
    expect(perThousand).toBeGreaterThanOrEqual(5);
    expect(perThousand).toBeLessThanOrEqual(30);
    expect(population.reviewCasesJoiningTruePair / population.reviewCases).toBeGreaterThanOrEqual(0.95);
  });
});
