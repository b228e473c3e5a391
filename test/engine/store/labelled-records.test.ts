/**
 * The labelled records of an evaluation or a calibration read in bulk (findLabelledRecords, store/assurance.ts), on
 * SQLite and on a fresh PostgreSQL database: for every record of a sandbox (more of one source system than one
 * statement takes), references given in an order of their own, repeated, absent and of another source system, each
 * answer equals the record's own row, with its fields only when asked, and a reference the tenant lacks is undefined.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { findLabelledRecords } from '../../../engine/store/assurance.ts';
import type { RecordRef } from '../../../engine/contract/matching.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { scratchDir } from '../../helpers/temp.ts';
import { TENANT, configOf, makeSandbox } from '../jobs/helpers.ts';

interface Row {
  readonly sourceSystem: string;
  readonly localId: string;
  readonly recordId: number;
  readonly version: number;
  readonly payloadDigest: string;
  readonly fieldsJson: string;
}

async function check(postgres: boolean): Promise<void> {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  const dbPath = await makeSandbox(dir, 'labelled', 1000, 5, postgres ? await freshDatabase() : undefined);
  const engine = LocalEngine.open({ dbPath, settingsPath: configOf(dbPath) });
  onTestFinished(() => {
    engine.close();
  });
  const { store } = engine.env;
  withTenant(TENANT, () => {
    const rows = store
      .statement(
        `SELECT source_system AS sourceSystem, local_id AS localId, record_id AS recordId, logical_version AS version,
                payload_digest AS payloadDigest, fields_json AS fieldsJson
         FROM source_record WHERE tenant_id = ? ORDER BY record_id DESC`,
      )
      .all(TENANT) as Row[];
    const perSystem = new Map<string, number>();
    for (const row of rows) perSystem.set(row.sourceSystem, (perSystem.get(row.sourceSystem) ?? 0) + 1);
    expect(Math.max(...perSystem.values())).toBeGreaterThan(500);
    const first = rows[0] as Row;
    const refs: RecordRef[] = [
      { sourceSystem: first.sourceSystem, localId: 'absent-local-id' },
      ...rows,
      { sourceSystem: 'urn:absent:system', localId: first.localId },
      { sourceSystem: first.sourceSystem, localId: first.localId },
    ];
    const wide = findLabelledRecords(store, TENANT, refs, true);
    const narrow = findLabelledRecords(store, TENANT, refs, false);
    expect(wide).toHaveLength(refs.length);
    expect(wide[0]).toBeUndefined();
    expect(wide.at(-2)).toBeUndefined();
    expect(narrow[0]).toBeUndefined();
    const own = (row: Row): object => ({
      recordId: row.recordId,
      version: row.version,
      payloadDigest: row.payloadDigest,
    });
    rows.forEach((row, i) => {
      expect(wide[i + 1], row.localId).toEqual({ ...own(row), fieldsJson: row.fieldsJson });
      expect(narrow[i + 1], row.localId).toEqual(own(row));
    });
    expect(wide.at(-1)).toEqual({ ...own(first), fieldsJson: first.fieldsJson });
    // Another tenant holds none of them.
    expect(findLabelledRecords(store, 'another-tenant', refs.slice(1, 4), true)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
}

describe('labelled records read in bulk', () => {
  it('answer as each record row says on SQLite', async () => {
    await check(false);
  });

  it('do the same on PostgreSQL', async () => {
    await check(true);
  });
});
