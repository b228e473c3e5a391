/**
 * Review cases, the decisions reviewers record on them and the pairs decided to be different people. Every
 * statement names the tenant. Decisions keep the reviewer's reason here; audit records never carry it.
 */
import { createHash } from 'node:crypto';
import { validationError } from '../contract/errors.ts';
import { forIdChunks } from './id-chunks.ts';
import type { Store } from './store.ts';
import type { FieldEvidence, ScoreLimit, TwinReason } from '../contract/matching.ts';
import type { REVIEW_SORTS, ReviewCase, ReviewDecision } from '../contract/reviews.ts';

export type ReviewKind = ReviewCase['kind'];

export interface ReviewCaseWrite {
  readonly caseId: string;
  readonly kind: ReviewKind;
  readonly leftIdentityId: number;
  readonly leftVersion: number;
  readonly rightIdentityId: number;
  readonly rightVersion: number;
  readonly profileVersion: number;
  readonly score: number;
  readonly decision: 'certain' | 'probable';
  readonly evidence: readonly FieldEvidence[];
  /** The job that opens the case, if any. */
  readonly jobId?: string | null;
  /** For ingestion, the source system of the record that opens the case. */
  readonly sourceSystem?: string | null;
  /** The rule that held the pair's score at Probable (scoring/scorer.ts scoreLimit), if one did. */
  readonly limitedBy?: ScoreLimit | null;
  /** With limitedBy: the score method's score before the rule held it. */
  readonly heldFrom?: number | null;
  /**
   * Which case of the twin rule held the pair (scoring/possible-twin.ts); written only with limitedBy PossibleTwin, so
   * a caller passes its explanation's reason, whatever rule held the case.
   */
  readonly twinReason?: TwinReason | null;
  /** A link quality case's doubt (engine/assurance/link-quality.ts doubtOf): the most-doubtful sort's key. */
  readonly doubt?: number | null;
}

/**
 * Inserts the case unless one with the same deterministic ID exists; true when it was new. Only that conflict is
 * passed over: a case the schema refuses (a rule its CHECK does not list yet) throws, where SQLite's INSERT OR IGNORE
 * dropped it without a word and the pair was neither linked nor asked about. A new case supersedes
 * every other open case about the same identities: those name older versions (an open case at these versions would
 * have kept this one from being asked), so they are out of date and could not be decided; they are dismissed and
 * kept as history, and the reviewer has one question per pair. Without this, each record a person's identities take
 * on while a question waits adds a copy of it: after a bulk load of 100,000 records and a reconciliation, 2,383 open
 * cases asked about 1,220 pairs.
 */
export function insertReviewCase(store: Store, tenantId: string, c: ReviewCaseWrite, at: string): boolean {
  const result = store
    .statement(
      `INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version,
         profile_version, score, decision, evidence_json, status, created_at, job_id, source_system, limited_by, held_from, doubt,
         twin_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, case_id) DO NOTHING`,
    )
    .run(
      tenantId,
      c.caseId,
      c.kind,
      c.leftIdentityId,
      c.leftVersion,
      c.rightIdentityId,
      c.rightVersion,
      c.profileVersion,
      c.score,
      c.decision,
      JSON.stringify(c.evidence),
      at,
      c.jobId ?? null,
      c.sourceSystem ?? null,
      c.limitedBy ?? null,
      c.limitedBy == null ? null : (c.heldFrom ?? null),
      c.doubt ?? null,
      c.limitedBy === 'PossibleTwin' ? (c.twinReason ?? null) : null,
    );
  if (result.changes !== 1) return false;
  store
    .statement(
      `UPDATE review_case SET status = 'dismissed' WHERE tenant_id = ? AND left_identity_id = ? AND right_identity_id = ?
         AND status = 'open' AND case_id <> ?`,
    )
    .run(tenantId, c.leftIdentityId, c.rightIdentityId, c.caseId);
  return true;
}

/**
 * The case that superseded a dismissed one: the newest case about these identities that is not itself dismissed
 * (cases opened in one ingestion chunk share a time, so the time alone could name another superseded one).
 */
export function newestCaseFor(
  store: Store,
  tenantId: string,
  leftIdentityId: number,
  rightIdentityId: number,
  caseId: string,
): string | null {
  const row = store
    .statement(
      `SELECT case_id FROM review_case WHERE tenant_id = ? AND left_identity_id = ? AND right_identity_id = ? AND case_id <> ?
       ORDER BY CASE WHEN status = 'dismissed' THEN 1 ELSE 0 END, created_at DESC, case_id DESC LIMIT 1`,
    )
    .pluck()
    .get(tenantId, leftIdentityId, rightIdentityId, caseId) as string | undefined;
  return row ?? null;
}

/**
 * Whether an open case of any kind already asks about these two identities at these versions (left is the
 * lower identity ID, as cases store them): the reviewer already has that question.
 */
export function hasOpenCaseFor(
  store: Store,
  tenantId: string,
  left: { identityId: number; version: number },
  right: { identityId: number; version: number },
): boolean {
  return (
    store
      .statement(
        `SELECT 1 FROM review_case WHERE tenant_id = ? AND left_identity_id = ? AND right_identity_id = ? AND status = 'open'
           AND left_version = ? AND right_version = ?`,
      )
      .get(tenantId, left.identityId, right.identityId, left.version, right.version) !== undefined
  );
}

/** Whether a reviewer decided (same person or different people) a LinkQuality case about this identity at this version. */
export function hasDecidedCaseAt(
  store: Store,
  tenantId: string,
  identity: { identityId: number; version: number },
): boolean {
  return (
    store
      .statement(
        `SELECT 1 FROM review_case WHERE tenant_id = ? AND kind = 'LinkQuality' AND left_identity_id = ? AND right_identity_id = ? AND left_version = ?
           AND status = 'resolved' LIMIT 1`,
      )
      .get(tenantId, identity.identityId, identity.identityId, identity.version) !== undefined
  );
}

export interface ReviewCaseRow {
  readonly caseId: string;
  readonly kind: ReviewKind;
  readonly status: 'open' | 'resolved' | 'dismissed';
  readonly leftIdentityId: number;
  readonly leftEnterpriseId: string;
  readonly leftVersion: number;
  readonly rightIdentityId: number;
  readonly rightEnterpriseId: string;
  readonly rightVersion: number;
  readonly matchingProfileVersion: number;
  readonly score: number;
  readonly decision: 'certain' | 'probable';
  readonly evidence: FieldEvidence[];
  readonly limitedBy: ScoreLimit | null;
  readonly heldFrom: number | null;
  readonly twinReason: TwinReason | null;
  readonly createdAt: string;
  readonly jobId: string | null;
  readonly sourceSystem: string | null;
  readonly stale: boolean;
  readonly review: { readonly decision: ReviewDecision; readonly actor: string; readonly decidedAt: string } | null;
}

export interface ReviewFilter {
  readonly status: 'open' | 'resolved' | 'dismissed' | 'all';
  readonly kind?: ReviewKind | undefined;
  readonly jobId?: string | undefined;
  readonly sourceSystem?: string | undefined;
  /** An instant as `toISOString` writes it (the form created_at is kept in), so it compares as created_at does. */
  readonly openedAfter?: string | undefined;
  readonly limitedBy?: ScoreLimit | 'none' | undefined;
  readonly twinReason?: TwinReason | undefined;
  readonly currentOnly?: boolean | undefined;
}

export type ReviewSort = (typeof REVIEW_SORTS)[number];

const ORDER: Record<ReviewSort, string> = {
  newest: 'c.created_at DESC, c.case_id DESC',
  oldest: 'c.created_at, c.case_id',
  // Cases held at the Probable threshold tie on their score; the score their fields gave before the hold orders them.
  'score-high': 'c.score DESC, COALESCE(c.held_from, c.score) DESC, c.case_id',
  'score-low': 'c.score, COALESCE(c.held_from, c.score), c.case_id',
  // Link quality cases by the scan's doubt (one source twice, then more flags, then more groups), then every case
  // by its score, lowest first (a link quality case's is its weakest link).
  'most-doubtful': 'COALESCE(c.doubt, -1) DESC, c.score, COALESCE(c.held_from, c.score), c.case_id',
};

/**
 * Either identity no longer at the version the case names, or retired: the case cannot be decided. Kept on the case by
 * the store's triggers (migrations 0021 and PG 0011), so the queue filters and counts on review_case alone.
 */
const STALE = 'c.outdated';

const CASE_COLUMNS = `c.case_id, c.kind, c.status, c.left_identity_id, li.enterprise_id AS left_eid, c.left_version, c.right_identity_id,
  ri.enterprise_id AS right_eid, c.right_version, c.profile_version, c.score, c.decision, c.evidence_json, c.limited_by, c.held_from, c.twin_reason, c.created_at,
  c.job_id, c.source_system, ${STALE} AS stale, d.decision AS review_decision, d.actor AS review_actor, d.decided_at AS review_at`;

const CASE_FROM = `review_case c
  JOIN identity li ON li.tenant_id = c.tenant_id AND li.identity_id = c.left_identity_id
  JOIN identity ri ON ri.tenant_id = c.tenant_id AND ri.identity_id = c.right_identity_id
  LEFT JOIN review_decision d ON d.tenant_id = c.tenant_id AND d.case_id = c.case_id
    AND d.seq = (SELECT max(seq) FROM review_decision x WHERE x.tenant_id = c.tenant_id AND x.case_id = c.case_id)`;
/** A page's cases read by key at most this many at a time. */
const PAGE_CHUNK = 100;

interface CaseSqlRow {
  case_id: string;
  kind: ReviewKind;
  status: ReviewCaseRow['status'];
  left_identity_id: number;
  left_eid: string;
  left_version: number;
  right_identity_id: number;
  right_eid: string;
  right_version: number;
  profile_version: number;
  score: number;
  decision: 'certain' | 'probable';
  evidence_json: string;
  limited_by: ScoreLimit | null;
  twin_reason: TwinReason | null;
  held_from: number | null;
  created_at: string;
  job_id: string | null;
  source_system: string | null;
  stale: number;
  review_decision: ReviewDecision | null;
  review_actor: string | null;
  review_at: string | null;
}

function caseFromRow(r: CaseSqlRow): ReviewCaseRow {
  return {
    caseId: r.case_id,
    kind: r.kind,
    status: r.status,
    leftIdentityId: r.left_identity_id,
    leftEnterpriseId: r.left_eid,
    leftVersion: r.left_version,
    rightIdentityId: r.right_identity_id,
    rightEnterpriseId: r.right_eid,
    rightVersion: r.right_version,
    matchingProfileVersion: r.profile_version,
    score: r.score,
    decision: r.decision,
    evidence: JSON.parse(r.evidence_json) as FieldEvidence[],
    limitedBy: r.limited_by,
    heldFrom: r.held_from,
    twinReason: r.twin_reason,
    createdAt: r.created_at,
    jobId: r.job_id,
    sourceSystem: r.source_system,
    stale: r.stale === 1,
    review:
      r.review_decision === null
        ? null
        : { decision: r.review_decision, actor: r.review_actor ?? '', decidedAt: r.review_at ?? '' },
  };
}

const STATUSES = new Set<string>(['open', 'resolved', 'dismissed']);

function filterSql(filter: ReviewFilter): { where: string; args: (string | number)[] } {
  const clauses = ['c.tenant_id = ?'];
  const args: (string | number)[] = [];
  // The status as a literal (one of three words, checked here): SQLite chooses a partial index (the waiting cases
  // that can be decided now) only for a statement whose terms name its condition's values.
  if (filter.status !== 'all') {
    if (!STATUSES.has(filter.status)) throw validationError('unknown review case status');
    clauses.push(`c.status = '${filter.status}'`);
  }
  if (filter.kind !== undefined) {
    clauses.push('c.kind = ?');
    args.push(filter.kind);
  }
  if (filter.jobId !== undefined) {
    clauses.push('c.job_id = ?');
    args.push(filter.jobId);
  }
  if (filter.sourceSystem !== undefined) {
    clauses.push('c.source_system = ?');
    args.push(filter.sourceSystem);
  }
  if (filter.openedAfter !== undefined) {
    clauses.push('c.created_at > ?');
    args.push(filter.openedAfter);
  }
  if (filter.limitedBy === 'none') clauses.push('c.limited_by IS NULL');
  else if (filter.limitedBy !== undefined) {
    clauses.push('c.limited_by = ?');
    args.push(filter.limitedBy);
  }
  if (filter.twinReason !== undefined) {
    clauses.push('c.twin_reason = ?');
    args.push(filter.twinReason);
  }
  if (filter.currentOnly === true) clauses.push(`${STALE} = 0`);
  return { where: clauses.join(' AND '), args };
}

/**
 * One page of the tenant's cases matching the filter, and how many match in all. The page is chosen and counted on
 * review_case alone (its filters and orders name only its own columns); only the page's rows join their identities and
 * decisions, so a page of a queue of 250,000 cases sorts case rows rather than joined ones.
 */
export function listReviewCases(
  store: Store,
  tenantId: string,
  filter: ReviewFilter,
  sort: ReviewSort,
  limit: number,
  offset: number,
): { total: number; rows: ReviewCaseRow[] } {
  const { where, args } = filterSql(filter);
  const total = store
    .statement(`SELECT count(*) FROM review_case c WHERE ${where}`)
    .pluck()
    .get(tenantId, ...args) as number;
  const page = store
    .statement(`SELECT c.case_id FROM review_case c WHERE ${where} ORDER BY ${ORDER[sort]} LIMIT ? OFFSET ?`)
    .pluck()
    .all(tenantId, ...args, limit, offset) as string[];
  // The page's rows by their keys, in the page's order: with an ORDER BY here, SQLite walked the tenant's cases in
  // that order to find the page's few.
  const byId = new Map<string, CaseSqlRow>();
  forIdChunks(page, PAGE_CHUNK, (part, placeholders) => {
    const rows = store
      .statement(`SELECT ${CASE_COLUMNS} FROM ${CASE_FROM} WHERE c.tenant_id = ? AND c.case_id IN (${placeholders})`)
      .all(tenantId, ...part) as CaseSqlRow[];
    for (const row of rows) byId.set(row.case_id, row);
  });
  return { total, rows: page.flatMap((caseId) => byId.get(caseId) ?? []).map(caseFromRow) };
}

/**
 * The cases matching the filter but its hold (limitedBy, twinReason), counted by the rule that held them and the twin
 * rule's case, most first (ties by rule and case): how many cases each choice of hold would list. At 250,000 cases it
 * reads the tenant's entries of the hold index (migration 0025). Of decided cases (status `resolved`) it also counts
 * those whose decision was the same person (the rest were different people): each case's last decision, read by its
 * key.
 */
export function reviewCaseHolds(
  store: Store,
  tenantId: string,
  filter: ReviewFilter,
): { limitedBy: ScoreLimit | null; twinReason: TwinReason | null; cases: number; samePerson?: number }[] {
  const { where, args } = filterSql({ ...filter, limitedBy: undefined, twinReason: undefined });
  const decided = filter.status === 'resolved';
  const samePerson = decided
    ? `, sum(CASE WHEN (SELECT d.decision FROM review_decision d WHERE d.tenant_id = c.tenant_id AND d.case_id = c.case_id
         ORDER BY d.seq DESC LIMIT 1) = 'same-person' THEN 1 ELSE 0 END) AS same_person`
    : '';
  const rows = store
    .statement(
      `SELECT c.limited_by, c.twin_reason, count(*) AS cases${samePerson} FROM review_case c WHERE ${where}
       GROUP BY c.limited_by, c.twin_reason`,
    )
    .all(tenantId, ...args) as {
    limited_by: ScoreLimit | null;
    twin_reason: TwinReason | null;
    cases: number;
    same_person?: number;
  }[];
  return rows
    .map((r) => ({
      limitedBy: r.limited_by,
      twinReason: r.twin_reason,
      cases: r.cases,
      ...(decided ? { samePerson: r.same_person ?? 0 } : {}),
    }))
    .sort(
      (a, b) =>
        b.cases - a.cases ||
        (a.limitedBy ?? '').localeCompare(b.limitedBy ?? '') ||
        (a.twinReason ?? '').localeCompare(b.twinReason ?? ''),
    );
}

export function reviewCase(store: Store, tenantId: string, caseId: string): ReviewCaseRow | undefined {
  const row = store
    .statement(`SELECT ${CASE_COLUMNS} FROM ${CASE_FROM} WHERE c.tenant_id = ? AND c.case_id = ?`)
    .get(tenantId, caseId) as CaseSqlRow | undefined;
  return row === undefined ? undefined : caseFromRow(row);
}

export interface DecisionRow {
  readonly decision: ReviewDecision;
  readonly reason: string;
  readonly actor: string;
  readonly decidedAt: string;
}

export function caseDecisions(store: Store, tenantId: string, caseId: string): DecisionRow[] {
  return store
    .statement(
      'SELECT decision, reason, actor, decided_at AS decidedAt FROM review_decision WHERE tenant_id = ? AND case_id = ? ORDER BY seq',
    )
    .all(tenantId, caseId) as DecisionRow[];
}

/** Appends a decision and sets the case's status (same person and different people resolve it). */
export function recordDecision(store: Store, tenantId: string, caseId: string, decision: DecisionRow): void {
  const seq = store
    .statement('SELECT coalesce(max(seq), 0) + 1 FROM review_decision WHERE tenant_id = ? AND case_id = ?')
    .pluck()
    .get(tenantId, caseId) as number;
  store
    .statement(
      'INSERT INTO review_decision (tenant_id, case_id, seq, decision, reason, actor, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(tenantId, caseId, seq, decision.decision, decision.reason, decision.actor, decision.decidedAt);
  store
    .statement('UPDATE review_case SET status = ? WHERE tenant_id = ? AND case_id = ?')
    .run(decision.decision === 'unsure' ? 'open' : 'resolved', tenantId, caseId);
}

/** A digest of an identity's linked records at their versions: it changes whenever one is linked, unlinked or updated. */
export function identityRecordsDigest(store: Store, tenantId: string, identityId: number): string {
  const rows = store
    .statement(
      `SELECT r.record_id, r.logical_version FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.identity_id = ? ORDER BY r.record_id`,
    )
    .raw()
    .all(tenantId, identityId) as [number, number][];
  return createHash('sha256')
    .update(rows.map(([id, version]) => `${String(id)}:${String(version)}`).join(','))
    .digest('hex');
}

interface PairSide {
  readonly identityId: number;
  readonly records: string;
}

/** Remembers that a reviewer decided these identities (left: the lower identity ID) are different people. */
export function rememberDistinct(
  store: Store,
  tenantId: string,
  left: PairSide,
  right: PairSide,
  caseId: string,
  at: string,
): void {
  store
    .statement(
      `INSERT INTO distinct_pair (tenant_id, left_identity_id, left_records, right_identity_id, right_records, case_id, decided_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant_id, left_identity_id, right_identity_id, left_records, right_records) DO NOTHING`,
    )
    .run(tenantId, left.identityId, left.records, right.identityId, right.records, caseId, at);
}

/**
 * Whether a reviewer decided these two identities are different people and neither identity's records changed
 * since: the pair is not asked again. Reads the digests only when a decision exists for the pair.
 */
export function decidedDistinct(store: Store, tenantId: string, a: number, b: number): boolean {
  const [left, right] = a < b ? [a, b] : [b, a];
  const decided = store
    .statement(
      'SELECT left_records, right_records FROM distinct_pair WHERE tenant_id = ? AND left_identity_id = ? AND right_identity_id = ?',
    )
    .raw()
    .all(tenantId, left, right) as [string, string][];
  if (decided.length === 0) return false;
  const leftNow = identityRecordsDigest(store, tenantId, left);
  const rightNow = identityRecordsDigest(store, tenantId, right);
  return decided.some(([l, r]) => l === leftNow && r === rightNow);
}

export interface DecidedPair {
  readonly caseId: string;
  readonly kind: ReviewKind;
  readonly decision: 'same-person' | 'different-people';
  readonly leftIdentityId: number;
  readonly rightIdentityId: number;
}

/** Cases whose latest decision is same person or different people, oldest first (optionally one job's). */
export function decidedCases(store: Store, tenantId: string, jobId?: string): DecidedPair[] {
  return store
    .statement(
      `SELECT c.case_id AS caseId, c.kind, d.decision, c.left_identity_id AS leftIdentityId, c.right_identity_id AS rightIdentityId
       FROM review_case c JOIN review_decision d ON d.tenant_id = c.tenant_id AND d.case_id = c.case_id
         AND d.seq = (SELECT max(seq) FROM review_decision x WHERE x.tenant_id = c.tenant_id AND x.case_id = c.case_id)
       WHERE c.tenant_id = ? AND d.decision IN ('same-person', 'different-people') ${jobId === undefined ? '' : 'AND c.job_id = ?'}
       ORDER BY c.created_at, c.case_id`,
    )
    .all(...(jobId === undefined ? [tenantId] : [tenantId, jobId])) as DecidedPair[];
}

/** A decision as an identity's history shows it: what, by whom, when. */
export interface CaseDecision {
  readonly decision: ReviewDecision;
  readonly actor: string;
  readonly at: string;
}

/**
 * The decisions on these cases, each case's in the order they were made: one statement per 500 cases rather than one
 * per case (an identity with thousands of cases on PostgreSQL made as many round trips).
 */
export function decisionsOfCases(
  store: Store,
  tenantId: string,
  caseIds: readonly string[],
): Map<string, CaseDecision[]> {
  const out = new Map<string, CaseDecision[]>();
  forIdChunks(caseIds, 500, (part, placeholders) => {
    for (const d of store
      .statement(
        `SELECT case_id AS caseId, decision, actor, decided_at AS at FROM review_decision
         WHERE tenant_id = ? AND case_id IN (${placeholders}) ORDER BY case_id, seq`,
      )
      .all(tenantId, ...part) as (CaseDecision & { caseId: string })[]) {
      const list = out.get(d.caseId) ?? [];
      list.push({ decision: d.decision, actor: d.actor, at: d.at });
      out.set(d.caseId, list);
    }
  });
  return out;
}
