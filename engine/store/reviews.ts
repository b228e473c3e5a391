import type { Store } from './db.ts';
import type { FieldEvidence } from '../contract/matching.ts';

export type ReviewKind = 'IngestionMatch' | 'PopulationReconciliation';

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
}

/** Inserts the case unless one with the same deterministic ID exists; true when it was new. */
export function insertReviewCase(store: Store, tenantId: string, c: ReviewCaseWrite, at: string): boolean {
  const result = store
    .statement(
      `INSERT OR IGNORE INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version,
         profile_version, score, decision, evidence_json, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)`,
    )
    .run(tenantId, c.caseId, c.kind, c.leftIdentityId, c.leftVersion, c.rightIdentityId, c.rightVersion, c.profileVersion, c.score, c.decision, JSON.stringify(c.evidence), at);
  return result.changes === 1;
}

/**
 * Whether an open case of any kind already asks about these two identities at these versions (left is the
 * lower identity ID, as cases store them): the reviewer already has that question.
 */
export function hasOpenCaseFor(store: Store, tenantId: string, left: { identityId: number; version: number }, right: { identityId: number; version: number }): boolean {
  return (
    store
      .statement(
        `SELECT 1 FROM review_case WHERE tenant_id = ? AND left_identity_id = ? AND right_identity_id = ? AND status = 'open'
           AND left_version = ? AND right_version = ?`,
      )
      .get(tenantId, left.identityId, right.identityId, left.version, right.version) !== undefined
  );
}

export interface ReviewCaseRow {
  readonly caseId: string;
  readonly kind: ReviewKind;
  readonly status: string;
  readonly leftEnterpriseId: string;
  readonly leftVersion: number;
  readonly rightEnterpriseId: string;
  readonly rightVersion: number;
  readonly matchingProfileVersion: number;
  readonly score: number;
  readonly decision: 'certain' | 'probable';
  readonly evidence: FieldEvidence[];
  readonly createdAt: string;
}

export function listReviewCases(store: Store, tenantId: string, status: string, limit: number, offset: number): ReviewCaseRow[] {
  const rows = store
    .statement(
      `SELECT c.case_id, c.kind, c.status, li.enterprise_id AS left_eid, c.left_version, ri.enterprise_id AS right_eid, c.right_version,
              c.profile_version, c.score, c.decision, c.evidence_json, c.created_at
       FROM review_case c
       JOIN identity li ON li.tenant_id = c.tenant_id AND li.identity_id = c.left_identity_id
       JOIN identity ri ON ri.tenant_id = c.tenant_id AND ri.identity_id = c.right_identity_id
       WHERE c.tenant_id = ? AND c.status = ? ORDER BY c.created_at, c.case_id LIMIT ? OFFSET ?`,
    )
    .all(tenantId, status, limit, offset) as {
    case_id: string;
    kind: ReviewKind;
    status: string;
    left_eid: string;
    left_version: number;
    right_eid: string;
    right_version: number;
    profile_version: number;
    score: number;
    decision: 'certain' | 'probable';
    evidence_json: string;
    created_at: string;
  }[];
  return rows.map((r) => ({
    caseId: r.case_id,
    kind: r.kind,
    status: r.status,
    leftEnterpriseId: r.left_eid,
    leftVersion: r.left_version,
    rightEnterpriseId: r.right_eid,
    rightVersion: r.right_version,
    matchingProfileVersion: r.profile_version,
    score: r.score,
    decision: r.decision,
    evidence: JSON.parse(r.evidence_json) as FieldEvidence[],
    createdAt: r.created_at,
  }));
}
