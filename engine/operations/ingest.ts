import { emitHealthMetrics } from '../telemetry/health-metrics.ts';
import { inCallTenant } from '../store/tenant-scope.ts';
import type { HealthSample } from '../contract/health.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { Ingestor } from '../ingest/ingestor.ts';
import { ingestLines } from '../ingest/ndjson.ts';
import { ndjsonLines, type NdjsonSource } from '../ingest/ndjson-lines.ts';
import type { EngineEnv } from '../env.ts';
import { recordHealthSample } from '../store/health.ts';
import { FieldCompleteness } from '../ingest/field-completeness.ts';
import { linesOfText, type LoadSize } from '../ingest/load-size.ts';

/**
 * Ingests NDJSON from any source (a file's bytes, a request body, text) through the one line reader. Its pairs are
 * judged at the size the load brings the registry to (ingest/load-size.ts): text's lines are counted here, a stream's
 * come from the caller (`load.lines`, the CLI counts its file's), who may also know the size the registry will reach.
 */
export const ingestStream = inCallTenant(async function ingestStream(
  env: EngineEnv,
  ctx: CallContext,
  sourceSystem: string,
  input: NdjsonSource,
  onProgress?: (report: IngestReport) => void,
  load: LoadSize = {},
): Promise<IngestReport> {
  const lines = typeof input === 'string' ? linesOfText(input) : load.lines;
  const ingestor = new Ingestor(env.store, ctx.tenantId, sourceSystem, env.settings(), null, { ...load, lines });
  const started = performance.now();
  const present = new FieldCompleteness();
  const report = await ingestLines(env.store, ingestor, ndjsonLines(input), onProgress, (fields) => {
    present.count(fields);
  });
  const sample = ingestHealthSample(report, present, performance.now() - started, ingestor);
  env.store.write(() => {
    recordHealthSample(env.store, ctx.tenantId, sample);
  });
  emitHealthMetrics(sample);
  return report;
});

/** The health figures of one source's ingest (its report, the fields its new records carried, what matching met). */
export function ingestHealthSample(
  report: IngestReport,
  present: FieldCompleteness,
  durationMs: number,
  ingestor: Ingestor,
): HealthSample {
  return {
    at: new Date().toISOString(),
    origin: 'ingest',
    sourceSystem: report.sourceSystem,
    jobId: null,
    jobKind: null,
    jobStatus: null,
    profileVersion: report.matchingProfileVersion,
    records: report.lines,
    created: report.created,
    autoLinked: report.autoLinked,
    reviewCases: report.reviewCasesCreated,
    rejected: report.rejected.length,
    fieldPresent: present.counts,
    durationMs,
    matching: ingestor.tally.figures(),
    identitySizes: null,
    reviewHolds: report.reviewHolds ?? null,
  };
}

export function ingestNdjson(
  env: EngineEnv,
  input: OperationInput<'records/ingest'>,
  ctx: CallContext,
): Promise<OperationOutput<'records/ingest'>> {
  return ingestStream(env, ctx, input.sourceSystem, input.ndjson);
}
