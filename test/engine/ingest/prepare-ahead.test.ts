import { describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { suiteDir, tempDir } from '../../helpers/temp.ts';
import { dumpRegistry } from '../../helpers/registry-dump.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../../engine/operations/sandbox.ts';
import { generatePopulation } from '../../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../../engine/synthetic/write.ts';
import { Ingestor } from '../../../engine/ingest/ingestor.ts';
import { CHUNK_CHARACTERS, CHUNK_LINES, ingestLines, preparerInThisThread } from '../../../engine/ingest/ndjson.ts';
import { ndjsonLines } from '../../../engine/ingest/ndjson-lines.ts';
import { ThreadPreparer, type ChunkPreparer } from '../../../engine/ingest/chunk-preparer.ts';
import { MAX_LINE_BYTES } from '../../../engine/ingest/ndjson-lines.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import type { IngestReport } from '../../../engine/contract/ingest.ts';

const SOURCES = ['riverside-clinic', 'st-marys-hospital'] as const;

/**
 * Two sources' synthetic files (three chunks and more each; the second holds duplicates of the first's people),
 * with bad lines, blank lines and a replay among them.
 */
function fileTexts(): string[] {
  const population = toNdjsonBySource(generatePopulation({ people: 6_000, seed: 7 }));
  return SOURCES.map((source) => withBadLines(population.get(source) ?? ''));
}

function withBadLines(text: string): string {
  const lines = text.split('\n').filter((line) => line !== '');
  expect(lines.length).toBeGreaterThan(3 * CHUNK_LINES);
  const first = lines[0] ?? '';
  const out: string[] = [];
  lines.forEach((line, index) => {
    out.push(line);
    if (index % 400 === 5) out.push('{"resourceType": "Patient", "id": ');
    if (index % 500 === 7) out.push('');
    if (index % 700 === 9) out.push('{"resourceType": "Observation", "id": "x"}');
    if (index === 1_500) out.push(first);
    if (index === 2_100) out.push('x'.repeat(MAX_LINE_BYTES + 10));
  });
  return out.join('\n') + '\n';
}

/** A fresh registry with tenant t1; every copy has the same blocking keys, so the same records get the same tags. */
const blank = ((): string => {
  const dir = suiteDir();
  const engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
  createTenant(engine.env, { tenantId: 't1', actor: 'test' }, sandboxProfile());
  engine.close();
  return dir;
})();

async function ingestWith(
  texts: readonly string[],
  prepareAhead: (ingestor: Ingestor) => ChunkPreparer,
  /** Run for each source's ingestor before its lines are read. */
  before: (ingestor: Ingestor) => Promise<unknown> = () => Promise.resolve(),
): Promise<{ reports: IngestReport[]; registry: Record<string, unknown[]> }> {
  const dir = tempDir();
  cpSync(blank, dir, { recursive: true });
  const dbPath = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath });
  try {
    const reports: IngestReport[] = [];
    for (const [index, text] of texts.entries()) {
      reports.push(
        await withTenant('t1', async () => {
          const ingestor = new Ingestor(engine.env.store, 't1', SOURCES[index] ?? '', engine.env.settings());
          await before(ingestor);
          return ingestLines(engine.env.store, ingestor, ndjsonLines(text), undefined, undefined, prepareAhead);
        }),
      );
    }
    return { reports, registry: dumpRegistry(dbPath, 't1') };
  } finally {
    engine.close();
  }
}

/**
 * Preparers in a thread, one per source, each started (and awaited) before its source's lines are read, so every
 * chunk can go to the thread; kept for inspection.
 */
function threadWith(entry?: URL): {
  start: (ingestor: Ingestor) => Promise<boolean>;
  factory: () => ChunkPreparer;
  made: ThreadPreparer[];
} {
  const made: ThreadPreparer[] = [];
  return {
    start: (ingestor) => {
      const preparer = new ThreadPreparer(ingestor.preparer, entry);
      made.push(preparer);
      return preparer.started;
    },
    factory: () => {
      const preparer = made.at(-1);
      if (preparer === undefined) throw new Error('no preparer started');
      return preparer;
    },
    made,
  };
}

describe('a large file is prepared one chunk ahead, in a thread of its own', () => {
  const texts = fileTexts();

  it('writes exactly what preparing in this thread writes: the same report, records, identities, tags and review cases', async () => {
    const here = await ingestWith(texts, preparerInThisThread);
    const [first, second] = here.reports;
    expect(first?.rejected.length).toBeGreaterThanOrEqual(8);
    expect(first?.unchanged).toBe(1);
    expect(second?.autoLinked).toBeGreaterThan(100);
    expect(second?.reviewCasesCreated).toBeGreaterThan(0);

    const thread = threadWith();
    const ahead = await ingestWith(texts, thread.factory, thread.start);
    expect(thread.made).toHaveLength(2);
    // One thread served both files (a thread per file cost a few hundred milliseconds of CPU each).
    expect(thread.made[1]?.started).toBe(thread.made[0]?.started);
    for (const preparer of thread.made) {
      expect(await preparer.started).toBe(true);
      // Every full chunk went to the thread; the last, partial one is prepared here.
      expect(preparer.chunksInThread).toBe(3);
    }
    expect(ahead.reports).toEqual(here.reports);
    expect(ahead.registry).toEqual(here.registry);
  }, 120_000);

  it('loses no line when the thread dies with a chunk in hand: the writer prepares that chunk and the rest itself', async () => {
    const here = await ingestWith(texts, preparerInThisThread);
    const crashing = threadWith(new URL('../../fixtures/crashing-prepare-thread.ts', import.meta.url));
    const after = await ingestWith(texts, crashing.factory, crashing.start);
    expect(crashing.made).toHaveLength(2);
    // The second file had a new thread: a dead one is never reused.
    expect(crashing.made[1]?.started).not.toBe(crashing.made[0]?.started);
    for (const preparer of crashing.made) {
      expect(await preparer.started).toBe(true);
      expect(preparer.chunksInThread).toBe(0);
    }
    expect(after.reports).toEqual(here.reports);
    expect(after.registry).toEqual(here.registry);
  }, 120_000);

  it('starts no thread for a file shorter than a chunk', async () => {
    const short = (texts[0] ?? '').split('\n').slice(0, 50).join('\n');
    let started = 0;
    const { reports } = await ingestWith([short], (ingestor) => {
      started++;
      return preparerInThisThread(ingestor);
    });
    expect(started).toBe(0);
    expect(reports[0]?.created).toBeGreaterThan(40);
  });

  it('ends a chunk at CHUNK_CHARACTERS as well as at CHUNK_LINES, so long lines never make a chunk (or the one prepared ahead) huge', async () => {
    const dir = tempDir();
    cpSync(blank, dir, { recursive: true });
    const engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
    try {
      const long = 'x'.repeat(900_000);
      const perChunk = Math.ceil(CHUNK_CHARACTERS / long.length);
      const text = [...Array.from({ length: 2 * perChunk + 3 }, () => long), (texts[0] ?? '').split('\n')[0]].join(
        '\n',
      );
      const progress: number[] = [];
      const report = await withTenant('t1', () =>
        ingestLines(
          engine.env.store,
          new Ingestor(engine.env.store, 't1', SOURCES[0], engine.env.settings()),
          ndjsonLines(text),
          (r) => progress.push(r.rejected.length + r.created),
        ),
      );
      // Two chunks ended by their characters (far below CHUNK_LINES lines), then the rest.
      expect(progress).toEqual([perChunk, 2 * perChunk, 2 * perChunk + 4]);
      expect(report.rejected).toHaveLength(2 * perChunk + 3);
      expect(report.rejected[0]).toEqual({ line: 1, issues: [{ path: 'line', message: 'not valid JSON' }] });
      expect(report.created).toBe(1);
    } finally {
      engine.close();
    }
  });
});
