/**
 * How many times a job was claimed, read through a connection of its own: for the jobs tests and for the worker
 * processes they start (slow-worker.ts), so this module imports nothing of vitest.
 */
import { Store } from '../../../engine/store/store.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';

/** The tenant every jobs test serves. */
export const TENANT = 'jobs-test';

export function jobClaims(dbPath: string, jobId: string): number {
  return withTenant(TENANT, () => {
    const store = Store.open(dbPath, { readonly: true });
    try {
      return store
        .statement('SELECT claims FROM maintenance_job WHERE tenant_id = ? AND job_id = ?')
        .pluck()
        .get(TENANT, jobId) as number;
    } finally {
      store.close();
    }
  });
}
