/** audit/sample and audit/estimate: registry-wide accuracy of the links from a stratified labelled sample (contract/audit.ts). */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { validationError } from '../contract/errors.ts';
import { AUDIT_STRATA } from '../contract/audit.ts';
import type { EngineEnv } from '../env.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import { activeProfile } from '../store/profiles.ts';
import { hasTruth, truthPersonOf } from '../store/assurance.ts';
import type { RecordRef } from '../contract/matching.ts';
import { requireTenant } from '../store/tenants.ts';
import { drawAuditSample } from '../assurance/audit-sample.ts';
import { auditEstimate } from '../stats/audit-estimate.ts';
import { profileSummary } from './profile-summary.ts';
import { AUDIT_METHOD } from '../assurance/report-text.ts';

export function sampleAudit(
  env: EngineEnv,
  input: OperationInput<'audit/sample'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'audit/sample'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  if (input.groundTruth === true && !hasTruth(store, ctx.tenantId))
    throw validationError(
      `tenant "${ctx.tenantId}" has no ground truth: only a synthetic sandbox (sandbox init --synthetic N) or a benchmark load can label an audit sample by itself; label a registry of real patients by hand`,
      [{ path: 'groundTruth', message: 'no ground truth in this tenant' }],
    );
  return store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    const { sizes, quota, pairs, identities, sampledIdentities } = drawAuditSample(
      store,
      ctx.tenantId,
      stored,
      input.labels ?? 400,
      input.seed ?? 1,
      control,
    );
    return {
      matchingProfileVersion: stored.version,
      strata: AUDIT_STRATA.map((name) => ({
        name,
        linked: name === 'linked',
        population: sizes.get(name) ?? 0,
        sampled: quota.get(name) ?? 0,
      })),
      pairs: input.groundTruth === true ? pairs.map((pair) => withTruth(store, ctx.tenantId, pair)) : pairs,
      identities,
      ...(sampledIdentities === undefined ? {} : { sampledIdentities }),
      // Every candidate pair of the identities walked is enumerated (bounded as reconciliation bounds its candidates).
      candidatePairsCapped: false,
    };
  });
}

/** The pair with its ground-truth label, when the truth knows both records. */
function withTruth<P extends { readonly left: RecordRef; readonly right: RecordRef }>(
  store: EngineEnv['store'],
  tenantId: string,
  pair: P,
): P & { isMatch?: boolean } {
  const left = truthPersonOf(store, tenantId, pair.left.sourceSystem, pair.left.localId);
  const right = truthPersonOf(store, tenantId, pair.right.sourceSystem, pair.right.localId);
  return left === undefined || right === undefined ? pair : { ...pair, isMatch: left === right };
}

export function estimateAudit(
  env: EngineEnv,
  input: OperationInput<'audit/estimate'>,
  ctx: CallContext,
): OperationOutput<'audit/estimate'> {
  requireTenant(env.store, ctx.tenantId);
  const named = new Map(input.strata.map((s) => [s.name, s]));
  const issues = input.labels.flatMap((label, i) =>
    named.has(label.stratum)
      ? []
      : [{ path: `labels[${String(i)}].stratum`, message: "a stratum not among the sample's strata" }],
  );
  if (issues.length > 0) throw validationError("every label must belong to one of the sample's strata", issues);
  const byStratum = input.strata.map((s) => {
    const labels = input.labels.filter((l) => l.stratum === s.name);
    return { ...s, labelled: labels.length, matches: labels.filter((l) => l.isMatch).length };
  });
  const over = byStratum.filter((s) => s.labelled > s.population);
  if (over.length > 0)
    throw validationError(
      'a stratum has more labels than pairs',
      over.map((s) => ({ path: `strata.${s.name}`, message: 'more labels than the stratum’s population' })),
    );
  const { matchingProfileVersion, comparatorVersion, scoreMethod, scoreMethodVersion } = profileSummary(env, {}, ctx);
  return {
    ...auditEstimate(byStratum),
    byStratum,
    labelsFromGroundTruth: input.labels.filter((l) => l.fromGroundTruth === true).length,
    method: AUDIT_METHOD,
    versions: { matchingProfileVersion, comparatorVersion, scoreMethod, scoreMethodVersion },
  };
}
