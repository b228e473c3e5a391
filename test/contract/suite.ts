/**
 * THE contract suite: one list of calls and expectations, run against every EngineClient (the local engine,
 * and the remote client over `serve` on loopback). Each run records its answers (job IDs and timestamps
 * normalised) so the two runs can be compared: the same registry content must give equal answers.
 */
import { beforeAll, expect, it } from 'vitest';
import { isEngineError } from '../../engine/contract/errors.ts';
import type {
  CallContext,
  EngineClient,
  OperationInput,
  OperationName,
  OperationOutput,
} from '../../engine/contract/operations.ts';
import type { LabelPair } from '../../engine/assurance/labels.ts';

export interface Backend {
  readonly client: EngineClient;
  readonly ctx: CallContext;
  /** Runs the tenant's queued jobs until none is left: the registry's worker. */
  drainJobs(): Promise<void>;
}

export type Recorded = Map<string, unknown>;

const UNKNOWN_JOB = 'job-00000000-0000-4000-8000-000000000000';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Job IDs become job#1, job#2… in order of appearance, enterprise IDs (random UUIDs) identity#1…;
 * timestamps and lease owners are dropped.
 */
export function normalise(value: unknown, jobIds: Map<string, string>): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => {
      if (key === 'leaseOwner' || key === 'leaseExpiresAt') return null;
      if (typeof v !== 'string') return v;
      if (key === 'enterpriseId') {
        if (!jobIds.has(v)) jobIds.set(v, `identity#${String(jobIds.size + 1)}`);
        return jobIds.get(v);
      }
      if (TIMESTAMP.test(v)) return '<time>';
      return v.replace(/job-[0-9a-f-]{36}/g, (id) => {
        if (!jobIds.has(id)) jobIds.set(id, `job#${String(jobIds.size + 1)}`);
        return jobIds.get(id) ?? id;
      });
    }),
  );
}

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string; issues: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return { kind: error.kind, message: error.message, issues: error.issues };
    throw error;
  }
  throw new Error('expected the call to be refused');
}

export function contractSuite(setup: () => Promise<Backend>, recorded: Recorded): void {
  let backend: Backend;
  const jobIds = new Map<string, string>();
  const call = <K extends OperationName>(name: K, input: OperationInput<K>): Promise<OperationOutput<K>> =>
    backend.client.call(name, input, backend.ctx);
  const record = (step: string, value: unknown): void => {
    recorded.set(step, normalise(value, jobIds));
  };

  beforeAll(async () => {
    backend = await setup();
  });

  it('reads the active profile and the versions a report will state', async () => {
    const summary = await call('profile/summary', {});
    const profile = await call('profile/get', {});
    expect(summary.matchingProfileVersion).toBe(profile.matchingProfileVersion);
    expect(summary.comparatorVersion).toBe(profile.profile.Comparators.Version);
    expect(summary.scoreMethod).toBe(
      profile.profile.MatchingRules.FellegiSunter === null ? 'weighted-similarity' : 'fellegi-sunter',
    );
    expect(summary.thresholds).toEqual({
      certain: profile.profile.MatchingRules.Thresholds.Certain,
      probable: profile.profile.MatchingRules.Thresholds.Probable,
    });
    record('profile', { summary, profile });
  });

  it('runs the job lifecycle: queued → completed by the worker, cancel of a queued job, conflict on a finished one, paged history', async () => {
    const reindex = await call('maintenance/reindex', { reason: 'contract suite', batchSize: 25 });
    expect(reindex.status).toBe('queued');
    const queued = await call('jobs/get', { jobId: reindex.jobId });
    expect(queued.status).toBe('queued');
    expect(queued.phases.map((p) => [p.name, p.status])).toEqual([
      ['validation', 'pending'],
      ['writing', 'pending'],
    ]);

    const doomed = await call('maintenance/reconcile', { reason: 'to be cancelled', batchSize: 1 });
    const cancelled = await call('jobs/cancel', { jobId: doomed.jobId });
    expect(cancelled).toEqual({ jobId: doomed.jobId, status: 'cancelled', cancelRequested: true });

    await backend.drainJobs();
    const done = await call('jobs/get', { jobId: reindex.jobId });
    expect(done.status).toBe('completed');
    expect(done.counters.validated).toBeGreaterThan(0);
    expect((await call('jobs/get', { jobId: doomed.jobId })).status).toBe('cancelled');

    const conflict = await refusal(call('jobs/cancel', { jobId: reindex.jobId }));
    expect(conflict.kind).toBe('conflict');

    const reconcile = await call('maintenance/reconcile', { reason: 'contract suite', batchSize: 10 });
    await backend.drainJobs();
    const reconciled = await call('jobs/get', { jobId: reconcile.jobId });
    expect(reconciled.status).toBe('completed');
    // Spec "What the service does" 8: each identity is visited in rebuilding and in matching.
    expect(reconciled.counters.scanned).toBe(2 * (reconciled.populationTotal ?? -1));

    const first = await call('jobs/list', { limit: 2 });
    expect(first.rows.map((r) => r.jobId)).toEqual([reconcile.jobId, doomed.jobId]);
    expect(first.nextCursor).toBe(doomed.jobId);
    const second = await call('jobs/list', { limit: 2, before: first.nextCursor ?? '' });
    expect(second.rows.map((r) => r.jobId)).toEqual([reindex.jobId]);
    expect(second.nextCursor).toBeNull();
    record('jobs', { queued, cancelled, done, conflict, reconciled, first, second });
  });

  it('lists, reads and decides review cases, and exports the decided ones as labels', async () => {
    const listed = await call('reviews/list', { status: 'all', sort: 'score-high', limit: 1000 });
    expect(listed.total).toBeGreaterThan(0);
    expect(listed.rows.map((r) => r.score)).toEqual(listed.rows.map((r) => r.score).sort((a, b) => b - a));
    // Every source the cases name, each once and in order, whatever the filters: what the source filter can take.
    const named = [...new Set(listed.rows.flatMap((r) => (r.sourceSystem === null ? [] : [r.sourceSystem])))].sort();
    expect(named.length).toBeGreaterThan(0);
    expect(listed.sources).toEqual(named);
    const fromOne = await call('reviews/list', { status: 'all', sourceSystem: named[0], limit: 1000 });
    expect(fromOne.total).toBe(listed.rows.filter((r) => r.sourceSystem === named[0]).length);
    expect(fromOne.sources).toEqual(named);
    // Opened after a time (the Health page's way to one ingest's cases): only the cases opened later, with the time
    // given in another offset naming the same instant.
    const times = [...new Set(listed.rows.map((r) => Date.parse(r.createdAt)))].sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(1);
    const cut = times[Math.floor((times.length - 1) / 2)] ?? Number.NaN;
    const later = listed.rows.filter((r) => Date.parse(r.createdAt) > cut).length;
    for (const openedAfter of [
      new Date(cut).toISOString(),
      new Date(cut + 7_200_000).toISOString().replace('Z', '+02:00'),
    ]) {
      const after = await call('reviews/list', { status: 'all', openedAfter, limit: 1000 });
      expect(after.total).toBe(later);
      expect(after.rows.every((r) => Date.parse(r.createdAt) > cut)).toBe(true);
    }
    expect(later).toBeGreaterThan(0);
    expect(later).toBeLessThan(listed.total);
    const refused = await refusal(call('reviews/list', { status: 'all', openedAfter: 'yesterday' }));
    expect(refused.kind).toBe('validation');
    expect(JSON.stringify(refused.issues)).toContain('openedAfter');
    // Held by: each rule the cases name, "none" for those no rule held, and each case of the twin rule, counted as the
    // full list counts them (through the query string on the remote client).
    const holds = [...new Set(listed.rows.map((r) => r.limitedBy ?? 'none'))];
    expect(holds).toContain('none');
    expect(holds.length).toBeGreaterThan(1);
    for (const limitedBy of holds) {
      const held = await call('reviews/list', { status: 'all', limitedBy, limit: 1000 });
      expect(held.total).toBe(listed.rows.filter((r) => (r.limitedBy ?? 'none') === limitedBy).length);
      expect(held.rows.every((r) => (r.limitedBy ?? 'none') === limitedBy)).toBe(true);
    }
    // With withHolds, the answer counts every hold's cases as the filters above list them, whatever hold is chosen.
    const counted = await call('reviews/list', { status: 'all', limitedBy: 'none', withHolds: true, limit: 1 });
    const expectedHolds = new Map<string, number>();
    for (const r of listed.rows) {
      const key = `${r.limitedBy ?? ''}/${r.twinReason ?? ''}`;
      expectedHolds.set(key, (expectedHolds.get(key) ?? 0) + 1);
    }
    expect(new Map((counted.holds ?? []).map((h) => [`${h.limitedBy ?? ''}/${h.twinReason ?? ''}`, h.cases]))).toEqual(
      expectedHolds,
    );
    expect((counted.holds ?? []).map((h) => h.cases)).toEqual(
      (counted.holds ?? []).map((h) => h.cases).sort((a, b) => b - a),
    );
    expect((await call('reviews/list', { status: 'all', limit: 1 })).holds).toBeUndefined();
    const twinCases = [...new Set(listed.rows.flatMap((r) => (r.twinReason == null ? [] : [r.twinReason])))];
    expect(twinCases.length).toBeGreaterThan(0);
    for (const twinReason of twinCases) {
      const held = await call('reviews/list', { status: 'all', limitedBy: 'PossibleTwin', twinReason, limit: 1000 });
      expect(held.total).toBe(listed.rows.filter((r) => r.twinReason === twinReason).length);
    }
    const current: OperationOutput<'reviews/get'>[] = [];
    for (const row of listed.rows) {
      const detail = await call('reviews/get', { caseId: row.caseId });
      if (!detail.case.stale) current.push(detail);
      if (current.length === 2) break;
    }
    const [first, second] = current;
    if (first === undefined || second === undefined) throw new Error('no two current review cases to decide');
    const { caseId } = first.case;
    const decided = await call('reviews/decide', { caseId, decision: 'different-people', reason: 'contract suite' });
    expect(decided.case).toMatchObject({ caseId, status: 'resolved', review: { decision: 'different-people' } });
    const same = await call('reviews/decide', {
      caseId: second.case.caseId,
      decision: 'same-person',
      reason: 'contract suite',
    });
    // The decided cases by what held them, with how many were the same person: each case under its hold once.
    const outcomes = await call('reviews/list', { status: 'resolved', withHolds: true, limit: 1 });
    const holdOf = (c: { limitedBy?: string | null | undefined; twinReason?: string | null | undefined }): string =>
      `${c.limitedBy ?? ''}/${c.twinReason ?? ''}`;
    const expectedOutcomes = new Map<string, { cases: number; samePerson: number }>();
    for (const c of [decided.case, same.case]) {
      const outcome = expectedOutcomes.get(holdOf(c)) ?? { cases: 0, samePerson: 0 };
      expectedOutcomes.set(holdOf(c), {
        cases: outcome.cases + 1,
        samePerson: outcome.samePerson + (c === same.case ? 1 : 0),
      });
    }
    expect(
      new Map((outcomes.holds ?? []).map((h) => [holdOf(h), { cases: h.cases, samePerson: h.samePerson }])),
    ).toEqual(expectedOutcomes);
    // Only decided cases are counted so.
    expect((counted.holds ?? []).every((h) => h.samePerson === undefined)).toBe(true);
    const again = await refusal(call('reviews/decide', { caseId, decision: 'same-person', reason: 'again' }));
    expect(again.kind).toBe('conflict');
    const unknown = await refusal(call('reviews/get', { caseId: 'rc-00000000000000000000000000000000' }));
    expect(unknown.kind).toBe('not_found');
    const badId = await refusal(call('reviews/get', { caseId: 'not-a-case' }));
    expect(badId).toMatchObject({ kind: 'validation', issues: [{ path: 'caseId' }] });
    const labels = await call('reviews/labels', {});
    expect(labels.labels).toBe(2);
    record('reviews', {
      total: listed.total,
      kinds: [...new Set(listed.rows.map((r) => r.kind))].sort(),
      decided: { kind: decided.case.kind, score: decided.case.score },
      outcomes: outcomes.holds,
      again: again.kind,
      unknown,
      badId,
      labels: labels.labels,
    });
  });

  it('refuses bad calls with the same error kinds and issues', async () => {
    const refusals = {
      unknownJob: await refusal(call('jobs/get', { jobId: UNKNOWN_JOB })),
      unknownCancel: await refusal(call('jobs/cancel', { jobId: UNKNOWN_JOB })),
      badCursor: await refusal(call('jobs/list', { limit: 5, before: UNKNOWN_JOB })),
      batchTooLarge: await refusal(call('maintenance/reindex', { reason: 'x', batchSize: 26 })),
      externalSource: await refusal(
        call('maintenance/reconcile', { reason: 'x', batchSize: 5, externalSourceSystem: 'nowhere' }),
      ),
      missingRecords: await refusal(
        call('matching/evaluate', {
          datasetId: 'bad',
          pairs: [
            {
              left: { sourceSystem: 'st-marys-hospital', localId: 'NO-SUCH-1' },
              right: { sourceSystem: 'st-marys-hospital', localId: 'NO-SUCH-1' },
              isMatch: true,
            },
            {
              left: { sourceSystem: 'nowhere', localId: 'A' },
              right: { sourceSystem: 'nowhere', localId: 'B' },
              isMatch: false,
            },
          ],
          thresholds: [0.5],
        }),
      ),
    };
    expect(refusals.unknownJob.kind).toBe('not_found');
    expect(refusals.unknownCancel.kind).toBe('not_found');
    expect(refusals.badCursor).toMatchObject({ kind: 'validation', issues: [{ path: 'before' }] });
    expect(refusals.batchTooLarge).toMatchObject({ kind: 'validation', issues: [{ path: 'batchSize' }] });
    expect(refusals.externalSource).toMatchObject({ kind: 'validation', issues: [{ path: 'externalSourceSystem' }] });
    expect(refusals.missingRecords.kind).toBe('validation');
    expect(JSON.stringify(refusals.missingRecords.issues)).toContain('pairs[0]');
    expect(JSON.stringify(refusals)).not.toContain('NO-SUCH-1');
    record('refusals', refusals);
  });

  it('samples labels, evaluates and calibrates the active profile', async () => {
    const sample = await call('labels/sample', { maxPairs: 600, seed: 3 });
    const pairs: LabelPair[] = sample.pairs;
    expect(pairs.filter((p) => p.isMatch).length).toBeGreaterThanOrEqual(10);
    expect(pairs.filter((p) => !p.isMatch).length).toBeGreaterThanOrEqual(10);
    const evaluation = await call('matching/evaluate', {
      datasetId: 'contract',
      pairs,
      thresholds: [0.5, 0.75, 0.92],
      maximumErrorExamples: 6,
    });
    expect(evaluation.labels.pairs).toBe(pairs.length);
    expect(evaluation.thresholds).toHaveLength(3);
    const calibrationRequest = {
      datasetId: 'contract',
      pairs,
      priorMatchProbability: 0.05,
      smoothing: 1,
      validationFraction: 0.3,
      targetPrecision: 0.95,
    };
    const calibration = await call('matching/calibrate', { ...calibrationRequest, modelVersion: 'contract-1' });
    expect(calibration.report.activated).toBe(false);
    expect(calibration.model.datasetDigest).toBe(evaluation.datasetDigest);
    expect(calibration.report.uSource).toEqual({ from: 'labels' });
    // The extension: u from random pairs of the registry, the prior restated over all record pairs.
    const fromRandomPairs = await call('matching/calibrate', {
      ...calibrationRequest,
      modelVersion: 'contract-2',
      uFrom: 'random-pairs',
    });
    expect(fromRandomPairs.report.uSource?.from).toBe('random-pairs');
    expect(fromRandomPairs.model.priorMatchProbability).toBeLessThan(0.05);
    expect(fromRandomPairs.model.fields.familyName?.m).toEqual(calibration.model.fields.familyName?.m);
    // The extension's review budget: 20 candidate pairs per 1,000 records by default; none leaves no review band.
    expect(fromRandomPairs.report.liveThresholds?.reviewLoad?.budgetPerThousandRecords).toBe(20);
    const noReviews = await call('matching/calibrate', {
      ...calibrationRequest,
      modelVersion: 'contract-3',
      uFrom: 'random-pairs',
      reviewBudget: 0,
    });
    const budgeted = noReviews.report.liveThresholds;
    expect(budgeted?.reviewLoad?.budgetPerThousandRecords).toBe(0);
    expect(budgeted?.Probable).toBe(budgeted?.Certain);
    expect(budgeted?.Certain).toBe(fromRandomPairs.report.liveThresholds?.Certain);
    const first = pairs.find((p) => p.isMatch);
    if (first === undefined) throw new Error('no true pair');
    const explained = await call('matching/explain', { left: first.left, right: first.right });
    expect(explained.left).toMatchObject(first.left);
    record('assurance', { sample, evaluation, calibration, fromRandomPairs, explained });

    // From a record to its identity, and the identity with its canonical record and records' values when asked.
    const found = await call('identities/of-record', first.left);
    expect(found.enterpriseId).toBe(explained.left.enterpriseId);
    const plain = await call('identities/history', { enterpriseId: found.enterpriseId });
    expect(plain.canonical).toBeUndefined();
    expect(plain.records.every((r) => r.fields === undefined)).toBe(true);
    const withValues = await call('identities/history', { enterpriseId: found.enterpriseId, withValues: true });
    const own = withValues.records.find(
      (r) => r.sourceSystem === first.left.sourceSystem && r.localId === first.left.localId,
    );
    expect(own?.fields?.familyName).toEqual(expect.any(String));
    expect(withValues.canonical?.recordCount).toBeGreaterThan(0);
    const missing = await refusal(
      call('identities/of-record', { sourceSystem: first.left.sourceSystem, localId: 'no-such-record-0' }),
    );
    expect(missing.kind).toBe('not_found');
    expect(missing.message).not.toContain('no-such-record-0');
    // The sources a record can be looked up by: each once, in order, every source the sampled pairs' records came from.
    const { sources } = await call('records/sources', {});
    const sampled = new Set(pairs.flatMap((p) => [p.left.sourceSystem, p.right.sourceSystem]));
    expect(sources).toEqual([...new Set(sources)].sort());
    expect(sources.filter((s) => sampled.has(s))).toEqual([...sampled].sort());
    record('record-sources', sources);
    record('identity', {
      found,
      canonical: withValues.canonical,
      records: withValues.records
        .map((r) => ({ ref: `${r.sourceSystem}/${r.localId}`, fields: r.fields }))
        .sort((a, b) => a.ref.localeCompare(b.ref)),
      missing,
    });
  });

  it("estimates a model from the registry's own records, without activating it", async () => {
    const before = await call('profile/get', {});
    const estimate = await call('matching/estimate', { modelVersion: 'contract-em-1', randomPairs: 20_000, seed: 3 });
    expect(estimate.report.activated).toBe(false);
    expect(estimate.report.convergence.converged).toBe(true);
    expect(estimate.model.trainedAgainst.matchingProfileVersion).toBe(before.matchingProfileVersion);
    expect((await call('profile/get', {})).matchingProfileVersion).toBe(before.matchingProfileVersion);
    record('estimate', estimate);
  });
}
