/**
 * A failure of the database file itself says what to do, not "failed unexpectedly": a damaged file (trying again will
 * not mend it), a full disk, a file that cannot be written. Each is made for real: pages of a closed registry
 * overwritten, a page limit the next write passes, a registry opened read-only.
 */
import { copyFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damageTable } from '../../helpers/damage.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, patient, registryWithOneCase } from '../../helpers/registry.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { SqliteStore } from '../../../engine/store/db.ts';
import { Ingestor } from '../../../engine/ingest/ingestor.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import type { IngestReport } from '../../../engine/contract/ingest.ts';

/** What a call failed with. */
async function failureOf(call: Promise<unknown>): Promise<EngineError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  throw new Error('the call succeeded');
}

describe('a failure of the database file', () => {
  it('says a damaged file is damaged and that trying again will not mend it', async () => {
    const dir = tempDir();
    const { engine } = await registryWithOneCase(dir);
    engine.close();
    const path = join(dir, 'registry.db');
    damageTable(path, 'review_case');
    const reopened = LocalEngine.open({ dbPath: path });
    try {
      const error = await failureOf(reopened.call('reviews/list', {}, ctx()));
      expect(error.kind).toBe('internal');
      expect(error.message).toBe(
        "the registry's database file is damaged (SQLITE_CORRUPT); trying again will not mend it: stop using it and restore it from a backup (a sandbox can be created again)",
      );
      // Its own word: not an unexpected failure for support to trace, and the file's place is not told.
      expect(error.cause).toBeUndefined();
      expect(error.message).not.toContain(dir);
    } finally {
      reopened.close();
    }
  });

  it('stops at a full disk rather than refusing record after record, and loses nothing once there is space', async () => {
    const { engine } = await registryWithOneCase(tempDir());
    try {
      const { store } = engine.env;
      const pages = store.statement('PRAGMA page_count').pluck().get() as number;
      // One person's details under 200 hospital numbers: each record is written beside the ones before, so the
      // space runs out part-way, where the chunk is replayed record by record (which refused every record after).
      const many = Array.from({ length: 200 }, (_, i) => patient({ id: `p${String(i)}`, mrn: `M${String(i)}` }));
      const ingest = (): Promise<IngestReport> =>
        engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(...many) }, ctx());
      store.exec(`PRAGMA max_page_count = ${String(pages)}`);
      const error = await failureOf(ingest());
      expect(error.message).toBe(
        "the disk that holds the registry's database is full (SQLITE_FULL); free some space on it, then try again",
      );
      // Written one by one in one transaction (as a FHIR import's page replays its records), they stop the same way.
      const ingestor = new Ingestor(store, 't1', 'hospital', engine.env.settings());
      const outcomes: string[] = [];
      const oneByOne = (): void => {
        withTenant('t1', () => {
          store.write(() => {
            for (const resource of many) {
              const text = JSON.stringify(resource);
              outcomes.push(ingestor.ingestResource(JSON.parse(text), text, undefined, true).kind);
            }
          });
        });
      };
      expect(oneByOne).toThrow(error.message);
      expect(outcomes).not.toContain('rejected');
      // Space freed, the same file again: every record is there, none refused.
      store.exec('PRAGMA max_page_count = 1073741823');
      const report = await ingest();
      expect(report.rejected).toEqual([]);
      expect(report.created + report.updated + report.unchanged).toBe(200);
    } finally {
      engine.close();
    }
  });

  it('says a file it may not write cannot be written', async () => {
    const dir = tempDir();
    const { engine } = await registryWithOneCase(dir);
    engine.close();
    const store = SqliteStore.open(join(dir, 'registry.db'), { readonly: true });
    try {
      const remove = (): void => {
        store.write(() => {
          store.exec("DELETE FROM review_case WHERE tenant_id = 't1'");
        });
      };
      expect(remove).toThrow(
        "the registry's database file cannot be written (SQLITE_READONLY); check that the file and its folder may be written, then try again",
      );
    } finally {
      store.close();
    }
  });

  it('refuses a write once the file was moved, replaced or deleted, where SQLite would write to a file no one sees', async () => {
    const dir = tempDir();
    const path = join(dir, 'registry.db');
    const first = (await registryWithOneCase(dir)).engine;
    let second: LocalEngine | undefined;
    const ingestOne = (engine: LocalEngine): Promise<unknown> =>
      engine.call(
        'records/ingest',
        { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'late', mrn: 'L1' })) },
        ctx(),
      );
    const words =
      "the registry's database file was moved, deleted or replaced while it was open; nothing was written: open it again where it is now (the console's Sandboxes page, or a restart of the registry server)";
    try {
      // Moved: the path leads nowhere.
      renameSync(path, join(dir, 'elsewhere.db'));
      expect((await failureOf(ingestOne(first))).message).toBe(words);
      // Replaced, as a backup restored over it would be: the path leads to another file.
      copyFileSync(join(dir, 'elsewhere.db'), path);
      expect((await failureOf(ingestOne(first))).message).toBe(words);
      // Reads go on from the file it has open.
      expect((await first.call('reviews/list', {}, ctx())).rows).toHaveLength(1);
      // A registry opened on the path now writes, until the file is deleted.
      second = LocalEngine.open({ dbPath: path });
      await ingestOne(second);
      unlinkSync(path);
      expect((await failureOf(ingestOne(second))).message).toBe(words);
    } finally {
      first.close();
      second?.close();
    }
  });
});
