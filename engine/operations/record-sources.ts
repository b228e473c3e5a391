/** records/sources: the source systems the tenant's records came from (contract/identity-history.ts). */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { EngineEnv } from '../env.ts';
import { sourceSystemsOf } from '../store/source-systems.ts';
import { requireTenant } from '../store/tenants.ts';

export function recordSources(
  env: EngineEnv,
  _input: OperationInput<'records/sources'>,
  ctx: CallContext,
): OperationOutput<'records/sources'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return { sources: store.read(() => sourceSystemsOf(store, 'source_record', ctx.tenantId)) };
}
