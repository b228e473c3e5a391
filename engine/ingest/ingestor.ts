/**
 * Ingestion of R4 Patients from one source system. Per record: validate (nothing is written for a bad
 * record; a valid record whose birth date cannot be a person's is kept with a warning and the date ignored for
 * matching), find the local identifier, normalise, recognise a replay (receipt + payload digest), then either
 * update the known record or match the new one against candidates from blocking tags:
 *
 *   best candidate certain  ──► link to it (auto), rebuild its canonical record and tags
 *   best candidate probable ──► new identity + an IngestionMatch review case per probable candidate (≤ 3)
 *   otherwise               ──► new identity
 *
 * A record Certain against two candidates that are two people (a generation apart, the record without a birth date,
 * or decided different people by a reviewer: identities-apart.ts) is linked to neither: every Certain candidate is
 * held at Probable (IdentitiesApart), and the record becomes a new identity with a case about each.
 *
 * A candidate identity is scored by the pair of its records that is the strongest evidence, except where only a record
 * without a given name, family name or birth date agrees with one whose name part or birth date the identity's records
 * carrying it all disagree with (judged-member.ts). A review case needs a pair at Probable or above (review-gate.ts),
 * also for the other candidates of an auto-linked record.
 *
 * An updated record stays linked where it is (re-matching the population is reconciliation's job); its
 * identity's canonical record and tags are rebuilt, and when the update changed who the record describes and no
 * other record of the identity scores at Probable or above against its new fields, the identity becomes a LinkQuality
 * review case (reviewUpdatedLink). A version whose meta.lastUpdated is an earlier instant
 * than the stored one's is skipped as stale, so newer data is never overwritten. Ingestion is not a job:
 * it runs in the caller's process.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import type { MatchFields } from '../contract/fields.ts';
import { holdsIdentity } from '../contract/matching.ts';
import { reviewHoldKey, type ReviewHoldKey } from '../contract/health.ts';
import { MAX_IDENTITY_RECORDS } from '../contract/link-quality.ts';
import { EngineError, isStorageError, validationError } from '../contract/errors.ts';
import type { Settings } from '../config/settings.ts';
import { isFutureInstant } from '../fhir/patient.ts';
import { compareInstants } from '../fhir/instant.ts';
import { blockingTags, type BlockingTag, type KeyRing } from '../blocking/tags.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { createScorer, type PairOutcome, type Scorer } from '../scoring/scorer.ts';
import { compareOutcomes } from '../scoring/stronger-outcome.ts';
import { bareRecordHold, judgedMember, memberPair } from './judged-member.ts';
import { newScratch } from '../scoring/field-comparison.ts';
import { storedTermFrequencies } from '../store/term-frequency.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { activeProfile, type StoredProfile } from '../store/profiles.ts';
import {
  candidateMembers,
  findRecord,
  hasReceipt,
  insertReceipt,
  insertRecord,
  updateRecord,
  type CandidateMember,
  type RecordWrite,
} from '../store/records.ts';
import { getIdentity, identityOfRecord, identityVersions, insertIdentity, linkRecord } from '../store/identities.ts';
import { addTags } from '../store/tags.ts';
import { rebuildCanonical, retagIdentity } from './identity-rebuild.ts';
import { decidedDistinct, insertReviewCase } from '../store/reviews.ts';
import { recordIdentityEvent } from '../store/identity-events.ts';
import type { ChunkWrites } from './chunk-writes.ts';
import { requireTenant } from '../store/tenants.ts';
import { buildCanonical } from './survivorship.ts';
import { MAX_COMPARED_RECORDS_PER_IDENTITY, findCandidates } from './candidates.ts';
import { MatchingTally } from './matching-tally.ts';
import { PreparedCache } from './prepared-cache.ts';
import { RecordPreparer, type PreparedResource } from './record-preparer.ts';
import { refusalOf } from './refusal.ts';
import { reviewCaseId } from './review-case-id.ts';
import { doubtOf, judgeIdentity } from './identity-judgement.ts';
import { openLinkCase } from './link-case.ts';
import { opensReviewCase } from './review-gate.ts';
import { fitsIdentitiesApart, identitiesApartOutcome } from './identities-apart.ts';
import { recordsAfterLoad, type LoadSize } from './load-size.ts';

export const MAX_REVIEW_CASES_PER_RECORD = 3;

const NO_HOLDS: readonly ReviewHoldKey[] = [];
const LINK_QUALITY: readonly ReviewHoldKey[] = ['link-quality'];

/** reviewCases: the review cases the record opened; holds: what held each of them (contract/health.ts). */
export type RecordOutcome =
  | {
      readonly kind: 'created';
      readonly linked: 'auto-linked' | 'new-identity';
      readonly reviewCases: number;
      readonly holds: readonly ReviewHoldKey[];
    }
  /** reviewCases: 1 when the update left the record apart from the rest of its identity (a LinkQuality case). */
  | { readonly kind: 'updated'; readonly reviewCases: number; readonly holds: readonly ReviewHoldKey[] }
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'stale' }
  | { readonly kind: 'rejected'; readonly issues: readonly ErrorIssue[] };

interface Scored {
  readonly identityId: number;
  readonly outcome: PairOutcome;
  readonly left: PreparedRecord;
  readonly right: PreparedRecord;
  /** The candidate identity's records compared, with their prepared fields, reused to rebuild it on an auto-link. */
  readonly members: readonly { readonly row: CandidateMember; readonly prepared: PreparedRecord }[];
  /** False when the identity has more records than were compared (MAX_COMPARED_RECORDS_PER_IDENTITY). */
  readonly allMembers: boolean;
}

/**
 * Whether an update changed who the record describes: its family or given name, birth date or sex. A new address,
 * phone or e-mail alone does not (people move), though it can leave a weakly linked record apart: a new phone on each
 * of 11,001 records of a synthetic clinic left 94 so, which the link-quality scan finds as it finds every weak link.
 */
function describesAnother(before: MatchFields, after: MatchFields): boolean {
  return (
    before.familyName !== after.familyName ||
    before.givenName !== after.givenName ||
    before.birthDate !== after.birthDate ||
    before.partialBirthDate !== after.partialBirthDate ||
    before.sex !== after.sex
  );
}

export class Ingestor {
  readonly profile: StoredProfile;
  /** The scorer of the load (judgeLoad replaces it). */
  private loadScorer: Scorer;
  /** What matching met, for the ingest's health figures. */
  readonly tally: MatchingTally;
  readonly sourceSystem: string;
  private readonly ring: KeyRing;
  private readonly trustOrder: string[];
  private cache: PreparedCache;
  /** Field similarities of the pair scored last (scoreCandidates reads each pair's name similarities from it). */
  private readonly scratch = newScratch();
  /** The database-free work on a resource, with the tenant's source entry, blocking rules and keys. */
  readonly preparer: RecordPreparer;

  constructor(
    private readonly store: Store,
    readonly tenantId: string,
    sourceSystem: string,
    settings: Settings,
    /** The job this ingestion runs in (a reconciliation's import), named on the review cases it opens. */
    private readonly jobId: string | null = null,
    /** What the caller knows of the load's size: its pairs are judged at the size it brings the registry to. */
    load: LoadSize = {},
  ) {
    requireTenant(store, tenantId);
    this.profile = activeProfile(store, tenantId);
    const source = this.profile.profile.SourceTrust.find((s) => s.SourceSystem === sourceSystem);
    if (source === undefined) {
      throw validationError(
        `source system "${sourceSystem}" is not configured in the tenant's SourceTrust; add it to the matching profile first`,
      );
    }
    this.sourceSystem = source.SourceSystem;
    this.ring = keyRingFor(this.profile.profile.Blocking, settings, tenantId);
    this.preparer = new RecordPreparer({ source, blocking: this.profile.profile.Blocking, ring: this.ring });
    this.trustOrder = this.profile.profile.SourceTrust.map((s) => s.SourceSystem);
    this.loadScorer = this.scorerFor(load);
    this.cache = this.newCache();
    this.tally = new MatchingTally(this.profile.profile.Blocking.Rules.map((r) => r.Name));
  }

  get scorer(): Scorer {
    return this.loadScorer;
  }

  /** The tenant's scorer, judging pairs at the size the load brings the registry to (ingest/load-size.ts). */
  private scorerFor(load: LoadSize): Scorer {
    return createScorer(this.profile.profile, storedTermFrequencies(this.store, this.tenantId), {
      registryRecordsAtLeast: recordsAfterLoad(this.store, this.tenantId, this.sourceSystem, load),
    });
  }

  /**
   * Judges the rest of the load at the size it brings the registry to, learnt once it has started (an import's first
   * page says how many Patients its search holds). Prepared records are forgotten with the scorer that prepared them.
   */
  judgeLoad(load: LoadSize): void {
    this.loadScorer = this.scorerFor(load);
    this.cache = this.newCache();
  }

  /** Forgets prepared records: after a rollback, record IDs can be reused by different rows. */
  discardCaches(): void {
    this.cache = this.newCache();
  }

  /**
   * Candidates' records are prepared without their name counts: each is compared only with the record being
   * ingested, prepared now, whose reading of the counts is the fresher one scoring takes. At a million records,
   * where most candidates are no longer cached, reading their counts was 8% of ingestion's time.
   */
  private newCache(): PreparedCache {
    return new PreparedCache(this.scorer, undefined, false);
  }

  /** The database-free work on one resource (record-preparer.ts): callers run it before taking the write lock. */
  prepareResource(resource: unknown, resourceJson: string): PreparedResource {
    return this.preparer.prepareResource(resource, resourceJson);
  }

  /**
   * Ingests a prepared resource; runs inside the caller's write transaction. Isolated, it runs in its own
   * savepoint and any failure of its writes rejects this record alone (named `record`, by the error's code,
   * never its text, which can quote values) with nothing written for it; not isolated, a failure throws and
   * the caller rolls back its whole transaction and replays isolated. Not isolated, given the chunk's shared reads
   * and deferred rows (chunk-writes.ts), the record is looked up among the chunk's and its rows that nothing reads
   * back during the chunk go with the chunk's others: the caller flushes them before its transaction commits.
   */
  apply(prepared: PreparedResource, at: string, isolated: boolean, chunk?: ChunkWrites): RecordOutcome {
    if (prepared.kind === 'rejected') return prepared;
    if (!isolated) return this.write(prepared.write, prepared.tags, at, chunk);
    const inTransaction = (): boolean => this.store.inTransaction;
    const outer = inTransaction();
    try {
      return this.store.write(() => this.write(prepared.write, prepared.tags, at));
    } catch (error) {
      // SQLite rolls back the whole transaction on some errors (disk full, I/O): nothing is left to go on in. A
      // failure of the database's storage would refuse every record after this one too: the work stops and says why.
      if ((outer && !inTransaction()) || isStorageError(error)) throw error;
      return { kind: 'rejected', issues: [{ path: 'record', message: refusalOf(error) }] };
    }
  }

  /** Validates and ingests one resource (prepare, then apply). */
  ingestResource(
    resource: unknown,
    resourceJson: string,
    at = new Date().toISOString(),
    isolated = true,
  ): RecordOutcome {
    return this.apply(this.prepareResource(resource, resourceJson), at, isolated);
  }

  private write(
    write: RecordWrite,
    preparedTags: readonly BlockingTag[] | undefined,
    at: string,
    chunk?: ChunkWrites,
  ): RecordOutcome {
    const { store, tenantId } = this;
    if (chunk !== undefined && chunk.tenantId !== tenantId)
      throw new EngineError('internal', "a chunk of another tenant's records was given to this ingestion");
    const deferred = chunk?.rows;
    const existing =
      chunk === undefined
        ? findRecord(store, tenantId, write.sourceSystem, write.localId)
        : chunk.findRecord(write.sourceSystem, write.localId);
    if (existing !== undefined) {
      // A receipt can only exist for a record that exists: records are never deleted.
      if (existing.payloadDigest === write.payloadDigest) return { kind: 'unchanged' };
      // Its receipts and resource may be among the chunk's deferred rows: written first, then read and updated.
      deferred?.flush();
      if (hasReceipt(store, tenantId, write.sourceSystem, write.localId, write.payloadDigest))
        return { kind: 'unchanged' };
      // A stored instant beyond now (kept before such instants were refused for ordering) decides nothing either.
      const stored =
        existing.sourceLastUpdated !== null && !isFutureInstant(existing.sourceLastUpdated, Date.parse(at))
          ? existing.sourceLastUpdated
          : null;
      if (stored !== null && write.sourceLastUpdated !== null && compareInstants(write.sourceLastUpdated, stored) < 0) {
        return { kind: 'stale' };
      }
      updateRecord(store, tenantId, existing.recordId, existing.version, write, at);
      const identityId = identityOfRecord(store, tenantId, existing.recordId);
      let holds: readonly ReviewHoldKey[] = NO_HOLDS;
      if (identityId !== undefined) {
        this.rebuildIdentity(identityId, at);
        if (
          describesAnother(existing.fields, write.fields) &&
          this.reviewUpdatedLink(identityId, existing.recordId, at)
        )
          holds = LINK_QUALITY;
        recordIdentityEvent(
          store,
          tenantId,
          {
            identityId,
            recordId: existing.recordId,
            kind: 'record-updated',
            profileVersion: this.profile.version,
            jobId: this.jobId,
          },
          at,
          deferred,
        );
      }
      insertReceipt(store, tenantId, write, 'updated', at, deferred);
      return { kind: 'updated', reviewCases: holds.length, holds };
    }
    const recordId = insertRecord(store, tenantId, write, at, deferred);
    const prepared = this.scorer.prepare(write.fields);
    const tags = preparedTags ?? blockingTags(write.fields, this.profile.profile.Blocking, this.ring);
    const candidates = findCandidates(store, tenantId, tags);
    const scored = this.holdIdentitiesApart(prepared, this.scoreCandidates(prepared, candidates.identities));
    this.tally.candidates(tags, candidates.blockSizes, candidates.found);
    for (const candidate of scored) this.tally.scored(candidate.outcome.score);
    const best = scored[0];
    let identityId: number;
    let linked: 'auto-linked' | 'new-identity';
    let reviewCandidates: Scored[];
    if (best?.outcome.decision === 'certain') {
      identityId = best.identityId;
      linkRecord(store, tenantId, recordId, identityId, 'auto', best.outcome.score, at);
      if (best.allMembers) {
        rebuildCanonical(store, tenantId, identityId, this.trustOrder, at, [
          ...best.members.map((m) => ({ ...m.row, fields: m.prepared.fields })),
          { recordId, ...write },
        ]);
      } else {
        rebuildCanonical(store, tenantId, identityId, this.trustOrder, at);
      }
      // Only the tags the identity does not hold yet: most of a linked record's tags are shared by definition.
      const held = new Set(candidates.held.get(identityId) ?? []);
      addTags(
        store,
        tenantId,
        identityId,
        tags.filter((_, index) => !held.has(index)),
      );
      linked = 'auto-linked';
      reviewCandidates = scored.slice(1);
    } else {
      identityId = insertIdentity(
        store,
        tenantId,
        randomUUID(),
        buildCanonical([{ recordId, ...write }], this.trustOrder),
        at,
      );
      linkRecord(store, tenantId, recordId, identityId, 'auto', null, at);
      addTags(store, tenantId, identityId, tags);
      linked = 'new-identity';
      reviewCandidates = scored;
    }
    const holds: ReviewHoldKey[] = [];
    const probable = this.profile.profile.MatchingRules.Thresholds.Probable;
    // The records of the identity the arriving record is now in, for a case's BareRecord hold (judged-member.ts);
    // gathered only for a Certain candidate the record was not linked to.
    const own = (): readonly PreparedRecord[] =>
      linked === 'auto-linked' && best !== undefined ? [...best.members.map((m) => m.prepared), prepared] : [prepared];
    // Best first, so the first candidate below Probable ends the list.
    for (const candidate of reviewCandidates) {
      if (holds.length >= MAX_REVIEW_CASES_PER_RECORD || !opensReviewCase(candidate.outcome, probable)) break;
      const hold = this.openReviewCase(identityId, own, candidate, at);
      if (hold !== null) holds.push(hold);
    }
    recordIdentityEvent(
      store,
      tenantId,
      {
        identityId,
        recordId,
        kind: linked === 'auto-linked' ? 'record-joined' : 'identity-created',
        // How an auto-link was decided; a new identity records its best candidate's score (below Certain), if any.
        decidedBy:
          linked === 'auto-linked'
            ? best?.outcome.decidedBy === 'trusted-identifier'
              ? 'trusted-identifier'
              : 'score'
            : null,
        score: best?.outcome.score ?? null,
        profileVersion: this.profile.version,
        jobId: this.jobId,
        reviewCases: holds.length,
      },
      at,
      deferred,
    );
    insertReceipt(store, tenantId, write, 'created', at, deferred);
    return { kind: 'created', linked, reviewCases: holds.length, holds };
  }

  /** The outcome each candidate identity is judged on (over its source records: judged-member.ts), best first. */
  private scoreCandidates(prepared: PreparedRecord, identities: readonly number[]): Scored[] {
    const scored: Scored[] = [];
    const byIdentity = candidateMembers(this.store, this.tenantId, identities, MAX_COMPARED_RECORDS_PER_IDENTITY + 1);
    for (const identityId of identities) {
      const rows = byIdentity.get(identityId) ?? [];
      const allMembers = rows.length <= MAX_COMPARED_RECORDS_PER_IDENTITY;
      const members = rows
        .slice(0, MAX_COMPARED_RECORDS_PER_IDENTITY)
        .map((row) => ({ row, prepared: this.cache.get(row) }));
      const pairs = members.map(({ prepared: right }) => ({
        ...memberPair(this.scorer, prepared, right, this.scratch),
        identityId,
        left: prepared,
        members,
        allMembers,
      }));
      const judged = judgedMember(prepared, pairs, this.profile.profile.MatchingRules.Thresholds.Probable);
      if (judged !== undefined) scored.push(judged);
    }
    return scored.sort((a, b) => compareOutcomes(a.outcome, b.outcome) || a.identityId - b.identityId);
  }

  /**
   * The candidates, with every Certain one held at the Probable threshold (IdentitiesApart) when the arriving record
   * fits two of them that are two people (identities-apart.ts): it is not linked, and a case asks about each.
   */
  private holdIdentitiesApart(prepared: PreparedRecord, scored: Scored[]): Scored[] {
    // Best first, a Certain candidate before any other (stronger-outcome.ts): most records have no second Certain one,
    // and leave here without another pass over their candidates.
    if (scored[1]?.outcome.decision !== 'certain') return scored;
    const certain = scored.filter((c) => c.outcome.decision === 'certain');
    if (certain.some((c) => c.outcome.decidedBy === 'trusted-identifier')) return scored;
    const births = (c: Scored): (string | null)[] => c.members.map((m) => m.prepared.birthDigits);
    const apart = certain.some((a, i) =>
      certain
        .slice(i + 1)
        .some((b) =>
          fitsIdentitiesApart(prepared.birthDigits, births(a), births(b), () =>
            decidedDistinct(this.store, this.tenantId, a.identityId, b.identityId),
          ),
        ),
    );
    if (!apart) return scored;
    const probable = this.profile.profile.MatchingRules.Thresholds.Probable;
    return scored.map((c) =>
      c.outcome.decision === 'certain'
        ? {
            ...c,
            outcome: identitiesApartOutcome(probable, c.outcome.score),
          }
        : c,
    );
  }

  /**
   * own: the records of the arriving record's identity (identityId), the arriving record among them. What held the
   * case when one was opened (contract/health.ts), else null.
   */
  private openReviewCase(
    identityId: number,
    own: () => readonly PreparedRecord[],
    candidate: Scored,
    at: string,
  ): ReviewHoldKey | null {
    if (candidate.identityId === identityId) return null;
    const a = getIdentity(this.store, this.tenantId, identityId);
    const b = getIdentity(this.store, this.tenantId, candidate.identityId);
    const [left, right] = a.identityId < b.identityId ? [a, b] : [b, a];
    // A pair a reviewer decided are different people is not asked again while neither identity's records changed.
    if (decidedDistinct(this.store, this.tenantId, left.identityId, right.identityId)) return null;
    const kind = 'IngestionMatch';
    const explained = this.scorer.explain(candidate.left, candidate.right);
    // A hold on an identity, not the pair (judged-member.ts, identities-apart.ts): the candidate's own, or, for a
    // Certain candidate the arriving record was not linked to, the arriving record's identity's when the record lacks
    // a name part or birth date.
    const hold =
      candidate.outcome.limitedBy !== undefined && holdsIdentity(candidate.outcome.limitedBy)
        ? candidate.outcome
        : candidate.outcome.decision === 'certain'
          ? bareRecordHold(
              this.scorer,
              { record: candidate.left, identity: own() },
              { record: candidate.right, identity: candidate.members.map((m) => m.prepared) },
              this.profile.profile.MatchingRules.Thresholds.Probable,
              this.scratch,
            )
          : undefined;
    const judged = hold ?? candidate.outcome;
    const limitedBy = (hold ?? explained).limitedBy ?? null;
    const opened = insertReviewCase(
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
        score: judged.score,
        decision: judged.decision === 'certain' ? 'certain' : 'probable',
        evidence: explained.evidence,
        limitedBy,
        heldFrom: (hold ?? explained).heldFrom ?? null,
        twinReason: explained.twinReason ?? null,
        jobId: this.jobId,
        sourceSystem: this.sourceSystem,
      },
      at,
    );
    return opened ? reviewHoldKey(kind, limitedBy) : null;
  }

  /**
   * An update that changed who the record describes (describesAnother) and leaves it apart from the rest of its
   * identity: no other record of the identity scores at Probable or above against its new fields (a source that
   * corrected a registration made under the wrong patient, or reused a medical record number for another person).
   * The record stays linked, as every update does (unlinking is a reviewer's decision), and the identity becomes a
   * LinkQuality review case, judged as the link-quality scan judges it (identity-judgement.ts), so the two people it
   * may now hold are not left together unseen. True when a case was opened (not when one about the identity at this
   * version is open or decided already).
   */
  private reviewUpdatedLink(identityId: number, recordId: number, at: string): boolean {
    const { store, tenantId } = this;
    const rows = candidateMembers(store, tenantId, [identityId], MAX_IDENTITY_RECORDS + 1).get(identityId) ?? [];
    // Prepared with their name counts, as the scan prepares them: at most MAX_IDENTITY_RECORDS, usually two or three.
    const members = rows
      .slice(0, MAX_IDENTITY_RECORDS)
      .map((member) => ({ member, prepared: this.scorer.prepare(JSON.parse(member.fieldsJson) as MatchFields) }));
    const updated = members.find((m) => m.member.recordId === recordId);
    // A record beyond the first MAX_IDENTITY_RECORDS is the scan's to judge (too-large).
    if (updated === undefined || members.length < 2) return false;
    const probable = this.profile.profile.MatchingRules.Thresholds.Probable;
    for (const other of members)
      if (other !== updated && this.scorer.outcome(updated.prepared, other.prepared).score >= probable) return false;
    const judged = judgeIdentity(this.scorer, members, rows.length, MAX_IDENTITY_RECORDS, probable);
    const weakest = judged.weakest;
    const pair = weakest === null ? undefined : [members[weakest.a], members[weakest.b]];
    const identity = { identityId, ...identityVersions(store, tenantId, identityId) };
    return openLinkCase(
      store,
      tenantId,
      {
        identity,
        score: weakest?.score ?? 0,
        doubt: doubtOf(judged.flags, judged.groups),
        evidence:
          pair?.[0] === undefined || pair[1] === undefined
            ? []
            : this.scorer.explain(pair[0].prepared, pair[1].prepared).evidence,
        jobId: this.jobId,
        sourceSystem: this.sourceSystem,
      },
      this.profile.version,
      at,
    );
  }

  /** Rebuilds an updated record's identity: its canonical record (version-checked) and all its tags. */
  private rebuildIdentity(identityId: number, at: string): void {
    rebuildCanonical(this.store, this.tenantId, identityId, this.trustOrder, at);
    retagIdentity(this.store, this.tenantId, identityId, this.profile.profile.Blocking, this.ring);
  }
}
