import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { countRecords } from '../store/records.ts';
import { listRecordIdentities } from '../store/identities.ts';
import { requireTenant } from '../store/tenants.ts';
import type { EngineEnv } from '../env.ts';

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
