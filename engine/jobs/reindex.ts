/**
 * Re-index: refreshes the blocking tags stored on identities after a change of blocking rules, blocking
 * inputs or HMAC keys. It never merges identities and never re-evaluates matches.
 *
 * Validation (no registry write): every active identity must keep at least one stored tag that is also in
 * its target tag set (the union of its records' tags under the current rules and every configured key), else
 * candidate discovery would break for it and the job fails before any identity is modified. An identity
 * with no stored tag has nothing to lose: it passes with a warning.
 * Writing: per identity, the stored tags become exactly the target set (only the difference is written).
 */
import { blockingTagsOfAll, materialTag, tagHex, type BlockingTag } from '../blocking/tags.ts';
import { ruleKeyMaterial } from '../blocking/key-material.ts';
import type { MatchFields } from '../contract/fields.ts';
import { addTags, identitiesHolding } from '../store/tags.ts';
import { activeIdentityKeysAfter, deleteTag, expectIdentityVersions, fieldsOf, storedTagHexOf } from './population.ts';
import type { BatchPlan, JobContext, PhaseWork } from './phase-work.ts';

/** The identity's target tag set: every tag of every linked record under the current rules and keys. */
function targetTags(ctx: JobContext, records: readonly MatchFields[] | undefined): BlockingTag[] {
  return blockingTagsOfAll(records ?? [], ctx.profile.profile.Blocking, ctx.ring);
}

/**
 * The records' target tags one at a time, computed lazily. Keys are tried last-configured first: during a staged
 * change the stored tags are the previous (inactive) key's, so the common case costs one or two HMACs instead of
 * the identity's whole target set.
 */
function* lazyTargetTags(ctx: JobContext, records: readonly MatchFields[]): Generator<Buffer> {
  const { Rules } = ctx.profile.profile.Blocking;
  for (const key of [...ctx.ring.keys].reverse()) {
    for (const rule of Rules) {
      for (const record of records) {
        for (const material of ruleKeyMaterial(record, rule)) yield materialTag(key, material);
      }
    }
  }
}

/** Whether any target tag of the records is among the stored ones, stopping at the first hit. */
function sharesTargetTag(ctx: JobContext, records: readonly MatchFields[], stored: ReadonlySet<string>): boolean {
  for (const tag of lazyTargetTags(ctx, records)) if (stored.has(tagHex(tag))) return true;
  return false;
}

export function reindexValidation(ctx: JobContext): PhaseWork {
  return {
    readBatch(cursor, batchSize): BatchPlan | null {
      const batch = activeIdentityKeysAfter(ctx.store, ctx.tenantId, cursor, batchSize);
      const last = batch.at(-1);
      if (last === undefined) return null;
      let failure = 0;
      let warning = 0;
      let firstFailure: string | undefined;
      const records = fieldsOf(ctx.store, ctx.tenantId, batch);
      // Most identities hold their first target tag: one primary-key probe each settles them. Only the others
      // (after a change of rules or keys, or an identity with no stored tag) have all their stored tags read.
      const probes: { identityId: number; tag: Buffer }[] = [];
      for (const identity of batch) {
        const first = lazyTargetTags(ctx, records.get(identity.identityId) ?? []).next();
        if (first.done !== true) probes.push({ identityId: identity.identityId, tag: first.value });
      }
      const held = identitiesHolding(ctx.store, ctx.tenantId, probes);
      const unsettled = batch.filter((identity) => !held.has(identity.identityId));
      const storedTags = storedTagHexOf(ctx.store, ctx.tenantId, unsettled);
      for (const identity of unsettled) {
        const stored = new Set(storedTags.get(identity.identityId));
        if (stored.size === 0) {
          warning++;
          continue;
        }
        if (!sharesTargetTag(ctx, records.get(identity.identityId) ?? [], stored)) {
          failure++;
          firstFailure ??= identity.enterpriseId;
        }
      }
      return {
        lastIdentityId: last.identityId,
        items: batch.length,
        counters: { validated: batch.length, failure, warning },
        ...(firstFailure === undefined
          ? {}
          : {
              notes: [
                {
                  text: `first identity with no blocking key in both indexes: enterprise ID ${firstFailure}`,
                  important: true,
                },
              ],
            }),
        write: () => ({}),
      };
    },
    finish(job) {
      const { failure, validated } = job.counters;
      if (failure === 0) return null;
      return (
        `re-index validation failed: ${String(failure)} of ${String(validated)} active identities have no blocking key present in both ` +
        'the stored and the target index; no identity was changed. Stage the change instead: deploy the union of the old and new ' +
        'blocking rules, keep the previous HMAC key as InactiveKeyVersion, re-index, then deploy the final rules (docs/maintenance.md)'
      );
    },
  };
}

export function reindexWriting(ctx: JobContext): PhaseWork {
  return {
    readBatch(cursor, batchSize): BatchPlan | null {
      const batch = activeIdentityKeysAfter(ctx.store, ctx.tenantId, cursor, batchSize);
      const last = batch.at(-1);
      if (last === undefined) return null;
      const changes: { identityId: number; version: number; remove: Buffer[]; add: BlockingTag[] }[] = [];
      const storedTags = storedTagHexOf(ctx.store, ctx.tenantId, batch);
      const records = fieldsOf(ctx.store, ctx.tenantId, batch);
      for (const identity of batch) {
        const stored = storedTags.get(identity.identityId) ?? [];
        const target = targetTags(ctx, records.get(identity.identityId));
        const storedHex = new Set(stored);
        const targetHex = target.map((t) => tagHex(t.tag));
        const targetSet = new Set(targetHex);
        const remove = stored.filter((hex) => !targetSet.has(hex)).map((hex) => Buffer.from(hex, 'hex'));
        const add = target.filter((_, i) => !storedHex.has(targetHex[i] ?? ''));
        if (remove.length > 0 || add.length > 0)
          changes.push({ identityId: identity.identityId, version: identity.version, remove, add });
      }
      return {
        lastIdentityId: last.identityId,
        items: batch.length,
        counters: { scanned: batch.length, updated: changes.length, unchanged: batch.length - changes.length },
        write() {
          expectIdentityVersions(ctx.store, ctx.tenantId, changes);
          for (const change of changes) {
            for (const tag of change.remove) deleteTag(ctx.store, ctx.tenantId, change.identityId, tag);
            addTags(ctx.store, ctx.tenantId, change.identityId, change.add);
          }
          return {};
        },
      };
    },
  };
}
