/**
 * FHIR NDJSON ingestion: one Patient per line. A bad line is reported with its line number and the field
 * at fault and the rest of the file continues. Lines are committed in chunks (one transaction per chunk,
 * one savepoint per record on a replay) so a large file is fast and a bad record still writes nothing.
 */
import type { MatchFields } from '../contract/fields.ts';
import { isStorageError } from '../contract/errors.ts';
import type { Store } from '../store/store.ts';
import { ChunkWrites } from './chunk-writes.ts';
import { reviewRate, type IngestReport } from '../contract/ingest.ts';
import type { ReviewHoldKey } from '../contract/health.ts';
import type { Ingestor, RecordOutcome } from './ingestor.ts';
import type { PreparedResource } from './record-preparer.ts';
import { prepareHere, ThreadPreparer, type ChunkPreparer } from './chunk-preparer.ts';
import { isBlank, type NdjsonLine } from './ndjson-lines.ts';

export const CHUNK_LINES = 1024;
/**
 * A chunk also ends once its lines hold this many characters, so files of long lines (up to MAX_LINE_BYTES each)
 * never gather a gigabyte in one chunk, and in the one prepared ahead beside it. Patients of about a kilobyte
 * fill CHUNK_LINES long before this.
 */
export const CHUNK_CHARACTERS = 16 * 1024 * 1024;

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
    reviewHolds: {},
  };
}

function countHolds(report: IngestReport, holds: readonly ReviewHoldKey[]): void {
  if (holds.length === 0) return;
  const counts = (report.reviewHolds ??= {});
  for (const hold of holds) counts[hold] = (counts[hold] ?? 0) + 1;
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
      report.reviewRate = reviewRate((report.reviewRate?.reviewCases ?? 0) + outcome.reviewCases, report.created);
      countHolds(report, outcome.holds);
      return;
    case 'updated':
      // A LinkQuality case about the updated record's identity: among the cases, not in the rate of new records.
      report.updated++;
      report.reviewCasesCreated += outcome.reviewCases;
      countHolds(report, outcome.holds);
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

/** Parses one line and does the record's database-free work (record-preparer.ts). */
export function prepareLine(ingestor: Ingestor, text: string): PreparedResource {
  return ingestor.preparer.prepareLine(text);
}

/**
 * Runs a chunk in one transaction without per-record savepoints (they cost more than the record itself).
 * If any record fails on write, the whole chunk rolls back and is replayed record by record, each in its
 * own savepoint, so a bad record still writes nothing and the others are kept; a failure of the database's
 * storage (StorageError: disk full, damaged) throws instead, as it would refuse every record of the replay. Results
 * are reported only from the run that committed; onRollback lets the caller drop caches that saw rolled-back rows.
 * The first run shares the chunk's reads and defers the rows nothing reads back until its end (chunk-writes.ts,
 * begun by `begin` in the transaction); the replay reads and writes each record's as it goes.
 */
export function ingestChunk<T, R>(
  store: Store,
  items: readonly T[],
  begin: () => ChunkWrites,
  run: (item: T, isolated: boolean, chunk?: ChunkWrites) => R,
  onRollback: () => void,
): R[] {
  try {
    return store.write(() => {
      const chunk = begin();
      const outcomes = items.map((item) => run(item, false, chunk));
      chunk.flush();
      return outcomes;
    });
  } catch (error) {
    onRollback();
    // A failure of the database's storage would fail the replay's every record the same way.
    if (isStorageError(error)) throw error;
    return store.write(() => items.map((item) => run(item, true)));
  }
}

/**
 * Ingests lines from the NDJSON line reader (engine/ingest/ndjson-lines.ts). Each chunk's lines are parsed,
 * validated and normalised before the write lock is taken; the lock covers matching and writes only. From the
 * first full chunk on, the next chunk is prepared in a thread while this one is written (chunk-preparer.ts): a
 * file shorter than a chunk never starts one.
 */
export async function ingestLines(
  store: Store,
  ingestor: Ingestor,
  lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>,
  onProgress?: (report: IngestReport) => void,
  /** Told of every record written as new, with its matching fields (health figures count their completeness). */
  onCreated?: (fields: MatchFields) => void,
  /** How a large file's chunks are prepared (a thread preparing ahead unless told otherwise). */
  prepareAhead: (ingestor: Ingestor) => ChunkPreparer = threadPreparerFor,
): Promise<IngestReport> {
  const report = emptyReport(ingestor.sourceSystem, ingestor.profile.version);
  const write = (batch: readonly NdjsonLine[], prepared: readonly PreparedResource[]): void => {
    const at = new Date().toISOString();
    const outcomes = ingestChunk(
      store,
      prepared,
      () => new ChunkWrites(store, ingestor.tenantId, prepared),
      (item, isolated, chunk) => ingestor.apply(item, at, isolated, chunk),
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
  let preparer: ChunkPreparer | null = null;
  // The chunk handed to the preparer and not written yet.
  let pending: { readonly batch: NdjsonLine[]; readonly prepared: Promise<PreparedResource[]> } | null = null;
  const writePending = async (): Promise<void> => {
    if (pending === null) return;
    const { batch, prepared } = pending;
    pending = null;
    write(batch, await prepared);
  };
  let chunk: NdjsonLine[] = [];
  let characters = 0;
  try {
    for await (const item of lines) {
      report.lines = item.line;
      if ('text' in item && isBlank(item.text)) continue;
      chunk.push(item);
      if ('text' in item) characters += item.text.length;
      if (chunk.length < CHUNK_LINES && characters < CHUNK_CHARACTERS) continue;
      preparer ??= prepareAhead(ingestor);
      // Hand this chunk over first, then write the one before while it is prepared.
      const next = { batch: chunk, prepared: preparer.prepare(chunk) };
      chunk = [];
      characters = 0;
      await writePending();
      pending = next;
    }
    await writePending();
    if (chunk.length > 0) write(chunk, prepareHere(ingestor.preparer, chunk));
  } finally {
    preparer?.close();
  }
  return report;
}

function threadPreparerFor(ingestor: Ingestor): ChunkPreparer {
  return new ThreadPreparer(ingestor.preparer);
}

/** Prepares every chunk in this thread (tests compare the two ways; both give the same results). */
export function preparerInThisThread(ingestor: Ingestor): ChunkPreparer {
  return {
    prepare: (lines) => Promise.resolve(prepareHere(ingestor.preparer, lines)),
    close: () => undefined,
  };
}
