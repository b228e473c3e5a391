/** identities/history: an identity's events in time order (contract/identity-history.ts). */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { notFound } from '../contract/errors.ts';
import type { CanonicalRecord, MatchFields } from '../contract/fields.ts';
import {
  MAX_RECORDS_WITH_VALUES,
  NO_EVENT_DETAIL,
  type HistoryEvent,
  type IdentityHistory,
} from '../contract/identity-history.ts';
import type { DisplayFields } from '../contract/workbench.ts';
import type { ReviewCase } from '../contract/reviews.ts';
import type { EngineEnv } from '../env.ts';
import { identityEvents, identityLinks } from '../store/identity-events.ts';
import { findRecords } from '../store/records.ts';
import { decisionsOfCases } from '../store/reviews.ts';
import { requireTenant } from '../store/tenants.ts';

export function identityHistory(
  env: EngineEnv,
  input: OperationInput<'identities/history'>,
  ctx: CallContext,
): OperationOutput<'identities/history'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.read(() => {
    const identity = store
      .statement(
        'SELECT identity_id AS identityId, logical_version AS version, status, created_at AS createdAt, canonical_json AS canonicalJson FROM identity WHERE tenant_id = ? AND enterprise_id = ?',
      )
      .get(ctx.tenantId, input.enterpriseId) as
      | { identityId: number; version: number; status: 'active' | 'retired'; createdAt: string; canonicalJson: string }
      | undefined;
    // The enterprise ID is an identifier the caller gave, not a patient value; it is not echoed anyway.
    if (identity === undefined) throw notFound('no identity with this enterprise ID in this tenant');
    const events: HistoryEvent[] = [];
    const logged = identityEvents(store, ctx.tenantId, identity.identityId);
    const withEvent = new Set(
      logged
        .filter((e) => e.kind === 'record-joined' || e.kind === 'identity-created')
        .map((e) => `${e.sourceSystem ?? ''}/${e.localId ?? ''}`),
    );
    for (const e of logged) {
      events.push({
        ...NO_EVENT_DETAIL,
        at: e.at,
        kind: e.kind,
        record:
          e.sourceSystem === null || e.localId === null ? null : { sourceSystem: e.sourceSystem, localId: e.localId },
        decidedBy: e.decidedBy,
        score: e.score,
        profileVersion: e.profileVersion,
        jobId: e.jobId,
        reviewCases: e.reviewCases,
      });
    }
    const links = identityLinks(store, ctx.tenantId, identity.identityId);
    let recordsWithoutDetail = 0;
    for (const link of links) {
      if (withEvent.has(`${link.sourceSystem}/${link.localId}`)) continue;
      recordsWithoutDetail++;
      events.push({
        ...NO_EVENT_DETAIL,
        at: link.linkedAt,
        kind: 'record-linked',
        record: { sourceSystem: link.sourceSystem, localId: link.localId },
        score: link.score,
      });
    }
    const cases = store
      .statement(
        // Each side by its own index (an OR of the two read every case of the tenant); a case of one identity on
        // both sides once.
        `SELECT case_id AS caseId, kind, created_at AS at, score, profile_version AS profileVersion, job_id AS jobId FROM review_case
         WHERE tenant_id = ? AND left_identity_id = ?
         UNION ALL
         SELECT case_id AS caseId, kind, created_at AS at, score, profile_version AS profileVersion, job_id AS jobId FROM review_case
         WHERE tenant_id = ? AND right_identity_id = ? AND left_identity_id <> ?`,
      )
      .all(ctx.tenantId, identity.identityId, ctx.tenantId, identity.identityId, identity.identityId) as {
      caseId: string;
      kind: ReviewCase['kind'];
      at: string;
      score: number;
      profileVersion: number;
      jobId: string | null;
    }[];
    const decisionsOf = decisionsOfCases(
      store,
      ctx.tenantId,
      cases.map((c) => c.caseId),
    );
    for (const c of cases) {
      events.push({
        ...NO_EVENT_DETAIL,
        at: c.at,
        kind: 'review-case-opened',
        score: c.score,
        profileVersion: c.profileVersion,
        jobId: c.jobId,
        caseId: c.caseId,
        caseKind: c.kind,
      });
      for (const d of decisionsOf.get(c.caseId) ?? [])
        events.push({
          ...NO_EVENT_DETAIL,
          at: d.at,
          kind: 'review-decided',
          caseId: c.caseId,
          caseKind: c.kind,
          decision: d.decision,
          actor: d.actor,
        });
    }
    // Time order; at one instant, an arrival before the cases it opened.
    const rank = (kind: HistoryEvent['kind']): number =>
      [
        'identity-created',
        'record-linked',
        'record-joined',
        'record-updated',
        'canonical-rebuilt',
        'review-case-opened',
        'review-decided',
      ].indexOf(kind);
    events.sort((a, b) => a.at.localeCompare(b.at) || rank(a.kind) - rank(b.kind));
    // With values, the first records' fields, read for those records only.
    const shown = input.withValues === true ? links.slice(0, MAX_RECORDS_WITH_VALUES) : [];
    const stored = findRecords(store, ctx.tenantId, shown);
    return {
      enterpriseId: input.enterpriseId,
      version: identity.version,
      status: identity.status,
      createdAt: identity.createdAt,
      records: links.map((l) => {
        const fields = stored.get(l.sourceSystem)?.get(l.localId)?.fields;
        return {
          sourceSystem: l.sourceSystem,
          localId: l.localId,
          linkedAt: l.linkedAt,
          linkKind: l.linkKind,
          score: l.score,
          ...(fields === undefined ? {} : { fields: displayFieldsOf(fields) }),
        };
      }),
      events,
      recordsWithoutDetail,
      ...(input.withValues === true ? { canonical: canonicalOf(identity.canonicalJson) } : {}),
    };
  });
}

/**
 * The stored canonical record as the contract shows it. A field survivorship did not keep when the record was last
 * built (a record rebuilt before the field was kept) reads as missing; the optional fields stay absent.
 */
function canonicalOf(json: string): NonNullable<IdentityHistory['canonical']> {
  const stored = JSON.parse(json) as Partial<Omit<CanonicalRecord, 'fields'>> & { fields?: Partial<MatchFields> };
  return {
    fields: displayFieldsOf(stored.fields ?? {}),
    provenance: { ...stored.provenance },
    recordCount: stored.recordCount ?? 0,
  };
}

/** Stored fields as the contract shows them: a field kept only since a later version reads as missing. */
function displayFieldsOf(f: Partial<MatchFields>): DisplayFields {
  return {
    familyName: f.familyName ?? null,
    previousFamilyNames: [...(f.previousFamilyNames ?? [])],
    givenName: f.givenName ?? null,
    middleNames: f.middleNames ?? null,
    ...(f.generation === undefined ? {} : { generation: f.generation }),
    birthDate: f.birthDate ?? null,
    ...(f.partialBirthDate === undefined ? {} : { partialBirthDate: f.partialBirthDate }),
    ...(f.birthOrder === undefined ? {} : { birthOrder: f.birthOrder }),
    ...(f.multipleBirth === undefined ? {} : { multipleBirth: f.multipleBirth }),
    sex: f.sex ?? null,
    addressLine: f.addressLine ?? null,
    city: f.city ?? null,
    state: f.state ?? null,
    postalCode: f.postalCode ?? null,
    phone: f.phone ?? null,
    email: f.email ?? null,
    identifiers: (f.identifiers ?? []).map((i) => ({ system: i.system, value: i.value })),
  };
}
