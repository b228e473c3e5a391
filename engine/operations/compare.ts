import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { bandOf } from '../contract/fields.ts';
import { compareWithComparator } from '../comparators/name-comparison.ts';
import { normaliseText } from '../normalise/text.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import type { EngineEnv } from '../env.ts';

/** One comparator on two strings, normalised as names are, under the tenant's active comparator profile. */
export function compareStrings(
  env: EngineEnv,
  input: OperationInput<'comparators/compare'>,
  ctx: CallContext,
): OperationOutput<'comparators/compare'> {
  requireTenant(env.store, ctx.tenantId);
  const comparators = activeProfile(env.store, ctx.tenantId).profile.Comparators;
  const result = compareWithComparator(
    input.comparator,
    normaliseText(input.left) ?? '',
    normaliseText(input.right) ?? '',
    comparators,
  );
  return {
    comparator: result.comparator,
    comparatorVersion: comparators.Version,
    similarity: result.similarity,
    band: bandOf(result.similarity),
    ...(result.culture === undefined ? {} : { culture: result.culture }),
    ...(result.dictionaryVersion === undefined ? {} : { dictionaryVersion: result.dictionaryVersion }),
  };
}
