import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { Ingestor } from '../ingest/ingestor.ts';
import { ingestLines } from '../ingest/ndjson.ts';
import type { EngineEnv } from '../env.ts';

/** Streams NDJSON lines from any source (a file, a request body) into the registry. */
export function ingestStream(
  env: EngineEnv,
  ctx: CallContext,
  sourceSystem: string,
  lines: AsyncIterable<string> | Iterable<string>,
  onProgress?: (report: IngestReport) => void,
): Promise<IngestReport> {
  const ingestor = new Ingestor(env.store, ctx.tenantId, sourceSystem, env.settings());
  return ingestLines(env.store, ingestor, lines, onProgress);
}

export function ingestNdjson(env: EngineEnv, input: OperationInput<'records/ingest'>, ctx: CallContext): Promise<OperationOutput<'records/ingest'>> {
  return ingestStream(env, ctx, input.sourceSystem, input.ndjson.split('\n'));
}
