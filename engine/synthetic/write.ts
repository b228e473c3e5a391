import { once } from 'node:events';
import { createWriteStream, unlinkSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import { SYNTHETIC_SOURCES } from './generate.ts';
import type { SyntheticPopulation } from './generate.ts';
import { createRng, deriveSeed } from './prng.ts';
import { checkReplaceable, createPrivateFile, replaceWith, temporaryPathFor } from '../files/atomic-file.ts';

/** A source record, addressed by its source system and local identifier. */
export interface SyntheticRecordRef {
  readonly sourceSystem: string;
  readonly localId: string;
}

export interface GroundTruthPair {
  readonly left: SyntheticRecordRef;
  readonly right: SyntheticRecordRef;
  readonly isMatch: boolean;
}

/** The label file's columns, in order. */
export const LABEL_HEADER = 'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch';

/** Label sampling has its own stream of the seed (generate.ts uses streams 1–3). */
const STREAM_LABELS = 4;
/** Buffered text is flushed to disk beyond this many characters. */
const FLUSH_AT = 1 << 20;

/** sourceSystem → NDJSON text, one Patient per line, in `records` order; every source is present. */
export function toNdjsonBySource(pop: SyntheticPopulation): Map<string, string> {
  const lines = new Map<string, string[]>(SYNTHETIC_SOURCES.map((s) => [s.sourceSystem, []]));
  for (const record of pop.records) {
    let list = lines.get(record.sourceSystem);
    if (list === undefined) {
      list = [];
      lines.set(record.sourceSystem, list);
    }
    list.push(JSON.stringify(record.patient));
  }
  const out = new Map<string, string>();
  for (const [source, list] of lines) out.set(source, list.length === 0 ? '' : `${list.join('\n')}\n`);
  return out;
}

/**
 * The labelled pairs, in this order: every true pair (all pairs of one person's records, people in
 * order of their first record); every cross-person pair among twins and households (relations in
 * order); then as many random non-match pairs as there are true pairs, drawn with the population's
 * seed (fewer if the population is too small to have that many). In each pair `left` comes before
 * `right` in `records`, and no pair occurs twice in either orientation.
 */
export function groundTruthPairs(pop: SyntheticPopulation): GroundTruthPair[] {
  const { records } = pop;
  const n = records.length;
  const byPerson = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const personId = records[i]?.personId ?? '';
    const list = byPerson.get(personId);
    if (list === undefined) byPerson.set(personId, [i]);
    else list.push(i);
  }

  const pairs: GroundTruthPair[] = [];
  const seen = new Set<number>();
  const add = (a: number, b: number, isMatch: boolean): boolean => {
    const [l, r] = a < b ? [a, b] : [b, a];
    const key = l * n + r;
    const left = records[l];
    const right = records[r];
    if (seen.has(key) || left === undefined || right === undefined) return false;
    seen.add(key);
    pairs.push({
      left: { sourceSystem: left.sourceSystem, localId: left.localId },
      right: { sourceSystem: right.sourceSystem, localId: right.localId },
      isMatch,
    });
    return true;
  };

  for (const indices of byPerson.values()) {
    for (let a = 0; a < indices.length; a++) {
      for (let b = a + 1; b < indices.length; b++) add(indices[a] ?? 0, indices[b] ?? 0, true);
    }
  }
  const truePairs = pairs.length;

  for (const relation of pop.relations) {
    const [first, second] = relation.personIds;
    for (const a of byPerson.get(first) ?? []) {
      for (const b of byPerson.get(second) ?? []) add(a, b, false);
    }
  }

  // Rejection sampling; the attempt cap only matters for tiny populations with few non-match pairs.
  const rng = createRng(deriveSeed(pop.seed, STREAM_LABELS));
  let wanted = truePairs;
  for (let attempts = 0; wanted > 0 && n > 1 && attempts < truePairs * 20 + 100; attempts++) {
    const a = rng.int(n);
    const b = rng.int(n);
    if (a === b || records[a]?.personId === records[b]?.personId) continue;
    if (add(a, b, false)) wanted--;
  }
  return pairs;
}

function* labelRows(pairs: readonly GroundTruthPair[]): Generator<string> {
  yield `${LABEL_HEADER}\n`;
  for (const { left, right, isMatch } of pairs) {
    const outcome = isMatch ? 'match' : 'non-match';
    yield `${left.sourceSystem}\t${left.localId}\t${right.sourceSystem}\t${right.localId}\t${outcome}\n`;
  }
}

/** The label file: header, then one row per pair with `match` / `non-match`; '\n' line endings. */
export function labelsTsv(pairs: readonly GroundTruthPair[]): string {
  return [...labelRows(pairs)].join('');
}

/**
 * Writes `<dir>/<source>.ndjson` for every source and `<dir>/labels.tsv`, creating `dir` if needed.
 * Text goes out in ~1 MB chunks so that the whole population is never one string in memory.
 * The bytes are the same as toNdjsonBySource and labelsTsv produce. `replaced` lists the files written over a
 * regular file that was there (the check that refuses a link or a folder says so, before anything is written).
 */
export async function writePopulation(
  pop: SyntheticPopulation,
  dir: string,
): Promise<{ files: string[]; replaced: string[] }> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const sinks = new Map<string, ChunkedFile>();
  const written: ChunkedFile[] = [];
  const open = async (path: string): Promise<ChunkedFile> => {
    const file = await ChunkedFile.create(path);
    written.push(file);
    return file;
  };
  try {
    for (const source of SYNTHETIC_SOURCES) {
      const path = join(dir, `${source.sourceSystem}.ndjson`);
      sinks.set(source.sourceSystem, await open(path));
      files.push(path);
    }
    for (const record of pop.records) {
      let sink = sinks.get(record.sourceSystem);
      if (sink === undefined) {
        const path = join(dir, `${record.sourceSystem}.ndjson`);
        sink = await open(path);
        sinks.set(record.sourceSystem, sink);
        files.push(path);
      }
      if (sink.add(`${JSON.stringify(record.patient)}\n`)) await sink.flush();
    }
    for (const sink of sinks.values()) await sink.close();
    sinks.clear();

    const labelsPath = join(dir, 'labels.tsv');
    const labels = await open(labelsPath);
    sinks.set('', labels); // so that the finally block closes it on failure
    for (const row of labelRows(groundTruthPairs(pop))) if (labels.add(row)) await labels.flush();
    await labels.close();
    sinks.clear();
    await Promise.all(written.map((file) => file.commit()));
    files.push(labelsPath);
  } finally {
    for (const sink of sinks.values()) await sink.close();
    for (const file of written) file.discard();
  }
  return { files, replaced: written.filter((file) => file.replaces).map((file) => file.path) };
}

/**
 * A file written through an in-memory buffer of up to FLUSH_AT characters; a full buffer goes to the
 * stream as one chunk and we wait for the stream to drain, so memory stays bounded. It is written to a
 * temporary file with mode 0600 and renamed over its path by commit() (only over a regular file), so an
 * interrupted run never leaves a partial file under the final name.
 */
class ChunkedFile {
  private parts: string[] = [];
  private size = 0;
  private closed = false;
  private committed = false;

  private constructor(
    private readonly stream: WriteStream,
    private readonly temporary: string,
    readonly path: string,
    /** Whether a regular file is at path, which commit() replaces. */
    readonly replaces: boolean,
  ) {}

  static create(path: string): Promise<ChunkedFile> {
    const replaces = checkReplaceable(path);
    const temporary = temporaryPathFor(path);
    const stream = createWriteStream(temporary, { encoding: 'utf8', fd: createPrivateFile(temporary) });
    return Promise.resolve(new ChunkedFile(stream, temporary, path, replaces));
  }

  /** Buffers text; true when the buffer is full and the caller should `await flush()`. */
  add(text: string): boolean {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= FLUSH_AT;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flush();
    } finally {
      this.stream.end();
      await finished(this.stream);
    }
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  /** Renames the closed file into place. */
  async commit(): Promise<void> {
    await this.close();
    replaceWith(this.temporary, this.path);
    this.committed = true;
  }

  /** Removes the temporary file of a file that was not committed. */
  discard(): void {
    if (this.committed) return;
    try {
      unlinkSync(this.temporary);
    } catch {
      // Already gone.
    }
  }
}
