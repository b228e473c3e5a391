/**
 * The scale bench's operations on a registry the ingestion bench filled (in a child process, so its peak RSS is
 * its own): `ops DIR` loads the ground truth written beside the NDJSON files, measures the ingest's links against it
 * (pairs of records of one person, pairs linked, both; open review cases), then times the unsupervised estimate
 * (first, so the peak RSS read after it is its own), a re-index, a reconciliation (each phase), a sample of 10,000
 * labels, their evaluation and a calibration on them with u from random pairs, the workbench's candidate draw, the
 * link-quality scan (nothing written; the identities it flags against the ground truth: those holding two people
 * caught, those of one person flagged) and the registry audit's sample of 400 pairs, and prints one JSON line.
 */
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { MaintenanceSettingsSchema } from '../../engine/config/maintenance.ts';
import { insertTruth } from '../../engine/store/assurance.ts';
import type { JobState } from '../../engine/contract/maintenance.ts';
import { peakRssMiB } from './measure.ts';
import { readTruth } from './truth-file.ts';

const [mode, dir = ''] = process.argv.slice(2);
if (mode !== 'ops') throw new Error('usage: scale-worker ops DIR');

const engine = LocalEngine.open({ dbPath: join(dir, 'bench.db'), create: false });
const ctx = { tenantId: 'bench', actor: 'bench' };
const truth = readTruth(dir);
engine.env.store.write(() => {
  insertTruth(engine.env.store, ctx.tenantId, truth);
});

const maintenance = MaintenanceSettingsSchema.parse({ LeaseSeconds: 3600 });
const seconds = (from: number): number => (performance.now() - from) / 1000;
const phaseSeconds = (job: JobState, name: string): number | null => {
  const phase = job.phases.find((p) => p.name === name);
  return phase?.startedAt == null || phase.finishedAt == null
    ? null
    : (Date.parse(phase.finishedAt) - Date.parse(phase.startedAt)) / 1000;
};

async function job(kind: 'maintenance/reindex' | 'maintenance/reconcile'): Promise<{ seconds: number; job: JobState }> {
  const { jobId } = await engine.call(kind, { reason: 'scale bench', batchSize: 25 }, ctx);
  const start = performance.now();
  await runWorker(engine.env, { tenants: [ctx.tenantId], once: true, maintenance });
  const state = await engine.call('jobs/get', { jobId }, ctx);
  if (state.status !== 'completed') throw new Error(`${kind} ended ${state.status}: ${state.error ?? ''}`);
  return { seconds: seconds(start), job: state };
}

/** The ingest's links against the ground truth, before any job runs: record pairs of one person, linked, and both. */
const [truePairs, linkedPairs, trueLinked] = engine.env.store
  .statement(
    `WITH r AS (
       SELECT l.identity_id, t.person_id FROM source_record s
       JOIN identity_link l ON l.tenant_id = s.tenant_id AND l.record_id = s.record_id
       JOIN synthetic_truth t ON t.tenant_id = s.tenant_id AND t.source_system = s.source_system AND t.local_id = s.local_id
       WHERE s.tenant_id = ?),
     p AS (SELECT COUNT(*) AS n FROM r GROUP BY person_id),
     i AS (SELECT COUNT(*) AS n FROM r GROUP BY identity_id),
     b AS (SELECT COUNT(*) AS n FROM r GROUP BY person_id, identity_id)
     SELECT (SELECT SUM(n * (n - 1) / 2) FROM p), (SELECT SUM(n * (n - 1) / 2) FROM i), (SELECT SUM(n * (n - 1) / 2) FROM b)`,
  )
  .raw()
  .get(ctx.tenantId) as [number, number, number];
const openReviewCases = engine.env.store
  .statement("SELECT count(*) FROM review_case WHERE tenant_id = ? AND status = 'open'")
  .pluck()
  .get(ctx.tenantId) as number;

const identities = engine.env.store
  .statement("SELECT count(*) FROM identity WHERE tenant_id = ? AND status = 'active'")
  .pluck()
  .get(ctx.tenantId) as number;
// The estimate first, so that the peak RSS read after it is its own (the process's peak only ever grows).
let start = performance.now();
const estimate = await engine.call('matching/estimate', { modelVersion: 'scale' }, ctx);
const estimateSeconds = seconds(start);
const estimatePeakRssMiB = peakRssMiB();
const reindex = await job('maintenance/reindex');
const reconcile = await job('maintenance/reconcile');
start = performance.now();
const sample = await engine.call('labels/sample', { maxPairs: 10_000, seed: 1 }, ctx);
const sampleSeconds = seconds(start);
start = performance.now();
await engine.call('matching/evaluate', { datasetId: 'scale', pairs: sample.pairs, thresholds: [0.5, 0.9, 0.97] }, ctx);
const evaluateSeconds = seconds(start);
start = performance.now();
const calibration = await engine.call(
  'matching/calibrate',
  {
    datasetId: 'scale',
    modelVersion: 'scale-calibrated',
    pairs: sample.pairs,
    priorMatchProbability: Math.min(0.5, Math.max(1e-6, sample.candidates.matchShare ?? 0.01)),
    smoothing: 1,
    validationFraction: 0.3,
    targetPrecision: 0.99,
    uFrom: 'random-pairs',
  },
  ctx,
);
const calibrateSeconds = seconds(start);
start = performance.now();
const draw = await engine.call('labels/candidates', { limit: 50 }, ctx);
const drawSeconds = seconds(start);
start = performance.now();
const scan = await engine.call('links/scan', { openCases: false, maxListed: 10_000 }, ctx);
const scanSeconds = seconds(start);
/** The people (ground truth) of each active identity's records, by enterprise ID: the scan's flags judged. */
const peopleOf = new Map(
  (
    engine.env.store
      .statement(
        `SELECT i.enterprise_id AS enterpriseId, COUNT(DISTINCT t.person_id) AS people FROM identity i
         JOIN identity_link l ON l.tenant_id = i.tenant_id AND l.identity_id = i.identity_id
         JOIN source_record s ON s.tenant_id = l.tenant_id AND s.record_id = l.record_id
         JOIN synthetic_truth t ON t.tenant_id = s.tenant_id AND t.source_system = s.source_system AND t.local_id = s.local_id
         WHERE i.tenant_id = ? AND i.status = 'active' GROUP BY i.identity_id`,
      )
      .all(ctx.tenantId) as { enterpriseId: string; people: number }[]
  ).map((row) => [row.enterpriseId, row.people]),
);
const scanMixed = [...peopleOf.values()].filter((people) => people > 1).length;
const scanFlaggedMixed = scan.identities.filter((f) => (peopleOf.get(f.enterpriseId) ?? 0) > 1).length;
start = performance.now();
await engine.call('audit/sample', { labels: 400 }, ctx);
const auditSeconds = seconds(start);
engine.close();
process.stdout.write(
  JSON.stringify({
    identities,
    truePairs,
    linkedPairs,
    trueLinked,
    openReviewCases,
    reindexSeconds: reindex.seconds,
    validationSeconds: phaseSeconds(reindex.job, 'validation'),
    writingSeconds: phaseSeconds(reindex.job, 'writing'),
    reconcileSeconds: reconcile.seconds,
    rebuildingSeconds: phaseSeconds(reconcile.job, 'rebuilding'),
    matchingSeconds: phaseSeconds(reconcile.job, 'matching'),
    reviewCreated: reconcile.job.counters.reviewCreated,
    estimateSeconds,
    estimateCandidates: estimate.report.candidates.modelled,
    estimateSampledRecords: estimate.report.sampledRecords ?? null,
    estimatePeakRssMiB,
    sampleSeconds,
    labels: sample.pairs.length,
    sampleSampledRecords: sample.candidates.sampledRecords ?? null,
    sampleMatchShare: sample.candidates.matchShare,
    evaluateSeconds,
    calibrateSeconds,
    calibrateSampledRecords:
      calibration.report.uSource?.from === 'random-pairs' ? calibration.report.uSource.sampledRecords : null,
    drawSeconds,
    drawSampledRecords: draw.population.sampledRecords ?? null,
    scanSeconds,
    scanIdentities: scan.identitiesWithSeveralRecords,
    scanFlagged: scan.flagged,
    scanListed: scan.identities.length,
    scanMixed,
    scanFlaggedMixed,
    scanFlaggedOnePerson: scan.identities.length - scanFlaggedMixed,
    auditSeconds,
    peakRssMiB: peakRssMiB(),
  }) + '\n',
);
