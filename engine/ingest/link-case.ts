/**
 * A LinkQuality review case: one identity whose records a person should look at again (the link-quality scan's
 * flags, or an update that left its record apart from the rest of its identity). Its deterministic ID names the
 * identity, its version and the profile version. Nothing is unlinked: a reviewer decides, and unlinking is governed.
 */
import type { FieldEvidence } from '../contract/matching.ts';
import type { Store } from '../store/store.ts';
import { identityState } from '../store/identities.ts';
import { hasDecidedCaseAt, hasOpenCaseFor, insertReviewCase } from '../store/reviews.ts';
import { reviewCaseId } from './review-case-id.ts';

const LINK_QUALITY = 'LinkQuality';

export interface LinkCase {
  readonly identity: { readonly identityId: number; readonly enterpriseId: string; readonly version: number };
  /** The identity's weakest link. */
  readonly score: number;
  /** How doubtful the identity is (identity-judgement.ts doubtOf). */
  readonly doubt: number;
  /** The evidence of the pair a reviewer compares first. */
  readonly evidence: readonly FieldEvidence[];
  /** Where it came from, when an ingestion opened it: the job and the source whose update it was. */
  readonly jobId?: string | null;
  readonly sourceSystem?: string | null;
}

/**
 * Opens the case unless the identity changed since it was read (or was retired), a case about it is open at this
 * version, or a reviewer already decided one at this version. True when it was opened.
 */
export function openLinkCase(
  store: Store,
  tenantId: string,
  link: LinkCase,
  profileVersion: number,
  at: string,
): boolean {
  const { identity } = link;
  const now = identityState(store, tenantId, identity.identityId);
  if (now?.version !== identity.version || !now.active) return false;
  const side = { identityId: identity.identityId, version: identity.version };
  if (hasOpenCaseFor(store, tenantId, side, side) || hasDecidedCaseAt(store, tenantId, side)) return false;
  return insertReviewCase(
    store,
    tenantId,
    {
      caseId: reviewCaseId(tenantId, LINK_QUALITY, identity, identity, profileVersion),
      kind: LINK_QUALITY,
      leftIdentityId: identity.identityId,
      leftVersion: identity.version,
      rightIdentityId: identity.identityId,
      rightVersion: identity.version,
      profileVersion,
      score: link.score,
      decision: 'probable',
      evidence: link.evidence,
      doubt: link.doubt,
      jobId: link.jobId ?? null,
      sourceSystem: link.sourceSystem ?? null,
    },
    at,
  );
}
