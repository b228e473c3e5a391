/**
 * FHIR NDJSON ingestion: one Patient per line. A bad line is reported with its line number and the field
 * at fault and the rest of the file continues. Lines are committed in chunks (one transaction per chunk,
 * one savepoint per record on a replay) so a large file is fast and a bad record still writes nothing.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { Store } from '../store/store.ts';
import { reviewRate, type IngestReport } from '../contract/ingest.ts';
import type { Ingestor, PreparedResource, RecordOutcome } from './ingestor.ts';
import { isBlank, type NdjsonLine } from './ndjson-lines.ts';

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
    warnings: [],
    reviewRate: reviewRate(0, 0),
  };
}

/** Counts one line's outcome; `prepared` brings the warnings of a record that was accepted. */
export function tally(report: IngestReport, line: number, outcome: RecordOutcome, prepared?: PreparedResource): void {
  if (outcome.kind !== 'rejected' && prepared?.kind === 'ready' && prepared.warnings.length > 0) {
    (report.warnings ??= []).push({ line, issues: [...prepared.warnings] });
  }
  switch (outcome.kind) {
    case 'created':
      report.created++;
      if (outcome.linked === 'auto-linked') report.autoLinked++;
      else report.newIdentities++;
      report.reviewCasesCreated += outcome.reviewCases;
      report.reviewRate = reviewRate(report.reviewCasesCreated, report.created);
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

/**
 * Parses one line and does the record's database-free work (engine/ingest/ingestor.ts prepareResource). JSON
 * errors are reported without the parser's message, which can quote the input.
 */
export function prepareLine(ingestor: Ingestor, text: string): PreparedResource {
  let resource: unknown;
  try {
    resource = JSON.parse(text);
  } catch {
    return { kind: 'rejected', issues: [{ path: 'line', message: 'not valid JSON' }] };
  }
  return ingestor.prepareResource(resource, text);
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

/**
 * Ingests lines from the NDJSON line reader (engine/ingest/ndjson-lines.ts). Each chunk's lines are parsed,
 * validated and normalised before the write lock is taken; the lock covers matching and writes only.
 */
export async function ingestLines(
  store: Store,
  ingestor: Ingestor,
  lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>,
  onProgress?: (report: IngestReport) => void,
  /** Told of every record written as new, with its matching fields (health figures count their completeness). */
  onCreated?: (fields: MatchFields) => void,
): Promise<IngestReport> {
  const report = emptyReport(ingestor.sourceSystem, ingestor.profile.version);
  let chunk: NdjsonLine[] = [];
  const flush = (): void => {
    if (chunk.length === 0) return;
    const batch = chunk;
    chunk = [];
    const prepared = batch.map((item): PreparedResource =>
      'rejected' in item ? { kind: 'rejected', issues: [item.rejected] } : prepareLine(ingestor, item.text),
    );
    const at = new Date().toISOString();
    const outcomes = ingestChunk(
      store,
      prepared,
      (item, isolated) => ingestor.apply(item, at, isolated),
      () => {
        ingestor.discardCaches();
      },
    );
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) return;
      tally(report, item.line, outcome, prepared[index]);
      const ready = prepared[index];
      if (outcome.kind === 'created' && ready?.kind === 'ready') onCreated?.(ready.write.fields);
    });
    onProgress?.(report);
  };
  for await (const item of lines) {
    report.lines = item.line;
    if ('text' in item && isBlank(item.text)) continue;
    chunk.push(item);
    if (chunk.length >= CHUNK_LINES) flush();
  }
  flush();
  return report;
}
