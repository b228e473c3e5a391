/** profile/preview: the impact of a candidate profile, checked as profile/apply checks it, in one read snapshot; writes nothing. */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { EngineEnv } from '../env.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { previewImpact } from '../assurance/impact-preview.ts';
import { checkedCandidate } from './profile.ts';

export function previewProfile(
  env: EngineEnv,
  input: OperationInput<'profile/preview'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'profile/preview'> {
  requireTenant(env.store, ctx.tenantId);
  return env.store.read(() => {
    const active = activeProfile(env.store, ctx.tenantId);
    const candidate = checkedCandidate(env, ctx, active, input.document);
    return previewImpact(env.store, ctx.tenantId, active, candidate, input.maxExamples ?? 20, control);
  });
}
