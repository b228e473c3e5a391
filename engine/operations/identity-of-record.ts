/** identities/of-record: the identity a source record is linked to (contract/identity-history.ts). */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { notFound } from '../contract/errors.ts';
import type { EngineEnv } from '../env.ts';
import { identityOfRecordRef } from '../store/identities.ts';
import { requireTenant } from '../store/tenants.ts';

export function identityOfRecord(
  env: EngineEnv,
  input: OperationInput<'identities/of-record'>,
  ctx: CallContext,
): OperationOutput<'identities/of-record'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  const found = store.read(() => identityOfRecordRef(store, ctx.tenantId, input.sourceSystem, input.localId));
  // The local identifier is not echoed: it can be a medical record number.
  if (found === undefined)
    throw notFound(`no record with this local ID from source system "${input.sourceSystem}" in this tenant`);
  return found;
}
