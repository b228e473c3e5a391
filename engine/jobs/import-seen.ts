/**
 * What a full import has seen (migration 0006): the local identifiers of the source's records returned so far,
 * written in each page's transaction. At the end of a full import the source's records it did not return are
 * counted (a warning: they stay linked, nothing is deleted) and the rows go. Every statement is tenant-scoped.
 */
import type { Store } from '../store/store.ts';

export function markSeen(store: Store, tenantId: string, jobId: string, localIds: readonly string[]): void {
  const insert = store.statement(
    'INSERT INTO maintenance_import_seen (tenant_id, job_id, local_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  for (const localId of localIds) insert.run(tenantId, jobId, localId);
}

/** Records of the source system that this job's import did not return. */
export function countUnseen(store: Store, tenantId: string, jobId: string, sourceSystem: string): number {
  return store
    .statement(
      `SELECT count(*) FROM source_record r
       WHERE r.tenant_id = ? AND r.source_system = ?
         AND NOT EXISTS (SELECT 1 FROM maintenance_import_seen s WHERE s.tenant_id = r.tenant_id AND s.job_id = ? AND s.local_id = r.local_id)`,
    )
    .pluck()
    .get(tenantId, sourceSystem, jobId) as number;
}

export function forgetSeen(store: Store, tenantId: string, jobId: string): void {
  store.statement('DELETE FROM maintenance_import_seen WHERE tenant_id = ? AND job_id = ?').run(tenantId, jobId);
}
