/**
 * Ingestion of R4 Patients from one source system. Per record: validate (nothing is written for a bad
 * record), find the local identifier, normalise, recognise a replay (receipt + payload digest), then either
 * update the known record or match the new one against candidates from blocking tags:
 *
 *   best candidate certain  ──► link to it (auto), rebuild its canonical record and tags
 *   best candidate probable ──► new identity + an IngestionMatch review case per probable candidate (≤ 3)
 *   otherwise               ──► new identity
 *
 * An updated record stays linked where it is (re-matching the population is reconciliation's job); its
 * identity's canonical record and tags are rebuilt. A version older than the stored one is skipped as
 * stale, so newer data is never overwritten. Ingestion is not a job: it runs in the caller's process.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/db.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import { isEngineError, validationError } from '../contract/errors.ts';
import type { SourceTrustEntry } from '../contract/profile.ts';
import type { Settings } from '../config/settings.ts';
import { validatePatient } from '../fhir/patient.ts';
import { localIdentifierOf } from '../fhir/local-id.ts';
import { matchFieldsOf } from '../normalise/record.ts';
import { blockingTags, type KeyRing } from '../blocking/tags.ts';
import { keyRingFor } from '../blocking/key-ring.ts';
import { createScorer, type PairOutcome, type Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { activeProfile, type StoredProfile } from '../store/profiles.ts';
import { candidateRowsOfIdentity, findRecord, hasReceipt, insertReceipt, insertRecord, updateRecord, type CandidateRecordRow, type RecordWrite } from '../store/records.ts';
import { getIdentity, identityOfRecord, insertIdentity, linkRecord } from '../store/identities.ts';
import { addTags } from '../store/tags.ts';
import { rebuildCanonical, retagIdentity } from './identity-rebuild.ts';
import { insertReviewCase } from '../store/reviews.ts';
import { requireTenant } from '../store/tenants.ts';
import { buildCanonical } from './survivorship.ts';
import { findCandidates } from './candidates.ts';
import { PreparedCache } from './prepared-cache.ts';
import { payloadDigest } from './payload-digest.ts';
import { reviewCaseId } from './review-case-id.ts';

export const MAX_REVIEW_CASES_PER_RECORD = 3;

export type RecordOutcome =
  | { readonly kind: 'created'; readonly linked: 'auto-linked' | 'new-identity'; readonly reviewCases: number }
  | { readonly kind: 'updated' }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'rejected'; readonly issues: readonly ErrorIssue[] };

interface Scored {
  readonly identityId: number;
  readonly outcome: PairOutcome;
  readonly left: PreparedRecord;
  readonly right: PreparedRecord;
  /** The candidate identity's records with their prepared fields, reused to rebuild it on an auto-link. */
  readonly members: readonly { readonly row: CandidateRecordRow; readonly prepared: PreparedRecord }[];
}

export class Ingestor {
  readonly profile: StoredProfile;
  readonly scorer: Scorer;
  readonly sourceSystem: string;
  private readonly source: SourceTrustEntry;
  private readonly ring: KeyRing;
  private readonly trustOrder: string[];
  private cache: PreparedCache;

  constructor(
    private readonly store: Store,
    private readonly tenantId: string,
    sourceSystem: string,
    settings: Settings,
  ) {
    requireTenant(store, tenantId);
    this.profile = activeProfile(store, tenantId);
    const source = this.profile.profile.SourceTrust.find((s) => s.SourceSystem === sourceSystem);
    if (source === undefined) {
      throw validationError(`source system "${sourceSystem}" is not configured in the tenant's SourceTrust; add it to the matching profile first`);
    }
    this.source = source;
    this.sourceSystem = source.SourceSystem;
    this.ring = keyRingFor(this.profile.profile.Blocking, settings, tenantId);
    this.trustOrder = this.profile.profile.SourceTrust.map((s) => s.SourceSystem);
    this.scorer = createScorer(this.profile.profile);
    this.cache = new PreparedCache(this.scorer);
  }

  /** Forgets prepared records: after a rollback, record IDs can be reused by different rows. */
  discardCaches(): void {
    this.cache = new PreparedCache(this.scorer);
  }

  /**
   * Validates and ingests one resource. Isolated (the default), it runs in its own savepoint and a failure
   * writes nothing for it; not isolated, a failure throws and the caller rolls back its whole transaction.
   */
  ingestResource(resource: unknown, resourceJson: string, at = new Date().toISOString(), isolated = true): RecordOutcome {
    const validation = validatePatient(resource);
    if (!validation.ok) return { kind: 'rejected', issues: validation.issues };
    const local = localIdentifierOf(validation.patient, this.source.LocalIdentifierSystem);
    if (!local.ok) return { kind: 'rejected', issues: [local.issue] };
    const fields = matchFieldsOf(validation.patient, { localIdentifierSystem: this.source.LocalIdentifierSystem });
    const write: RecordWrite = {
      sourceSystem: this.source.SourceSystem,
      localId: local.localId,
      resourceJson,
      fields,
      payloadDigest: payloadDigest(resource),
      sourceLastUpdated: validation.patient.meta?.lastUpdated ?? null,
    };
    if (!isolated) return this.apply(write, at);
    try {
      return this.store.write(() => this.apply(write, at));
    } catch (error) {
      if (isEngineError(error)) return { kind: 'rejected', issues: [{ path: 'record', message: error.message }] };
      throw error;
    }
  }

  private apply(write: RecordWrite, at: string): RecordOutcome {
    const { store, tenantId } = this;
    const existing = findRecord(store, tenantId, write.sourceSystem, write.localId);
    if (existing !== undefined) {
      // A receipt can only exist for a record that exists: records are never deleted.
      if (existing.payloadDigest === write.payloadDigest) return { kind: 'unchanged' };
      if (hasReceipt(store, tenantId, write.sourceSystem, write.localId, write.payloadDigest)) return { kind: 'unchanged' };
      if (existing.sourceLastUpdated !== null && write.sourceLastUpdated !== null && write.sourceLastUpdated < existing.sourceLastUpdated) {
        return { kind: 'stale' };
      }
      updateRecord(store, tenantId, existing.recordId, existing.version, write, at);
      const identityId = identityOfRecord(store, tenantId, existing.recordId);
      if (identityId !== undefined) this.rebuildIdentity(identityId, at);
      insertReceipt(store, tenantId, write, 'updated', at);
      return { kind: 'updated' };
    }
    const recordId = insertRecord(store, tenantId, write, at);
    const prepared = this.scorer.prepare(write.fields);
    const tags = blockingTags(write.fields, this.profile.profile.Blocking, this.ring);
    const candidates = findCandidates(store, tenantId, tags);
    const scored = this.scoreCandidates(prepared, candidates.identities);
    const best = scored[0];
    let identityId: number;
    let linked: 'auto-linked' | 'new-identity';
    let reviewCandidates: Scored[];
    if (best?.outcome.decision === 'certain') {
      identityId = best.identityId;
      linkRecord(store, tenantId, recordId, identityId, 'auto', best.outcome.score, at);
      const survivors = [...best.members.map((m) => ({ ...m.row, fields: m.prepared.fields })), { recordId, ...write }];
      rebuildCanonical(store, tenantId, identityId, this.trustOrder, at, survivors);
      // Only the tags the identity does not hold yet: most of a linked record's tags are shared by definition.
      const held = new Set(candidates.held.get(identityId) ?? []);
      addTags(store, tenantId, identityId, tags.filter((_, index) => !held.has(index)));
      linked = 'auto-linked';
      reviewCandidates = scored.slice(1);
    } else {
      identityId = insertIdentity(store, tenantId, randomUUID(), buildCanonical([{ recordId, ...write }], this.trustOrder), at);
      linkRecord(store, tenantId, recordId, identityId, 'auto', null, at);
      addTags(store, tenantId, identityId, tags);
      linked = 'new-identity';
      reviewCandidates = scored;
    }
    let reviewCases = 0;
    for (const candidate of reviewCandidates) {
      if (reviewCases >= MAX_REVIEW_CASES_PER_RECORD || candidate.outcome.decision === 'no-match') break;
      if (this.openReviewCase(identityId, candidate, at)) reviewCases++;
    }
    insertReceipt(store, tenantId, write, 'created', at);
    return { kind: 'created', linked, reviewCases };
  }

  /** Best outcome per candidate identity (over its source records), best first. */
  private scoreCandidates(prepared: PreparedRecord, identities: readonly number[]): Scored[] {
    const scored: Scored[] = [];
    for (const identityId of identities) {
      const members = candidateRowsOfIdentity(this.store, this.tenantId, identityId).map((row) => ({ row, prepared: this.cache.get(row) }));
      let best: Scored | undefined;
      for (const { prepared: right } of members) {
        const outcome = this.scorer.outcome(prepared, right);
        if (best === undefined || outcome.score > best.outcome.score) best = { identityId, outcome, left: prepared, right, members };
      }
      if (best !== undefined) scored.push(best);
    }
    return scored.sort((a, b) => b.outcome.score - a.outcome.score || a.identityId - b.identityId);
  }

  private openReviewCase(identityId: number, candidate: Scored, at: string): boolean {
    if (candidate.identityId === identityId) return false;
    const a = getIdentity(this.store, this.tenantId, identityId);
    const b = getIdentity(this.store, this.tenantId, candidate.identityId);
    const [left, right] = a.identityId < b.identityId ? [a, b] : [b, a];
    const kind = 'IngestionMatch';
    const explained = this.scorer.explain(candidate.left, candidate.right);
    return insertReviewCase(
      this.store,
      this.tenantId,
      {
        caseId: reviewCaseId(this.tenantId, kind, left, right, this.profile.version),
        kind,
        leftIdentityId: left.identityId,
        leftVersion: left.version,
        rightIdentityId: right.identityId,
        rightVersion: right.version,
        profileVersion: this.profile.version,
        score: candidate.outcome.score,
        decision: candidate.outcome.decision === 'certain' ? 'certain' : 'probable',
        evidence: explained.evidence,
      },
      at,
    );
  }

  /** Rebuilds an updated record's identity: its canonical record (version-checked) and all its tags. */
  private rebuildIdentity(identityId: number, at: string): void {
    rebuildCanonical(this.store, this.tenantId, identityId, this.trustOrder, at);
    retagIdentity(this.store, this.tenantId, identityId, this.profile.profile.Blocking, this.ring);
  }
}
