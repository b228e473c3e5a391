/**
 * Registry-only population reconciliation. It never links two existing identities: probable or certain
 * duplicates become review cases for a person to decide.
 *
 * Rebuilding: each active identity's canonical record is rebuilt from its linked source records by
 * survivorship (SourceTrust order) and written, version-checked, only when it changed. Missing or
 * inconsistent provenance (an identity with no linked record, a field whose provenance names a record that is
 * no longer linked, a record count that disagrees) is a warning; nothing is deleted or unlinked, and an
 * identity without records keeps its canonical record.
 * Matching: each active identity is scored against its blocking candidates with a higher identity_id (every
 * unordered pair once; bounded by MAX_BLOCK_SIZE and MAX_CANDIDATES as in ingestion), taking the best
 * outcome over their source-record pairs, a Certain one held at Probable where ingestion would hold it
 * (BareRecord, judged-member.ts; IdentitiesApart, reconcile-apart.ts). A probable or certain pair becomes a
 * `PopulationReconciliation` review case whose ID is a digest of the tenant, both identity versions and the profile
 * version, inserted unless one with that ID is there (store/reviews.ts insertReviewCase): retries and overlapping
 * workers never create duplicates.
 */
import type { Store } from '../store/store.ts';
import type { FieldEvidence, ScoreLimit, TwinReason } from '../contract/matching.ts';
import { buildCanonical, type CanonicalRecord } from '../ingest/survivorship.ts';
import { MAX_BLOCK_SIZE, MAX_COMPARED_RECORDS_PER_IDENTITY, rankCandidates } from '../ingest/candidates.ts';
import { PreparedCache } from '../ingest/prepared-cache.ts';
import { reviewCaseId } from '../ingest/review-case-id.ts';
import { opensReviewCase } from '../ingest/review-gate.ts';
import { bareRecordHold } from '../ingest/judged-member.ts';
import { IdentitiesApartCheck } from './reconcile-apart.ts';
import { newScratch } from '../scoring/field-comparison.ts';
import { createScorer, type PairOutcome } from '../scoring/scorer.ts';
import { strongestPair } from '../scoring/stronger-outcome.ts';
import { storedTermFrequencies } from '../store/term-frequency.ts';
import { rememberedTermFrequencies } from '../scoring/term-frequency.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { updateCanonical } from '../store/identities.ts';
import { candidateMembers, type SourceRecord } from '../store/records.ts';
import { decidedDistinct, hasOpenCaseFor, insertReviewCase } from '../store/reviews.ts';
import { recordIdentityEvent } from '../store/identity-events.ts';
import { DeferredRows } from '../store/deferred-rows.ts';
import { identitiesWithTags, tagsOfIdentity } from '../store/tags.ts';
import { LaterTagFilter } from './later-tags.ts';
import {
  activeIdentitiesAfter,
  activeIdentityKeysAfter,
  expectIdentityVersions,
  identityKeys,
  recordsOf,
  storedTagsOf,
  type IdentityHead,
  type IdentityKey,
} from './population.ts';
import type { BatchPlan, JobContext, PhaseWork } from './phase-work.ts';
import type { PhaseNote } from './job-store.ts';

const REVIEW_KIND = 'PopulationReconciliation';
const PREPARED_CACHE_RECORDS = 250_000;

/** True when the stored canonical record's provenance does not describe the linked records. */
function provenanceInconsistent(canonicalJson: string, records: readonly SourceRecord[]): boolean {
  let stored: CanonicalRecord;
  try {
    stored = JSON.parse(canonicalJson) as CanonicalRecord;
  } catch {
    return true;
  }
  if (typeof stored !== 'object' || typeof stored.fields !== 'object' || typeof stored.provenance !== 'object')
    return true;
  if (stored.recordCount !== records.length) return true;
  const linked = new Set(records.map((r) => `${r.sourceSystem}/${r.localId}`));
  const fields = stored.fields as unknown as Record<string, unknown>;
  const provenance = stored.provenance as Record<string, string | undefined>;
  for (const [field, source] of Object.entries(provenance)) {
    if (source === undefined || !linked.has(source)) return true;
    if (fields[field] === null || fields[field] === undefined) return true;
  }
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'previousFamilyNames' || field === 'identifiers') continue;
    if (value !== null && provenance[field] === undefined) return true;
  }
  return false;
}

export function reconcileRebuilding(ctx: JobContext): PhaseWork {
  const trustOrder = ctx.profile.profile.SourceTrust.map((s) => s.SourceSystem);
  return {
    readBatch(cursor, batchSize): BatchPlan | null {
      const batch = activeIdentitiesAfter(ctx.store, ctx.tenantId, cursor, batchSize);
      const last = batch.at(-1);
      if (last === undefined) return null;
      // Each identity with its rebuilt canonical record as JSON, or null when it is kept as it was.
      const rebuilt: { identity: IdentityHead; canonicalJson: string | null }[] = [];
      let warning = 0;
      let updated = 0;
      const notes: PhaseNote[] = [];
      const recordsByIdentity = recordsOf(ctx.store, ctx.tenantId, batch);
      for (const identity of batch) {
        const records = recordsByIdentity.get(identity.identityId) ?? [];
        if (records.length === 0) {
          warning++;
          notes.push({
            text: `identity with no linked source record kept as it was: enterprise ID ${identity.enterpriseId}`,
          });
          rebuilt.push({ identity, canonicalJson: null });
          continue;
        }
        const canonicalJson = JSON.stringify(buildCanonical(records, trustOrder));
        const changed = canonicalJson !== identity.canonicalJson;
        // A stored record that survivorship builds as it is from the linked records describes them by construction:
        // only one that changes is parsed and checked (a reconciliation with no change parsed every one).
        if (changed && provenanceInconsistent(identity.canonicalJson, records)) {
          warning++;
          notes.push({
            text: `canonical provenance disagreed with the linked records (rebuilt; nothing unlinked): enterprise ID ${identity.enterpriseId}`,
          });
        }
        if (changed) updated++;
        rebuilt.push({ identity, canonicalJson: changed ? canonicalJson : null });
      }
      return {
        lastIdentityId: last.identityId,
        items: batch.length,
        counters: { scanned: batch.length, updated, unchanged: batch.length - updated, warning },
        notes,
        write(at) {
          // The identities left as they were are checked together; each rebuilt one by its version-checked write.
          expectIdentityVersions(
            ctx.store,
            ctx.tenantId,
            rebuilt.filter(({ canonicalJson }) => canonicalJson === null).map(({ identity }) => identity),
          );
          const events = new DeferredRows(ctx.store);
          for (const { identity, canonicalJson } of rebuilt) {
            if (canonicalJson === null) continue;
            updateCanonical(ctx.store, ctx.tenantId, identity.identityId, identity.version, canonicalJson, at);
            recordIdentityEvent(
              ctx.store,
              ctx.tenantId,
              {
                identityId: identity.identityId,
                recordId: null,
                kind: 'canonical-rebuilt',
                profileVersion: ctx.profile.version,
                jobId: ctx.jobId,
              },
              at,
              events,
            );
          }
          events.flush();
          return {};
        },
      };
    },
  };
}

/** Blocking candidates of an identity with a higher identity_id, ranked as ingestion ranks them (candidates.ts). */
export function laterCandidates(store: Store, tenantId: string, identityId: number, tags: readonly Buffer[]): number[] {
  return rankCandidates(identitiesWithTags(store, tenantId, tags, MAX_BLOCK_SIZE + 1), (id) => id > identityId);
}

/**
 * laterCandidates of every identity of a batch: from the blocks the filter's scan holds while nothing changed since
 * it, else from the identity's stored tags that the filter lets through (later-tags.ts). Both give the same ranking.
 */
export function laterCandidatesOf(
  store: Store,
  tenantId: string,
  batch: readonly IdentityKey[],
  filter: LaterTagFilter,
): Map<number, number[]> {
  // The filter's scan answers for every identity or for none (it stops answering once anything changed since it).
  const scanned = batch.map(({ identityId }) => filter.laterBlocks(identityId));
  if (scanned.every((blocks): blocks is Int32Array[] => blocks !== null))
    return new Map(
      batch.map(({ identityId }, i) => [identityId, rankCandidates(scanned[i] ?? [], (id) => id > identityId)]),
    );
  const tags = storedTagsOf(store, tenantId, batch);
  return new Map(
    batch.map(({ identityId }) => [
      identityId,
      laterCandidates(store, tenantId, identityId, filter.lookUp(identityId, tags.get(identityId) ?? [])),
    ]),
  );
}

class MemberCache {
  private entries = new Map<number, { version: number; records: readonly PreparedRecord[] }>();
  constructor(private readonly capacity: number) {}
  get(identityId: number): { version: number; records: readonly PreparedRecord[] } | undefined {
    return this.entries.get(identityId);
  }
  set(identityId: number, entry: { version: number; records: readonly PreparedRecord[] }): void {
    if (this.entries.size >= this.capacity) this.entries = new Map();
    this.entries.set(identityId, entry);
  }
}

interface ReviewPair {
  readonly left: IdentityKey;
  readonly right: IdentityKey;
  readonly score: number;
  readonly decision: 'certain' | 'probable';
  readonly evidence: FieldEvidence[];
  readonly limitedBy: ScoreLimit | null;
  readonly twinReason: TwinReason | null;
  readonly heldFrom: number | null;
}

/** memberCapacity: the identities whose prepared records are kept between batches (tests make it tiny). */
export function reconcileMatching(ctx: JobContext, memberCapacity = PREPARED_CACHE_RECORDS / 2): PhaseWork {
  const scorer = createScorer(
    ctx.profile.profile,
    rememberedTermFrequencies(storedTermFrequencies(ctx.store, ctx.tenantId)),
  );
  const probable = ctx.profile.profile.MatchingRules.Thresholds.Probable;
  // Candidates met within a few batches are met again (neighbours in identity order share blocks); bounded, so
  // memory stays flat in the population size.
  const cache = new PreparedCache(scorer, PREPARED_CACHE_RECORDS);
  const scratch = newScratch();
  // Scanned in the first batch's read snapshot; only the tags a later identity can hold are looked up.
  let filter: LaterTagFilter | undefined;
  // Each compared identity's prepared records at the version they were read. An identity's logical version rises with
  // every change to its records or links (population.ts expectIdentityVersions), so an identity met again at the same
  // version is not read again. Bounded like the prepared cache: the map is dropped when full.
  const members = new MemberCache(memberCapacity);
  return {
    readBatch(cursor, batchSize): BatchPlan | null {
      filter ??= LaterTagFilter.scan(ctx.store, ctx.tenantId);
      filter.refresh((identityId) => tagsOfIdentity(ctx.store, ctx.tenantId, identityId).map((t) => t.tag));
      // Keys only: the identity_keys index answers, no identity row (with its canonical record) is read.
      const batch = activeIdentityKeysAfter(ctx.store, ctx.tenantId, cursor, batchSize);
      const last = batch.at(-1);
      if (last === undefined) return null;
      // The whole batch's reads in a few statements: its later candidates (from the tag scan's blocks, or its tags
      // and their lookups), the keys and versions of all of them, and the records, fields included, of those whose
      // version the member cache does not hold. All within the batch's one read snapshot.
      const candidatesOf = laterCandidatesOf(ctx.store, ctx.tenantId, batch, filter);
      // Only identities that are compared: a batch identity without later candidates needs no records.
      const involved = [
        ...new Set([
          ...batch.filter((b) => (candidatesOf.get(b.identityId) ?? []).length > 0).map((b) => b.identityId),
          ...[...candidatesOf.values()].flat(),
        ]),
      ];
      // The batch's own map: the bounded cache may drop entries while the batch fills it. An identity the cache holds
      // and no event names since the filter's scan is as it was when cached (later-tags.ts unchangedSinceScan): it
      // needs no read. The others' keys and versions are read once, for the cache's check and the cases' keys.
      const batchMembers = new Map<number, readonly PreparedRecord[]>();
      const unread: number[] = [];
      for (const id of involved) {
        const hit = members.get(id);
        if (hit !== undefined && filter.unchangedSinceScan(id)) batchMembers.set(id, hit.records);
        else unread.push(id);
      }
      const keys = identityKeys(ctx.store, ctx.tenantId, unread);
      const stale: number[] = [];
      for (const id of unread) {
        const hit = members.get(id);
        if (hit !== undefined && hit.version === keys.get(id)?.version) batchMembers.set(id, hit.records);
        else stale.push(id);
      }
      const rows = candidateMembers(ctx.store, ctx.tenantId, stale, MAX_COMPARED_RECORDS_PER_IDENTITY);
      for (const [identityId, list] of rows) {
        const records = list.map((row) => cache.get(row));
        batchMembers.set(identityId, records);
        const version = keys.get(identityId)?.version;
        if (version !== undefined) members.set(identityId, { version, records });
      }
      const prepared = (identityId: number): readonly PreparedRecord[] => batchMembers.get(identityId) ?? [];
      const apart = new IdentitiesApartCheck(ctx.store, ctx.tenantId, scorer, cache, probable, scratch);
      const found: {
        left: IdentityKey;
        candidateId: number;
        a: PreparedRecord;
        b: PreparedRecord;
        held: PairOutcome | undefined;
      }[] = [];
      for (const left of batch) {
        const candidates = candidatesOf.get(left.identityId) ?? [];
        if (candidates.length === 0) continue;
        const leftRecords = prepared(left.identityId);
        for (const candidateId of candidates) {
          const rightRecords = prepared(candidateId);
          // Only a pair at Probable or above can open a case, so a pair certain to stay below is not scored.
          const best = strongestPair(scorer, leftRecords, rightRecords);
          if (best === undefined || !opensReviewCase(best.outcome, probable)) continue;
          // A Certain pair through a record without a name part or birth date is held (BareRecord) as ingestion
          // holds it; so is one through an identity without a birth date that fits two people (IdentitiesApart).
          const held =
            best.outcome.decision === 'certain'
              ? (bareRecordHold(
                  scorer,
                  { record: best.a, identity: leftRecords },
                  { record: best.b, identity: rightRecords },
                  probable,
                  scratch,
                ) ??
                apart.hold(
                  { identityId: left.identityId, records: leftRecords },
                  { identityId: candidateId, records: rightRecords },
                  best.outcome,
                ))
              : undefined;
          found.push({ left, candidateId, a: best.a, b: best.b, held });
        }
      }
      // The keys of the cases' identities the cache answered for, in the batch's snapshot.
      const rightKeys = identityKeys(
        ctx.store,
        ctx.tenantId,
        [...new Set(found.map(({ candidateId }) => candidateId))].filter((id) => !keys.has(id)),
      );
      const pairs: ReviewPair[] = [];
      for (const { left, candidateId, a, b, held } of found) {
        const right = keys.get(candidateId) ?? rightKeys.get(candidateId);
        if (right?.active !== true) continue;
        const explained = scorer.explain(a, b);
        const judged = held ?? explained;
        pairs.push({
          left,
          right,
          score: judged.score,
          decision: judged.decision === 'certain' ? 'certain' : 'probable',
          evidence: explained.evidence,
          limitedBy: judged.limitedBy ?? null,
          heldFrom: judged.heldFrom ?? null,
          twinReason: explained.twinReason ?? null,
        });
      }
      return {
        lastIdentityId: last.identityId,
        items: batch.length,
        counters: { scanned: batch.length },
        write(at) {
          let reviewCreated = 0;
          const involved = new Map<number, IdentityKey>();
          for (const { left, right } of pairs) involved.set(left.identityId, left).set(right.identityId, right);
          expectIdentityVersions(ctx.store, ctx.tenantId, [...involved.values()]);
          for (const pair of pairs) {
            // A pair already open for review at these versions (say, from ingestion) is not asked twice.
            if (hasOpenCaseFor(ctx.store, ctx.tenantId, pair.left, pair.right)) continue;
            // Nor a pair a reviewer decided are different people, while neither identity's records changed.
            if (decidedDistinct(ctx.store, ctx.tenantId, pair.left.identityId, pair.right.identityId)) continue;
            const inserted = insertReviewCase(
              ctx.store,
              ctx.tenantId,
              {
                caseId: reviewCaseId(ctx.tenantId, REVIEW_KIND, pair.left, pair.right, ctx.profile.version),
                kind: REVIEW_KIND,
                leftIdentityId: pair.left.identityId,
                leftVersion: pair.left.version,
                rightIdentityId: pair.right.identityId,
                rightVersion: pair.right.version,
                profileVersion: ctx.profile.version,
                score: pair.score,
                decision: pair.decision,
                evidence: pair.evidence,
                limitedBy: pair.limitedBy,
                heldFrom: pair.heldFrom,
                twinReason: pair.twinReason,
                jobId: ctx.jobId,
              },
              at,
            );
            if (inserted) reviewCreated++;
          }
          return { reviewCreated };
        },
      };
    },
  };
}
