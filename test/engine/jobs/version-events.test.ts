/**
 * Every change to an identity's logical version is written with an identity event in the same transaction: an
 * identity's version is the number of its events. Reconciliation's matching phase relies on it (later-tags.ts
 * unchangedSinceScan): an identity no event names since the tag scan keeps the records it was read with. A writer
 * that raised a version without an event would make the phase compare stale records; this test then fails.
 */
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { CTX, TENANT, openSandbox, uninterruptedReconciliation } from './helpers.ts';

/** Identities whose version is not the number of their events: [identity, version, events]. */
function versionsWithoutEvents(engine: LocalEngine): number[][] {
  return engine.env.store
    .statement(
      `SELECT i.identity_id, i.logical_version, (SELECT COUNT(*) FROM identity_event e
         WHERE e.tenant_id = i.tenant_id AND e.identity_id = i.identity_id) AS events
       FROM identity i WHERE i.tenant_id = ? AND i.logical_version <> events ORDER BY 1`,
    )
    .raw()
    .all(TENANT) as number[][];
}

const maxVersion = (engine: LocalEngine): number =>
  engine.env.store
    .statement('SELECT MAX(logical_version) FROM identity WHERE tenant_id = ?')
    .pluck()
    .get(TENANT) as number;

describe("an identity's version", () => {
  it('is the number of its events, after ingestion, auto-links, record updates and a reconciliation', async () => {
    const { engine, db } = await openSandbox('versions', 300, 5);
    expect(versionsWithoutEvents(engine)).toEqual([]);
    const linked = maxVersion(engine);
    expect(linked, 'the sandbox auto-linked records into identities').toBeGreaterThan(1);

    // Newer versions of some records (a changed family name): each identity is rebuilt and re-tagged.
    const rows = engine.env.store
      .statement(
        `SELECT r.source_system, x.resource_json FROM source_record r JOIN source_resource x ON x.record_id = r.record_id
         WHERE r.tenant_id = ? AND r.record_id % 7 = 0`,
      )
      .raw()
      .all(TENANT) as [string, string][];
    for (const [sourceSystem, json] of rows) {
      const patient = JSON.parse(json) as { name?: { family?: string }[]; meta?: Record<string, unknown> };
      const first = patient.name?.[0];
      if (first !== undefined) first.family = `Newname${String(rows.length)}`;
      patient.meta = { ...patient.meta, lastUpdated: '2099-01-01T00:00:00Z' };
      const report = await engine.call('records/ingest', { sourceSystem, ndjson: JSON.stringify(patient) }, CTX);
      expect(report.updated).toBe(1);
    }
    expect(versionsWithoutEvents(engine)).toEqual([]);

    // A survivorship change: the reconciliation rebuilds most canonical records.
    const current = await engine.call('profile/get', {}, CTX);
    await engine.call(
      'profile/apply',
      { document: { SourceTrust: [...current.profile.SourceTrust].reverse() }, reason: 'test: survivorship change' },
      CTX,
    );
    const before = maxVersion(engine);
    const job = uninterruptedReconciliation(db, 'versions test');
    expect(job.counters.updated).toBeGreaterThan(10);
    expect(maxVersion(engine)).toBeGreaterThan(before);
    expect(versionsWithoutEvents(engine)).toEqual([]);
  });
});
