/**
 * Reconciliation's rebuilding phase warns where a stored canonical record's provenance does not describe the identity's
 * linked records (a field naming a record that is no longer linked, a record count that disagrees), rebuilds it, and
 * unlinks nothing. A canonical record survivorship would build as it is stored is consistent by construction, so only a
 * record that changes is checked. Real SQLite sandbox, the CLI's worker.
 */
import { describe, expect, it } from 'vitest';
import { CTX, TENANT, openSandbox, uninterruptedReconciliation } from './helpers.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import type { CanonicalRecord } from '../../../engine/contract/fields.ts';

describe('the rebuilding phase', () => {
  it('warns about canonical records whose provenance disagrees with the linked records, and rebuilds them', async () => {
    const { engine, db, store } = await openSandbox('provenance', 60, 4);
    const rows = store
      .statement(
        "SELECT identity_id, enterprise_id, canonical_json FROM identity WHERE tenant_id = ? AND status = 'active' ORDER BY identity_id LIMIT 3",
      )
      .raw()
      .all(TENANT) as [number, string, string][];
    const [stale, miscounted, untouched] = rows.map(([id, enterpriseId, json]) => ({
      id,
      enterpriseId,
      canonical: JSON.parse(json) as CanonicalRecord,
    }));
    if (stale === undefined || miscounted === undefined || untouched === undefined) throw new Error('a small sandbox');
    const set = (id: number, canonical: CanonicalRecord): void => {
      store
        .statement('UPDATE identity SET canonical_json = ? WHERE tenant_id = ? AND identity_id = ?')
        .run(JSON.stringify(canonical), TENANT, id);
    };
    // A family name said to come from a record this identity does not hold.
    set(stale.id, { ...stale.canonical, provenance: { ...stale.canonical.provenance, familyName: 'gone/r-404' } });
    set(miscounted.id, { ...miscounted.canonical, recordCount: miscounted.canonical.recordCount + 1 });
    const links = store.statement('SELECT COUNT(*) FROM identity_link WHERE tenant_id = ?').pluck().get(TENANT);
    engine.close();

    const job = uninterruptedReconciliation(db, 'test: provenance');
    expect(job.counters.warning).toBe(2);
    const after = LocalEngine.open({ dbPath: db });
    try {
      const detail = await after.call('jobs/get', { jobId: job.jobId }, CTX);
      const notes = detail.phases.find((p) => p.name === 'rebuilding')?.notes;
      expect(notes).toEqual([
        `canonical provenance disagreed with the linked records (rebuilt; nothing unlinked): enterprise ID ${stale.enterpriseId}`,
        `canonical provenance disagreed with the linked records (rebuilt; nothing unlinked): enterprise ID ${miscounted.enterpriseId}`,
      ]);
      const canonicalOf = (id: number) =>
        JSON.parse(
          after.env.store
            .statement('SELECT canonical_json FROM identity WHERE tenant_id = ? AND identity_id = ?')
            .pluck()
            .get(TENANT, id) as string,
        ) as CanonicalRecord;
      // Rebuilt as survivorship builds them: as they were before they were tampered with; the third left as it was.
      expect(canonicalOf(stale.id)).toEqual(stale.canonical);
      expect(canonicalOf(miscounted.id)).toEqual(miscounted.canonical);
      expect(canonicalOf(untouched.id)).toEqual(untouched.canonical);
      expect(
        after.env.store.statement('SELECT COUNT(*) FROM identity_link WHERE tenant_id = ?').pluck().get(TENANT),
      ).toBe(links);
    } finally {
      after.close();
    }
  });
});
