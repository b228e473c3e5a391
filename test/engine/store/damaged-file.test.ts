/**
 * A failure of the database file itself says what to do, not "failed unexpectedly": a damaged file (trying again will
 * not mend it), a full disk, a file that cannot be written. Each is made for real: pages of a closed registry
 * overwritten, a page limit the next write passes, a registry opened read-only.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damageTable } from '../../helpers/damage.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, patient, registryWithOneCase } from '../../helpers/registry.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { SqliteStore } from '../../../engine/store/db.ts';

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

  it('says the disk is full when a write passes the space the database may take', async () => {
    const { engine } = await registryWithOneCase(tempDir());
    try {
      const { store } = engine.env;
      const pages = store.statement('PRAGMA page_count').pluck().get() as number;
      store.exec(`PRAGMA max_page_count = ${String(pages)}`);
      const many = Array.from({ length: 200 }, (_, i) =>
        patient({ id: `p${String(i)}`, mrn: `M${String(i)}`, family: `Family${String(i)}` }),
      );
      const error = await failureOf(
        engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(...many) }, ctx()),
      );
      expect(error.message).toBe(
        "the disk that holds the registry's database is full (SQLITE_FULL); free some space on it, then try again",
      );
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
});
