import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { BANDS, FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { FellegiSunterModelSchema } from '../../../engine/contract/profile.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { FIELD_COUNT } from '../../../engine/scoring/field-comparison.ts';
import { bandCounts, estimateFields, learnsFromNonMatches } from '../../../engine/assurance/calibrate.ts';
import { smoothedBandProbabilities } from '../../../engine/assurance/smoothed-bands.ts';
import { listAudit } from '../../../engine/store/audit.ts';
import { createRng } from '../../../engine/synthetic/prng.ts';
import { splitByClass } from '../../../engine/assurance/split.ts';

/** A similarity that falls in each band (BANDS order). */
const BAND_SIMILARITY = [1, 0.9, 0.6, 0.2] as const;

function draw(probabilities: readonly number[], u: number): number {
  let cumulative = 0;
  for (let b = 0; b < probabilities.length; b++) {
    cumulative += probabilities[b] ?? 0;
    if (u < cumulative) return b;
  }
  return probabilities.length - 1;
}

describe('Fellegi-Sunter estimation', () => {
  it('smooths band counts additively: (n_b + s) / (n + 4s)', () => {
    expect(smoothedBandProbabilities([3, 1, 0, 0], 1)).toEqual({
      Exact: 4 / 8,
      Strong: 2 / 8,
      Partial: 1 / 8,
      Different: 1 / 8,
    });
    expect(smoothedBandProbabilities([0, 0, 0, 0], 0.5)).toEqual({
      Exact: 0.25,
      Strong: 0.25,
      Partial: 0.25,
      Different: 0.25,
    });
    expect(() => smoothedBandProbabilities([1, 0, 0, 0], 0)).toThrow(RangeError);
  });

  it('recovers known m and u from observations generated with them, treating missing values as neutral', () => {
    const m = [0.7, 0.15, 0.1, 0.05];
    const u = [0.05, 0.1, 0.25, 0.6];
    const n = 40_000;
    const rng = createRng(20261121);
    const similarity = new Float64Array(n * FIELD_COUNT);
    const isMatch = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      isMatch[i] = i % 2 === 0 ? 1 : 0;
      for (let f = 0; f < FIELD_COUNT; f++) {
        // A third of the comparisons are missing: they must not move the estimate.
        similarity[i * FIELD_COUNT + f] =
          rng.next() < 1 / 3 ? Number.NaN : (BAND_SIMILARITY[draw(isMatch[i] === 1 ? m : u, rng.next())] ?? 0);
      }
    }
    const fields = estimateFields(
      bandCounts(similarity, isMatch, () => true),
      1,
    );
    for (const field of FIELD_NAMES) {
      BANDS.forEach((band, b) => {
        // About 6,700 observations per class: the standard error of each share is below 0.006.
        expect(Math.abs((fields[field]?.m[band] ?? 0) - (m[b] ?? 0))).toBeLessThan(0.02);
        expect(Math.abs((fields[field]?.u[band] ?? 0) - (u[b] ?? 0))).toBeLessThan(0.02);
      });
    }
  });
});

describe('which labelled non-matches the model never learned from', () => {
  // Training pairs: one match and one non-match, each comparing the family name and the phone only.
  const similarity = new Float64Array(2 * FIELD_COUNT).fill(Number.NaN);
  const family = FIELD_NAMES.indexOf('familyName');
  const phone = FIELD_NAMES.indexOf('phone');
  for (const i of [0, 1]) {
    similarity[i * FIELD_COUNT + family] = 1;
    similarity[i * FIELD_COUNT + phone] = 0;
  }
  const counts = bandCounts(similarity, Uint8Array.from([1, 0]), () => true);
  const even = { Exact: 0.25, Strong: 0.25, Partial: 0.25, Different: 0.25 };

  it('u from the labels: the model learned from its non-matches', () => {
    expect(learnsFromNonMatches(counts, null)).toBe(true);
  });

  it('u from random pairs for every field the non-matches compared: it learned from the matches only', () => {
    expect(learnsFromNonMatches(counts, { familyName: even, phone: even })).toBe(false);
  });

  it('a field the random pairs never compared keeps the labels’ u: then it learned from the non-matches too', () => {
    // Random pairs compared the family name only; the training non-match compared the phone, whose u is then theirs.
    expect(learnsFromNonMatches(counts, { familyName: even })).toBe(true);
    // A field only the matches compared does not count: its u is the labels' smoothed nothing, learned from no
    // non-match.
    const matchOnly = similarity.slice();
    matchOnly[FIELD_COUNT + phone] = Number.NaN;
    expect(
      learnsFromNonMatches(
        bandCounts(matchOnly, Uint8Array.from([1, 0]), () => true),
        { familyName: even },
      ),
    ).toBe(false);
  });
});

describe('matching/calibrate on a synthetic sandbox', () => {
  it('returns a complete model and held-out report, never activates it, and is deterministic in its split', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 600, seed: 5 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 2000, seed: 3 }, ctx);
    const request = {
      datasetId: 'synthetic-600',
      modelVersion: 'fs-test-1',
      pairs,
      priorMatchProbability: 0.2,
      smoothing: 1,
      validationFraction: 0.3,
      targetPrecision: 0.99,
    };
    const profileBefore = await engine.call('profile/get', {}, ctx);
    const auditBefore = listAudit(engine.env.store, 'demo').length;

    const { model, report } = await engine.call('matching/calibrate', request, ctx);

    expect(FellegiSunterModelSchema.parse(model)).toEqual(model);
    expect(model).toMatchObject({
      kind: 'fellegi-sunter-model',
      modelVersion: 'fs-test-1',
      priorMatchProbability: 0.2,
      smoothing: 1,
      trainedAgainst: {
        matchingProfileVersion: 1,
        comparatorVersion: 'comparators-2',
        scoreMethodVersion: 'default-fs-2',
      },
      datasetId: 'synthetic-600',
      datasetDigest: report.datasetDigest,
      bands: ['Exact', 'Strong', 'Partial', 'Different'],
    });
    expect(Object.keys(model.fields).sort()).toEqual([...FIELD_NAMES].sort());
    for (const field of FIELD_NAMES) {
      const p = model.fields[field];
      expect(BANDS.reduce((sum, b) => sum + (p?.m[b] ?? 0), 0)).toBeCloseTo(1, 12);
      expect(BANDS.reduce((sum, b) => sum + (p?.u[b] ?? 0), 0)).toBeCloseTo(1, 12);
    }
    // Each class split separately: 30% of each held out.
    const matches = pairs.filter((p) => p.isMatch).length;
    expect(report.validation.matches).toBe(Math.round(matches * 0.3));
    expect(report.validation.nonMatches).toBe(Math.round((pairs.length - matches) * 0.3));
    expect(report.training.matches + report.validation.matches).toBe(matches);
    expect(report.heldOut.brierScore).toBeGreaterThanOrEqual(0);
    expect(report.heldOut.logLoss).toBeGreaterThanOrEqual(0);
    // The grid and the active profile's thresholds (Probable 0.5, Certain 0.97).
    expect(report.heldOut.thresholds.map((t) => t.threshold)).toEqual([0.5, 0.8, 0.9, 0.95, 0.97, 0.99]);
    expect(report.f1Optimal.threshold).not.toBeNull();
    expect(report.f1Optimal.metrics?.threshold).toBe(report.f1Optimal.threshold);
    // Placed at the simplest number in its gap of held-out scores, it keeps the optimum: no reported threshold does better.
    expect(report.f1Optimal.explanation).toMatch(/^the simplest number between the validation score that maximises F1/);
    for (const row of report.heldOut.thresholds)
      expect(report.f1Optimal.metrics?.f1 ?? 0).toBeGreaterThanOrEqual(row.f1 ?? 0);
    expect(report.caveat).toMatch(/conditionally independent/);
    expect(report.activated).toBe(false);

    // Never activated: the active profile is unchanged and only an audit record was written.
    expect(await engine.call('profile/get', {}, ctx)).toEqual(profileBefore);
    const audit = listAudit(engine.env.store, 'demo');
    expect(audit.length).toBe(auditBefore + 1);
    expect(audit[0]).toMatchObject({
      action: 'matching.calibrate',
      detail: { datasetId: 'synthetic-600', datasetDigest: report.datasetDigest, modelVersion: 'fs-test-1' },
    });

    // The same pairs in another order give the same split, hence the same model (only the order digest differs).
    const again = await engine.call('matching/calibrate', { ...request, pairs: [...pairs].reverse() }, ctx);
    expect(again.model.fields).toEqual(model.fields);
    expect(again.report.heldOut).toEqual(report.heldOut);
    expect(again.model.datasetDigest).not.toBe(model.datasetDigest);

    // The threshold meeting the target is usable: met by the lower 95% bound of held-out precision, inside
    // the held-out scores (the simplest number in the gap it stands for), with the pairs behind it.
    const meeting = report.meetingTargetPrecision;
    expect(meeting.criterion).toBe('precision-lower-95-bound');
    if (meeting.threshold === null) {
      expect(meeting.explanation).toMatch(
        /^No threshold among the held-out scores reaches precision 0\.99 with 95% confidence/,
      );
      expect(meeting.bestAchievable?.metrics.precisionInterval?.lower ?? 1).toBeLessThan(0.99);
    } else {
      const { metrics, support } = meeting;
      expect(metrics?.precisionInterval?.lower).toBeGreaterThanOrEqual(0.99);
      expect(support?.atOrAbove).toBe((metrics?.tp ?? 0) + (metrics?.fp ?? 0));
      expect(support?.heldOutPairs).toBe(report.validation.pairs);
      expect(meeting.threshold).toBeLessThanOrEqual(support?.lowestAdmittedScore ?? Number.NaN);
      expect(meeting.threshold).toBeGreaterThan(support?.highestExcludedScore ?? -1);
      expect(meeting.threshold).toBeLessThan(1);
      expect(meeting.explanation).toContain(`${String(support?.atOrAbove)} held-out pairs score at or above it`);
    }

    // A target nothing meets is reported as null with a sentence and the best achievable.
    const strict = await engine.call('matching/calibrate', { ...request, targetPrecision: 1 }, ctx);
    expect(strict.report.meetingTargetPrecision.threshold).toBeNull();
    expect(strict.report.meetingTargetPrecision.explanation).toMatch(
      /^No threshold among the held-out scores reaches precision 1 with 95% confidence.*The best achievable is threshold [\d.]+: .*Precision 1 can never be shown/,
    );
    expect(strict.report.meetingTargetPrecision.bestAchievable?.support.heldOutPairs).toBe(report.validation.pairs);
    engine.close();
  });

  it('refuses a validation fraction that empties a class on one side', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 300, seed: 5 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 2000, seed: 3 }, ctx);
    const error = await engine
      .call(
        'matching/calibrate',
        {
          datasetId: 'd',
          modelVersion: 'm',
          pairs,
          priorMatchProbability: 0.2,
          smoothing: 1,
          validationFraction: 0.0001,
          targetPrecision: 0.9,
        },
        ctx,
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).issues[0]?.path).toBe('validationFraction');
    engine.close();
  });
});

/**
 * A live operating point (prior 0.2) against evaluation's counts at its threshold: the same recall, and the precision
 * those counts give at that prior.
 */
function expectMeasured(
  point: { readonly recall: number | null; readonly precision: number | null } | undefined,
  rows: readonly { threshold: number; tp: number; fp: number; fn: number; tn: number }[],
  threshold: number,
): void {
  const row = rows.find((t) => t.threshold === threshold);
  if (row === undefined || point === undefined) throw new Error('no row');
  const tpr = row.tp / (row.tp + row.fn);
  const fpr = row.fp / (row.fp + row.tn);
  expect(point.recall).toBeCloseTo(tpr, 12);
  expect(point.precision).toBeCloseTo((0.2 * tpr) / (0.2 * tpr + 0.8 * fpr), 12);
}

/**
 * A synthetic sandbox of `people` (seeded), `labels` labelled pairs sampled from it (seed 3), and a calibration of them
 * at prior 0.2, smoothing 1 and validation fraction 0.3: the split the tests evaluate again (splitByClass at 0.3).
 */
async function calibrateOnSandbox(
  sandbox: { readonly people: number; readonly seed: number; readonly labels: number },
  request: { readonly datasetId: string; readonly modelVersion: string; readonly targetPrecision: number },
) {
  const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
  const ctx = { tenantId: 'demo', actor: 'test' };
  await engine.call('sandbox/create', { syntheticPeople: sandbox.people, seed: sandbox.seed }, ctx);
  const { pairs } = await engine.call('labels/sample', { maxPairs: sandbox.labels, seed: 3 }, ctx);
  const { model, report } = await engine.call(
    'matching/calibrate',
    { ...request, pairs, priorMatchProbability: 0.2, smoothing: 1, validationFraction: 0.3 },
    ctx,
  );
  return { engine, ctx, pairs, model, report };
}

describe('calibration scores held-out pairs as live matching will', () => {
  it('gives the held-out figures that evaluation measures on the same pairs once the model is applied (term-frequency adjustment included)', async () => {
    // 1,300 records: enough (MIN_TERM_RECORDS) for the live scorer to adjust agreeing names by their frequency.
    const { engine, ctx, pairs, model, report } = await calibrateOnSandbox(
      { people: 600, seed: 5, labels: 2000 },
      { datasetId: 'tf', modelVersion: 'fs-tf-1', targetPrecision: 0.99 },
    );
    // The active profile on the same held-out pairs, as evaluation measures it before the model is applied: the
    // report's comparison counts what live matching under the profile would link at its Certain and Probable.
    const active = (await engine.call('profile/get', {}, ctx)).profile.MatchingRules.Thresholds;
    const before = await engine.call(
      'matching/evaluate',
      {
        datasetId: 'tf-held-out-profile',
        pairs: splitByClass(pairs, 0.3).validation,
        thresholds: [active.Probable, active.Certain],
        maximumErrorExamples: 0,
      },
      ctx,
    );
    const against = report.liveThresholds?.againstProfile;
    expect(against?.Certain).toBe(active.Certain);
    for (const [point, threshold] of [
      [against?.atCertain, active.Certain],
      [against?.atProbable, active.Probable],
    ] as const)
      expectMeasured(point, before.thresholds, threshold);
    const ours = report.liveThresholds?.atCertain;
    expect(against?.keepProfile).toBe(
      (against?.atCertain.recall ?? 0) >= (ours?.recall ?? 0) &&
        (against?.atCertain.precisionLowerBound ?? 0) >= (ours?.precisionLowerBound ?? 0),
    );
    await engine.call('profile/apply', { document: model, reason: 'calibrated' }, ctx);
    const thresholds = report.heldOut.thresholds.map((t) => t.threshold);
    const evaluation = await engine.call(
      'matching/evaluate',
      { datasetId: 'tf-held-out', pairs: splitByClass(pairs, 0.3).validation, thresholds, maximumErrorExamples: 0 },
      ctx,
    );
    const counts = (rows: readonly { threshold: number; tp: number; fp: number; fn: number; tn: number }[]) =>
      rows.map(({ threshold, tp, fp, fn, tn }) => ({ threshold, tp, fp, fn, tn }));
    expect(counts(evaluation.thresholds)).toEqual(counts(report.heldOut.thresholds));
    expect(evaluation.scoreDistribution).toEqual(report.heldOut.scoreDistribution);
    engine.close();
  });

  it('gives the live points that evaluation measures once the model is applied with its live thresholds, held pairs included', async () => {
    // Here some held-out true pairs are held by the scorer's limits (a possible twin, names alone) at a score above
    // the model's own Probable: live matching sends them to review, and the report's recall with reviews counts them.
    const { engine, ctx, pairs, model, report } = await calibrateOnSandbox(
      { people: 1500, seed: 7, labels: 4000 },
      { datasetId: 'held', modelVersion: 'fs-held-1', targetPrecision: 0.95 },
    );
    const live = report.liveThresholds;
    if (live == null) throw new Error('no live thresholds');
    expect(live.Probable).toBeGreaterThan(0.5);
    expect(live.Probable).toBeLessThan(live.Certain);
    const { Certain, Probable } = live;
    await engine.call(
      'profile/apply',
      {
        document: { MatchingRules: { FellegiSunter: model, Thresholds: { Certain, Probable } } },
        reason: 'calibrated',
      },
      ctx,
    );
    const applied = await engine.call(
      'matching/evaluate',
      {
        datasetId: 'held-live',
        pairs: splitByClass(pairs, 0.3).validation,
        thresholds: [Probable, Certain],
        maximumErrorExamples: 0,
      },
      ctx,
    );
    for (const point of [live.atCertain, live.atProbable]) expectMeasured(point, applied.thresholds, point.threshold);
    engine.close();
  });
});

describe('governed apply and rollback', () => {
  it('applies a calibrated model as a new version; rollback restores the previous content as another new version', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 300, seed: 9 }, ctx);
    const { pairs } = await engine.call('labels/sample', { maxPairs: 2000, seed: 1 }, ctx);
    const { model } = await engine.call(
      'matching/calibrate',
      {
        datasetId: 'd',
        modelVersion: 'fs-apply-1',
        pairs,
        priorMatchProbability: 0.3,
        smoothing: 1,
        validationFraction: 0.25,
        targetPrecision: 0.95,
      },
      ctx,
    );
    const v1 = await engine.call('profile/get', {}, ctx);
    const applied = await engine.call('profile/apply', { document: model, reason: 'approved calibration' }, ctx);
    expect(applied).toEqual({ matchingProfileVersion: 2, previousVersion: 1 });
    const v2 = await engine.call('profile/get', {}, ctx);
    expect(v2.profile.MatchingRules.FellegiSunter).toEqual(model);

    // Reports state the versions they ran under.
    const evaluation = await engine.call(
      'matching/evaluate',
      { datasetId: 'd', pairs, thresholds: [0.5], maximumErrorExamples: 0 },
      ctx,
    );
    expect(evaluation.versions).toEqual({
      matchingProfileVersion: 2,
      comparatorVersion: 'comparators-2',
      scoreMethod: 'fellegi-sunter',
      scoreMethodVersion: 'fs-apply-1',
    });

    const rolled = await engine.call('profile/rollback', { reason: 'back out the model' }, ctx);
    expect(rolled).toEqual({ matchingProfileVersion: 3, restoredFrom: 1, previousVersion: 2 });
    const v3 = await engine.call('profile/get', {}, ctx);
    expect(v3.profile).toEqual(v1.profile);
    expect(v3).toMatchObject({ matchingProfileVersion: 3, reason: 'back out the model', active: true });
    expect(listAudit(engine.env.store, 'demo')[0]).toMatchObject({
      action: 'profile.rollback',
      subject: 'matching-profile/3',
      detail: { restoredFrom: 1, previousVersion: 2 },
    });

    // A second rollback undoes the first.
    await engine.call('profile/rollback', {}, ctx);
    expect((await engine.call('profile/get', {}, ctx)).profile).toEqual(v2.profile);
    engine.close();
  });

  it('refuses to roll back the first version', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', {}, ctx);
    await expect(engine.call('profile/rollback', {}, ctx)).rejects.toMatchObject({ kind: 'conflict' });
    engine.close();
  });
});
