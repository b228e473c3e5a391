/** health/series: the tenant's health samples in time order and the drift flags on the latest (contract/health.ts). */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { EngineEnv } from '../env.ts';
import { healthSamples } from '../store/health.ts';
import { requireTenant } from '../store/tenants.ts';
import { driftFlags } from '../assurance/health-drift.ts';
import { DRIFT_RULE } from '../assurance/report-text.ts';

export function healthSeries(
  env: EngineEnv,
  input: OperationInput<'health/series'>,
  ctx: CallContext,
): OperationOutput<'health/series'> {
  requireTenant(env.store, ctx.tenantId);
  const samples = env.store.read(() => healthSamples(env.store, ctx.tenantId, input.sourceSystem, input.limit ?? 500));
  return { samples, flags: driftFlags(samples), rule: DRIFT_RULE };
}
