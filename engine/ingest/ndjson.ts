/**
 * FHIR NDJSON ingestion: one Patient per line. A bad line is reported with its line number and the field
 * at fault and the rest of the file continues. Lines are committed in chunks (one transaction per chunk,
 * one savepoint per record) so a large file is fast and a bad record still writes nothing.
 */
import type { Store } from '../store/db.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { MAX_RESOURCE_BYTES } from '../fhir/patient.ts';
import type { Ingestor, RecordOutcome } from './ingestor.ts';

export const CHUNK_LINES = 1024;

export function emptyReport(sourceSystem: string, matchingProfileVersion: number): IngestReport {
  return {
    sourceSystem,
    matchingProfileVersion,
    lines: 0,
    created: 0,
    autoLinked: 0,
    newIdentities: 0,
    reviewCasesCreated: 0,
    updated: 0,
    unchanged: 0,
    stale: 0,
    rejected: [],
  };
}

export function tally(report: IngestReport, line: number, outcome: RecordOutcome): void {
  switch (outcome.kind) {
    case 'created':
      report.created++;
      if (outcome.linked === 'auto-linked') report.autoLinked++;
      else report.newIdentities++;
      report.reviewCasesCreated += outcome.reviewCases;
      return;
    case 'updated':
      report.updated++;
      return;
    case 'unchanged':
      report.unchanged++;
      return;
    case 'stale':
      report.stale++;
      return;
    case 'rejected':
      report.rejected.push({ line, issues: [...outcome.issues] });
      return;
  }
}

/** Parses one line; JSON errors are reported without the parser's message, which can quote the input. */
export function ingestLine(ingestor: Ingestor, text: string, at: string, isolated = true): RecordOutcome {
  if (Buffer.byteLength(text, 'utf8') > MAX_RESOURCE_BYTES) {
    return { kind: 'rejected', issues: [{ path: 'line', message: `the line exceeds ${String(MAX_RESOURCE_BYTES)} bytes` }] };
  }
  let resource: unknown;
  try {
    resource = JSON.parse(text);
  } catch {
    return { kind: 'rejected', issues: [{ path: 'line', message: 'not valid JSON' }] };
  }
  return ingestor.ingestResource(resource, text, at, isolated);
}

/**
 * Runs a chunk in one transaction without per-record savepoints (they cost more than the record itself).
 * If any record fails on write, the whole chunk rolls back and is replayed record by record, each in its
 * own savepoint, so a bad record still writes nothing and the others are kept. Results are reported only
 * from the run that committed; onRollback lets the caller drop caches that saw rolled-back rows.
 */
export function ingestChunk<T, R>(
  store: Store,
  items: readonly T[],
  run: (item: T, isolated: boolean) => R,
  onRollback: () => void,
): R[] {
  try {
    return store.write(() => items.map((item) => run(item, false)));
  } catch {
    onRollback();
    return store.write(() => items.map((item) => run(item, true)));
  }
}

export async function ingestLines(
  store: Store,
  ingestor: Ingestor,
  lines: AsyncIterable<string> | Iterable<string>,
  onProgress?: (report: IngestReport) => void,
): Promise<IngestReport> {
  const report = emptyReport(ingestor.sourceSystem, ingestor.profile.version);
  let chunk: { line: number; text: string }[] = [];
  const flush = (): void => {
    if (chunk.length === 0) return;
    const at = new Date().toISOString();
    const batch = chunk;
    chunk = [];
    const outcomes = ingestChunk(store, batch, (item, isolated) => ingestLine(ingestor, item.text, at, isolated), () => {
      ingestor.discardCaches();
    });
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome !== undefined) tally(report, item.line, outcome);
    });
    onProgress?.(report);
  };
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') continue;
    report.lines = lineNumber;
    chunk.push({ line: lineNumber, text });
    if (chunk.length >= CHUNK_LINES) flush();
  }
  flush();
  report.lines = lineNumber;
  return report;
}
