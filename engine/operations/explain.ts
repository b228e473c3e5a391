import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { notFound } from '../contract/errors.ts';
import { createScorer } from '../scoring/scorer.ts';
import { storedTermFrequencies } from '../store/term-frequency.ts';
import { blockingTags, tagHex } from '../blocking/tags.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { activeProfile } from '../store/profiles.ts';
import { findRecord } from '../store/records.ts';
import { identityOfRecord, identityVersions } from '../store/identities.ts';
import { requireTenant } from '../store/tenants.ts';
import type { EngineEnv } from '../env.ts';
import type { DisplayFields } from '../contract/workbench.ts';

export function explainPair(
  env: EngineEnv,
  input: OperationInput<'matching/explain'>,
  ctx: CallContext,
): OperationOutput<'matching/explain'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    // The local identifier is not echoed: it can be a medical record number.
    const left = findRecord(store, ctx.tenantId, input.left.sourceSystem, input.left.localId);
    if (left === undefined)
      throw notFound(`the left record (source system "${input.left.sourceSystem}") does not exist in this tenant`);
    const right = findRecord(store, ctx.tenantId, input.right.sourceSystem, input.right.localId);
    if (right === undefined)
      throw notFound(`the right record (source system "${input.right.sourceSystem}") does not exist in this tenant`);
    const scorer = createScorer(stored.profile, storedTermFrequencies(store, ctx.tenantId));
    const result = scorer.explain(scorer.prepare(left.fields), scorer.prepare(right.fields));
    const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
    const leftTags = new Map(
      blockingTags(left.fields, stored.profile.Blocking, ring).map((t) => [tagHex(t.tag), t.ruleName]),
    );
    const shared = new Set<string>();
    for (const t of blockingTags(right.fields, stored.profile.Blocking, ring)) {
      const rule = leftTags.get(tagHex(t.tag));
      if (rule !== undefined) shared.add(rule);
    }
    const enterpriseIdOf = (recordId: number): string | null => {
      const identityId = identityOfRecord(store, ctx.tenantId, recordId);
      return identityId === undefined ? null : identityVersions(store, ctx.tenantId, identityId).enterpriseId;
    };
    return {
      ...result,
      left: { ...input.left, enterpriseId: enterpriseIdOf(left.recordId) },
      right: { ...input.right, enterpriseId: enterpriseIdOf(right.recordId) },
      matchingProfileVersion: stored.version,
      comparatorVersion: stored.profile.Comparators.Version,
      sharedBlockingRules: [...shared].sort(),
      // The normalised fields, as the workbench shows them (candidate-pairs.ts); only when asked.
      ...(input.withValues === true
        ? { values: { left: left.fields as DisplayFields, right: right.fields as DisplayFields } }
        : {}),
    };
  });
}
