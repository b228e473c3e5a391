/**
 * A chunk's shared reads and deferred rows (ingest/chunk-writes.ts): a file written chunk by chunk, its records looked
 * up together when each chunk begins and its resources, receipts and identity events written at each chunk's end,
 * leaves the registry exactly as writing each record in a transaction of its own does: the same report, records,
 * resources, identities, links, tags, review cases, receipts and identity events in the same order. Inside one chunk
 * the file repeats a record, updates one, brings back an earlier version (a replay known by its receipt) and an
 * older one (stale), and creates a record then updates it. A deferred row the database refuses fails the chunk, and
 * its replay refuses that record alone.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir, suiteDir } from '../../helpers/temp.ts';
import { dumpRegistry } from '../../helpers/registry-dump.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../../engine/operations/sandbox.ts';
import { generatePopulation } from '../../../engine/synthetic/generate.ts';
import { toNdjsonBySource } from '../../../engine/synthetic/write.ts';
import { Ingestor } from '../../../engine/ingest/ingestor.ts';
import { CHUNK_LINES, emptyReport, ingestLines, preparerInThisThread, tally } from '../../../engine/ingest/ndjson.ts';
import { ndjsonLines } from '../../../engine/ingest/ndjson-lines.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import type { IngestReport } from '../../../engine/contract/ingest.ts';

/** The first source's records are written first; the second's link to them and bring the repeats and updates. */
const SOURCES = ['riverside-clinic', 'st-marys-hospital'] as const;
const TENANT = 't1';

type Patient = {
  identifier?: { value?: string }[];
  meta?: { lastUpdated?: string };
  name?: { family?: string; given?: string[] }[];
};

/**
 * Two sources' synthetic files (two chunks and more each); the second has repeats, updates, replays and stale
 * versions in its first chunk.
 */
function fileTexts(): string[] {
  const files = toNdjsonBySource(generatePopulation({ people: 2_600, seed: 13 }));
  const text = files.get(SOURCES[1]) ?? '';
  const lines = text.split('\n').filter((line) => line !== '');
  expect(lines.length).toBeGreaterThan(CHUNK_LINES + 100);
  const patient = (index: number): Patient => JSON.parse(lines[index] ?? '') as Patient;
  const renamed = (p: Patient, lastUpdated: string, family: string): string =>
    JSON.stringify({ ...p, meta: { ...p.meta, lastUpdated }, name: [{ ...p.name?.[0], family }] });
  const out = [...lines];
  const insert = (at: number, line: string): void => {
    out.splice(at, 0, line);
  };
  // From the back, so the earlier positions stay where they are.
  // A record first seen at line 300 is updated at line 310, in the same chunk.
  insert(310, renamed(patient(300), '2026-06-02T00:00:00Z', 'Laterupdated'));
  // Line 20's record: updated at 200, its first version again at 210 (unchanged: its receipt), an older one at 220.
  insert(220, renamed(patient(20), '2001-01-01T00:00:00Z', 'Olderversion'));
  insert(210, lines[20] ?? '');
  insert(200, renamed(patient(20), '2026-06-01T00:00:00Z', 'Updatedname'));
  // Line 10 repeated as it is.
  insert(50, lines[10] ?? '');
  return [files.get(SOURCES[0]) ?? '', out.join('\n') + '\n'];
}

/** A fresh registry with tenant t1; every copy has the same blocking keys, so the same records get the same tags. */
const blank = ((): string => {
  const dir = suiteDir();
  const engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
  createTenant(engine.env, { tenantId: TENANT, actor: 'test' }, sandboxProfile());
  engine.close();
  return dir;
})();

interface Written {
  readonly reports: IngestReport[];
  readonly registry: Record<string, unknown[]>;
  /** Every identity event, in event order, without its time. */
  readonly events: unknown[];
  /** Write transactions begun: a chunk rolled back and replayed takes two. */
  readonly transactions: number;
}

/**
 * Writes the files chunk by chunk (`chunked`) or each record in a write transaction of its own; `passes` times (a
 * second pass replays them, every record already stored before its chunk begins).
 */
async function write(texts: readonly string[], chunked: boolean, refuse?: string, passes = 1): Promise<Written> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  cpSync(blank, dir, { recursive: true });
  const dbPath = join(dir, 'registry.db');
  const engine = LocalEngine.open({ dbPath });
  try {
    const { store } = engine.env;
    let transactions = 0;
    const begin = store.write.bind(store);
    store.write = <T>(fn: () => T): T => {
      if (!store.inTransaction) transactions += 1;
      return begin(fn);
    };
    // A real SQLite refusal of one deferred row that validation cannot foresee, on the engine's own connection.
    if (refuse !== undefined)
      store.exec(
        `CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON ingestion_receipt WHEN NEW.local_id = '${refuse}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
      );
    const reports: IngestReport[] = [];
    for (const [index, text] of Array.from({ length: passes }, () => texts)
      .flat()
      .entries()) {
      const source = SOURCES[index % texts.length] ?? '';
      reports.push(
        await withTenant(TENANT, async () => {
          const ingestor = new Ingestor(store, TENANT, source, engine.env.settings());
          if (chunked)
            return ingestLines(store, ingestor, ndjsonLines(text), undefined, undefined, preparerInThisThread);
          const one = emptyReport(source, ingestor.profile.version);
          text
            .split('\n')
            .filter((line) => line !== '')
            .forEach((line, n) => {
              const outcome = store.write(() => ingestor.ingestResource(JSON.parse(line), line, undefined, true));
              one.lines = n + 1;
              tally(one, n + 1, outcome, ingestor.prepareResource(JSON.parse(line), line));
            });
          return one;
        }),
      );
    }
    const events = withTenant(TENANT, () =>
      store
        .statement(
          'SELECT event_id, identity_id, record_id, kind, decided_by, score, profile_version, job_id, review_cases FROM identity_event WHERE tenant_id = ? ORDER BY event_id',
        )
        .all(TENANT),
    );
    return { reports, registry: dumpRegistry(dbPath, TENANT), events, transactions };
  } finally {
    engine.close();
  }
}

/** The chunks the files are written in. */
function chunks(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Math.ceil(text.split('\n').filter((l) => l !== '').length / CHUNK_LINES), 0);
}

describe('a chunk shares its reads and defers the rows nothing reads back', () => {
  const texts = fileTexts();

  it('leaves the registry, the report and the identity events as writing record by record does', async () => {
    const oneByOne = await write(texts, false);
    const [first, second] = oneByOne.reports;
    expect(first?.created).toBeGreaterThan(CHUNK_LINES);
    expect(second).toMatchObject({ unchanged: 2, stale: 1, updated: 2, rejected: [] });
    expect(second?.created).toBeGreaterThan(CHUNK_LINES);
    expect(second?.autoLinked).toBeGreaterThan(100);
    expect(second?.reviewCasesCreated).toBeGreaterThan(0);
    expect(oneByOne.events.length).toBe((first?.created ?? 0) + (second?.created ?? 0) + (second?.updated ?? 0));

    const chunked = await write(texts, true);
    // No chunk was rolled back and replayed.
    expect(chunked.transactions).toBe(chunks(texts));
    expect(chunked.reports).toEqual(oneByOne.reports);
    expect(chunked.registry).toEqual(oneByOne.registry);
    expect(chunked.events).toEqual(oneByOne.events);
    // The updated records' resources are their latest versions.
    const resources = chunked.registry['resources'] as string[];
    expect(resources.filter((r) => r.includes('Updatedname'))).toHaveLength(1);
    expect(resources.filter((r) => r.includes('Laterupdated'))).toHaveLength(1);
    expect(resources.filter((r) => r.includes('Olderversion'))).toHaveLength(0);
  }, 120_000);

  it('a replay finds every record its chunks name as stored before them, with no chunk rolled back', async () => {
    const twice = await write(texts, true, undefined, 2);
    expect(twice.transactions).toBe(2 * chunks(texts));
    const [first, second, ...replayed] = twice.reports;
    expect(replayed).toHaveLength(2);
    for (const [index, report] of replayed.entries()) {
      const before = [first, second][index];
      // Every line comes back unchanged (a version stored or receipted), but the older version, stale again.
      expect(report).toMatchObject({
        created: 0,
        updated: 0,
        stale: before?.stale,
        rejected: [],
        reviewCasesCreated: 0,
      });
      expect(report.unchanged).toBe((before?.created ?? 0) + (before?.updated ?? 0) + (before?.unchanged ?? 0));
    }
  }, 120_000);

  it('a deferred row the database refuses fails its chunk; the replay refuses that record alone', async () => {
    const refused = (JSON.parse(texts[1]?.split('\n')[500] ?? '') as Patient).identifier?.[0]?.value ?? '';
    expect(refused).toMatch(/^SM\d+$/);
    const oneByOne = await write(texts, false, refused);
    const chunked = await write(texts, true, refused);
    expect(chunked.transactions).toBe(chunks(texts) + 1);
    const rejected = chunked.reports[1]?.rejected ?? [];
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.issues).toEqual([
      { path: 'record', message: expect.stringMatching(/^the database refused this record/) as unknown },
    ]);
    expect(chunked.reports).toEqual(oneByOne.reports);
    expect(chunked.registry).toEqual(oneByOne.registry);
    expect(chunked.events).toEqual(oneByOne.events);
    expect(JSON.stringify(chunked.registry['records'])).not.toContain(`"${refused}"`);
  }, 120_000);
});
