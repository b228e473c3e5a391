import type { Store } from './store.ts';
import { notFound } from '../contract/errors.ts';

export function tenantExists(store: Store, tenantId: string): boolean {
  return store.statement('SELECT 1 FROM tenant WHERE tenant_id = ?').get(tenantId) !== undefined;
}

export function requireTenant(store: Store, tenantId: string): void {
  if (!tenantExists(store, tenantId)) {
    throw notFound(
      `tenant "${tenantId}" is not registered in this database (create it with \`sandbox init --tenant ${tenantId}\`)`,
    );
  }
}

export function insertTenant(store: Store, tenantId: string, at: string): void {
  store.statement('INSERT INTO tenant (tenant_id, created_at) VALUES (?, ?)').run(tenantId, at);
}
