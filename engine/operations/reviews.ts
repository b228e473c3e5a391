/**
 * Review cases for a reviewer: list with filters and paging, read one beside both identities' records, record a
 * decision, export decided cases as labels. A decision is checked against the identity versions the case names:
 * a case whose identities changed since it was opened is stale and refused with nothing written. Nothing here
 * links, unlinks or merges: a "same person" decision is recorded for the organisation's governed merge process.
 */
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { conflict, notFound } from '../contract/errors.ts';
import { RECORDS_SHOWN, REVIEW_QUEUE_NOTE, type ReviewCase } from '../contract/reviews.ts';
import { labelsToTsv, type LabelPair } from '../contract/label-tsv.ts';
import type { EngineEnv } from '../env.ts';
import type { Store } from '../store/store.ts';
import { writeAudit } from '../store/audit.ts';
import { activeProfile } from '../store/profiles.ts';
import { recordsOfIdentity, type SourceRecord } from '../store/records.ts';
import {
  caseDecisions,
  decidedCases,
  identityRecordsDigest,
  listReviewCases,
  reviewCaseHolds,
  newestCaseFor,
  recordDecision,
  rememberDistinct,
  reviewCase,
  type ReviewCaseRow,
} from '../store/reviews.ts';
import { storedTermFrequencies } from '../store/term-frequency.ts';
import { sourceSystemsOf } from '../store/source-systems.ts';
import { requireTenant } from '../store/tenants.ts';
import { createScorer, type PairOutcome, type Scorer } from '../scoring/scorer.ts';
import { isStronger } from '../scoring/stronger-outcome.ts';
import { identityKeys } from '../jobs/population.ts';
import { judgeIdentity, type CompareFirst } from '../ingest/identity-judgement.ts';
import { MAX_IDENTITY_RECORDS, type LinkFlag } from '../contract/link-quality.ts';

/** Records of each identity compared when a case is opened (its oldest). */

export const REVIEW_LABELS_NOTE = `These labels come from the review queue. ${REVIEW_QUEUE_NOTE}`;

/** The case as callers see it: enterprise IDs, never the registry's internal identity IDs. */
function publicCase(row: ReviewCaseRow): ReviewCase {
  return Object.fromEntries(
    Object.entries(row).filter(([key]) => key !== 'leftIdentityId' && key !== 'rightIdentityId'),
  ) as ReviewCase;
}

const refOf = (r: SourceRecord): { sourceSystem: string; localId: string } => ({
  sourceSystem: r.sourceSystem,
  localId: r.localId,
});

interface ShownPair {
  readonly left: SourceRecord;
  readonly right: SourceRecord;
  readonly score: number;
}

type Edge = { a: number; b: number; score: number };

/** The active profile's scorer, made once per operation (the loops below reuse it), and its Probable threshold. */
function activeScorer(store: Store, tenantId: string): { scorer: Scorer; probable: number } {
  const { profile } = activeProfile(store, tenantId);
  return {
    scorer: createScorer(profile, storedTermFrequencies(store, tenantId)),
    probable: profile.MatchingRules.Thresholds.Probable,
  };
}

/**
 * A LinkQuality case's identity judged as the scan judges it, under the active profile and the scan's default
 * bound: every pair of its records with its score (the record graph) and the flags those records raise now.
 */
function judgeCase(
  active: { scorer: Scorer; probable: number },
  records: readonly SourceRecord[],
  totalRecords: number,
): { graph: Edge[]; flags: LinkFlag[]; compareFirst: CompareFirst | null } {
  const members = records.map((r) => ({ member: r, prepared: active.scorer.prepare(r.fields) }));
  const judged = judgeIdentity(active.scorer, members, totalRecords, MAX_IDENTITY_RECORDS, active.probable);
  return { graph: judged.edges, flags: judged.flags, compareFirst: judged.compareFirst };
}

/**
 * The pair a reviewer compares first, under the active profile: for two identities, their strongest record pair
 * (stronger-outcome.ts: on a tie at the Probable threshold, the one a rule held on the most evidence);
 * for a LinkQuality case (one identity, judged as the scan judges it), the pair that shows best why it was flagged
 * (link-quality.ts pairToCompareFirst: its weakest link, or two records of one source or in conflict).
 */
function pairToShow(
  scorer: Scorer,
  left: readonly SourceRecord[],
  right: readonly SourceRecord[],
  judged: { readonly compareFirst: CompareFirst | null } | null,
): ShownPair | null {
  if (judged !== null) {
    const first = judged.compareFirst;
    const [l, r] = first === null ? [] : [left[first.a], left[first.b]];
    return first === null || l === undefined || r === undefined ? null : { left: l, right: r, score: first.score };
  }
  const rights = right.map((r) => ({ record: r, prepared: scorer.prepare(r.fields) }));
  let best: { left: SourceRecord; right: SourceRecord; outcome: PairOutcome } | undefined;
  for (const l of left) {
    const prepared = scorer.prepare(l.fields);
    for (const r of rights) {
      const outcome = scorer.outcome(prepared, r.prepared);
      if (isStronger(outcome, best?.outcome)) best = { left: l, right: r.record, outcome };
    }
  }
  return best === undefined ? null : { left: best.left, right: best.right, score: best.outcome.score };
}

function requireCase(store: Store, tenantId: string, caseId: string): ReviewCaseRow {
  const row = reviewCase(store, tenantId, caseId);
  if (row === undefined) throw notFound(`review case ${caseId} does not exist in this tenant`);
  return row;
}

export function listReviews(
  env: EngineEnv,
  input: OperationInput<'reviews/list'>,
  ctx: CallContext,
): OperationOutput<'reviews/list'> {
  requireTenant(env.store, ctx.tenantId);
  return env.store.read(() => {
    const filter = {
      status: input.status ?? 'open',
      kind: input.kind,
      jobId: input.jobId,
      sourceSystem: input.sourceSystem,
      // In the form created_at is kept in: a time with another offset names the same instant.
      openedAfter: input.openedAfter === undefined ? undefined : new Date(input.openedAfter).toISOString(),
      limitedBy: input.limitedBy,
      twinReason: input.twinReason,
      currentOnly: input.currentOnly,
    };
    const { total, rows } = listReviewCases(
      env.store,
      ctx.tenantId,
      filter,
      input.sort ?? 'oldest',
      input.limit ?? 50,
      input.offset ?? 0,
    );
    // A link quality case says in the list why it asks: its flags now, judged as the scan judges them (its first
    // records up to the scan's bound), so a page of cases costs at most a few hundred pairs each.
    const active = rows.some((row) => row.kind === 'LinkQuality') ? activeScorer(env.store, ctx.tenantId) : null;
    return {
      total,
      sources: sourceSystemsOf(env.store, 'review_case', ctx.tenantId),
      ...(input.withHolds === true ? { holds: reviewCaseHolds(env.store, ctx.tenantId, filter) } : {}),
      rows: rows.map((row) => {
        if (row.kind !== 'LinkQuality' || active === null) return { ...publicCase(row), flags: null };
        const records = recordsOfIdentity(env.store, ctx.tenantId, row.leftIdentityId);
        return {
          ...publicCase(row),
          flags: judgeCase(active, records.slice(0, MAX_IDENTITY_RECORDS), records.length).flags,
        };
      }),
    };
  });
}

export function getReview(
  env: EngineEnv,
  input: OperationInput<'reviews/get'>,
  ctx: CallContext,
): OperationOutput<'reviews/get'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.read(() => {
    const row = requireCase(store, ctx.tenantId, input.caseId);
    const allLeft = recordsOfIdentity(store, ctx.tenantId, row.leftIdentityId);
    const leftRecords = allLeft.slice(0, RECORDS_SHOWN);
    const allRight = recordsOfIdentity(store, ctx.tenantId, row.rightIdentityId);
    const rightRecords = allRight.slice(0, RECORDS_SHOWN);
    const active = activeScorer(store, ctx.tenantId);
    const judged = row.kind === 'LinkQuality' ? judgeCase(active, leftRecords, allLeft.length) : null;
    const best = pairToShow(active.scorer, leftRecords, rightRecords, judged);
    const keys = identityKeys(store, ctx.tenantId, [row.leftIdentityId, row.rightIdentityId]);
    const stateOf = (identityId: number): { version: number; active: boolean } => {
      const key = keys.get(identityId);
      return { version: key?.version ?? 0, active: key?.active === true };
    };
    const left = stateOf(row.leftIdentityId);
    const right = stateOf(row.rightIdentityId);
    return {
      case: publicCase(row),
      left: {
        enterpriseId: row.leftEnterpriseId,
        ...left,
        records: leftRecords.map(refOf),
        recordCount: allLeft.length,
      },
      right: {
        enterpriseId: row.rightEnterpriseId,
        ...right,
        records: rightRecords.map(refOf),
        recordCount: allRight.length,
      },
      bestPair: best === null ? null : { left: refOf(best.left), right: refOf(best.right), score: best.score },
      decisions: caseDecisions(store, ctx.tenantId, row.caseId),
      bestPairShows: judged?.compareFirst?.because ?? null,
      graph: judged?.graph ?? null,
      flags: judged?.flags ?? null,
      supersededBy:
        row.status === 'dismissed'
          ? newestCaseFor(store, ctx.tenantId, row.leftIdentityId, row.rightIdentityId, row.caseId)
          : null,
    };
  });
}

export function decideReview(
  env: EngineEnv,
  input: OperationInput<'reviews/decide'>,
  ctx: CallContext,
): OperationOutput<'reviews/decide'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.write(() => {
    const row = requireCase(store, ctx.tenantId, input.caseId);
    if (row.status === 'dismissed') {
      const newer = newestCaseFor(store, ctx.tenantId, row.leftIdentityId, row.rightIdentityId, row.caseId);
      throw conflict(
        `review case ${row.caseId} was superseded${newer === null ? '' : ` by ${newer}`}, a newer case about the same identities at their current versions; nothing was recorded. Decide that one`,
      );
    }
    if (row.status !== 'open') {
      const last =
        row.review === null ? '' : ` (${row.review.decision}, by ${row.review.actor} at ${row.review.decidedAt})`;
      throw conflict(`review case ${row.caseId} is already decided${last}; reload it to see the decision`);
    }
    if (row.stale) {
      throw conflict(
        `review case ${row.caseId} is stale: one of its identities changed since the case was opened (or was retired); nothing was recorded. ` +
          'A reconciliation opens a new case for the pair if it still needs review',
      );
    }
    const at = new Date().toISOString();
    recordDecision(store, ctx.tenantId, row.caseId, {
      decision: input.decision,
      reason: input.reason,
      actor: ctx.actor,
      decidedAt: at,
    });
    // Remembered for a pair of identities; a LinkQuality case (one identity) goes to the governed unlink process.
    if (input.decision === 'different-people' && row.kind !== 'LinkQuality') {
      rememberDistinct(
        store,
        ctx.tenantId,
        { identityId: row.leftIdentityId, records: identityRecordsDigest(store, ctx.tenantId, row.leftIdentityId) },
        { identityId: row.rightIdentityId, records: identityRecordsDigest(store, ctx.tenantId, row.rightIdentityId) },
        row.caseId,
        at,
      );
    }
    // The decision, never the reviewer's reason (free text that could hold patient values).
    writeAudit(
      store,
      ctx.tenantId,
      {
        actor: ctx.actor,
        action: 'review.decide',
        subject: row.caseId,
        detail: { decision: input.decision, kind: row.kind },
      },
      at,
    );
    return { case: publicCase(requireCase(store, ctx.tenantId, row.caseId)) };
  });
}

export function reviewLabels(
  env: EngineEnv,
  input: OperationInput<'reviews/labels'>,
  ctx: CallContext,
): OperationOutput<'reviews/labels'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  return store.read(() => {
    const pairs: LabelPair[] = [];
    const active = activeScorer(store, ctx.tenantId);
    for (const decided of decidedCases(store, ctx.tenantId, input.jobId)) {
      const left = recordsOfIdentity(store, ctx.tenantId, decided.leftIdentityId).slice(0, RECORDS_SHOWN);
      const best = pairToShow(
        active.scorer,
        left,
        recordsOfIdentity(store, ctx.tenantId, decided.rightIdentityId).slice(0, RECORDS_SHOWN),
        decided.kind === 'LinkQuality' ? judgeCase(active, left, left.length) : null,
      );
      if (best !== null)
        pairs.push({ left: refOf(best.left), right: refOf(best.right), isMatch: decided.decision === 'same-person' });
    }
    return { tsv: labelsToTsv(pairs, { header: true }), labels: pairs.length, note: REVIEW_LABELS_NOTE };
  });
}
