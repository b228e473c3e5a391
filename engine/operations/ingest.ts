import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { Ingestor } from '../ingest/ingestor.ts';
import { ingestLines } from '../ingest/ndjson.ts';
import { ndjsonLines, type NdjsonSource } from '../ingest/ndjson-lines.ts';
import type { EngineEnv } from '../env.ts';

/** Ingests NDJSON from any source (a file's bytes, a request body, text) through the one line reader. */
export function ingestStream(
  env: EngineEnv,
  ctx: CallContext,
  sourceSystem: string,
  input: NdjsonSource,
  onProgress?: (report: IngestReport) => void,
): Promise<IngestReport> {
  const ingestor = new Ingestor(env.store, ctx.tenantId, sourceSystem, env.settings());
  return ingestLines(env.store, ingestor, ndjsonLines(input), onProgress);
}

export function ingestNdjson(env: EngineEnv, input: OperationInput<'records/ingest'>, ctx: CallContext): Promise<OperationOutput<'records/ingest'>> {
  return ingestStream(env, ctx, input.sourceSystem, input.ndjson);
}
