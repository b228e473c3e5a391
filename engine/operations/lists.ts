import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { countRecords } from '../store/records.ts';
import { listRecordIdentities, recordIdentitiesAfter, type IdentityListRow } from '../store/identities.ts';
import { requireTenant } from '../store/tenants.ts';
import type { EngineEnv } from '../env.ts';
import { inCallTenant } from '../store/tenant-scope.ts';

export function listIdentities(
  env: EngineEnv,
  input: OperationInput<'identities/list'>,
  ctx: CallContext,
): OperationOutput<'identities/list'> {
  requireTenant(env.store, ctx.tenantId);
  return env.store.read(() => ({
    total: countRecords(env.store, ctx.tenantId),
    rows: listRecordIdentities(env.store, ctx.tenantId, input.limit ?? 100_000, input.offset ?? 0),
  }));
}

/**
 * Every record of the tenant with its enterprise ID, in source system and local ID order, handed over `pageSize` at a
 * time from one read snapshot: a registry of millions is written out whole in bounded memory, never half from before
 * and half from after a concurrent ingest. `start` is first told the records in all (as `identities/list` counts them).
 */
export const eachRecordIdentity = inCallTenant(function eachRecordIdentity(
  env: EngineEnv,
  ctx: CallContext,
  start: (total: number) => void,
  page: (rows: readonly IdentityListRow[]) => void,
  pageSize: number,
): void {
  requireTenant(env.store, ctx.tenantId);
  env.store.read(() => {
    start(countRecords(env.store, ctx.tenantId));
    let after: IdentityListRow | null = null;
    for (;;) {
      const rows = recordIdentitiesAfter(env.store, ctx.tenantId, after, pageSize);
      if (rows.length > 0) page(rows);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1] ?? null;
    }
  });
});
