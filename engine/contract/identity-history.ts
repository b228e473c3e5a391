/**
 * An identity's history: why each record is where it is. Record arrivals (how they were decided, with what score,
 * under which profile version, by which job), record updates, canonical rebuilds, review cases and the decisions
 * on them, in time order. References and figures only, unless the caller asks for the identity's surviving record
 * (withValues). Browser-safe: zod only.
 */
import { z } from 'zod';
import { REVIEW_DECISION_NAME, REVIEW_KIND_NAME, ReviewDecisionSchema, ReviewKindSchema } from './reviews.ts';
import { DisplayFieldsSchema } from './workbench.ts';
import { RecordRefSchema } from './matching.ts';
import { MAX_IDENTITY_RECORDS } from './link-quality.ts';

export const HISTORY_KINDS = [
  'identity-created',
  'record-joined',
  'record-linked',
  'record-updated',
  'canonical-rebuilt',
  'review-case-opened',
  'review-decided',
] as const;

export const HistoryEventSchema = z.object({
  at: z.string(),
  /**
   * identity-created: its first record arrived and no candidate was Certain; record-joined: a record was linked to
   * it as Certain (decidedBy says how); record-linked: a link older than the event log (time, kind and score only);
   * record-updated: a linked record changed; canonical-rebuilt: a reconciliation rebuilt its canonical record;
   * review-case-opened / review-decided: a review case about it, and a reviewer's decision on one.
   */
  kind: z.enum(HISTORY_KINDS),
  record: z.object({ sourceSystem: z.string(), localId: z.string() }).nullable(),
  decidedBy: z.enum(['trusted-identifier', 'score']).nullable(),
  score: z.number().nullable(),
  profileVersion: z.number().int().nullable(),
  jobId: z.string().nullable(),
  /** record-joined / identity-created: review cases the arrival opened. */
  reviewCases: z.number().int(),
  caseId: z.string().nullable(),
  caseKind: ReviewKindSchema.nullable(),
  decision: ReviewDecisionSchema.nullable(),
  actor: z.string().nullable(),
});
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

/** The fields of an event that its kind does not fill: every event starts from these. */
export const NO_EVENT_DETAIL = {
  record: null,
  decidedBy: null,
  score: null,
  profileVersion: null,
  jobId: null,
  reviewCases: 0,
  caseId: null,
  caseKind: null,
  decision: null,
  actor: null,
} as const satisfies Omit<HistoryEvent, 'at' | 'kind'>;

/**
 * With withValues, the records whose fields are given (the first ones in link order): as many as the link-quality
 * scan takes for one person; an identity with more is flagged too large, and its records are read by the scan.
 */
export const MAX_RECORDS_WITH_VALUES = MAX_IDENTITY_RECORDS;

export const IdentityHistorySchema = z.object({
  enterpriseId: z.string(),
  version: z.number().int(),
  status: z.enum(['active', 'retired']),
  createdAt: z.string(),
  records: z.array(
    z.object({
      sourceSystem: z.string(),
      localId: z.string(),
      linkedAt: z.string(),
      linkKind: z.string(),
      score: z.number().nullable(),
      /**
       * The record's normalised fields, only when asked (withValues), for the first MAX_RECORDS_WITH_VALUES records
       * in link order: an identity grown far past one person's records is read by the link-quality scan, not by eye.
       */
      fields: DisplayFieldsSchema.optional(),
    }),
  ),
  events: z.array(HistoryEventSchema),
  /** Records linked before the event log was kept (their link's time, kind and score are all there is). */
  recordsWithoutDetail: z.number().int(),
  /**
   * The identity's canonical record as survivorship last built it (ingest/survivorship.ts), only when asked
   * (withValues): each field's surviving value, normalised as the matcher compares it, and the record it came from
   * (`system/localId`). Identifiers and previous family names are the union of every record's and have no single
   * source. Patient values: the registry API grants the operation to mpi.admin only; never logged, never in an error.
   */
  canonical: z
    .object({
      fields: DisplayFieldsSchema,
      provenance: z.record(z.string(), z.string()),
      /** The records survivorship read when it last built the record. */
      recordCount: z.number().int(),
    })
    .optional(),
});
export type IdentityHistory = z.infer<typeof IdentityHistorySchema>;

export const identityHistoryOperations = {
  /**
   * The identity a source record is linked to, by the record's source system and local identifier: where an analyst
   * starts from a record (a complaint, a source's query) rather than a review case. Not found names the source only:
   * a local identifier can be a medical record number.
   */
  'identities/of-record': {
    input: RecordRefSchema,
    output: z.object({ enterpriseId: z.string(), status: z.enum(['active', 'retired']) }),
  },
  /**
   * The source systems the tenant's records came from, each once, in ascending order: what "Open a record's identity"
   * offers, including a source since dropped from the profile whose records are still held.
   */
  'records/sources': {
    input: z.strictObject({}),
    output: z.object({ sources: z.array(z.string()) }),
  },
  'identities/history': {
    input: z.strictObject({ enterpriseId: z.string().min(1).max(64), withValues: z.boolean().optional() }),
    output: IdentityHistorySchema,
  },
} as const;

/** One event in words (the CLI's and the console's), without patient values. */
export function historyText(e: HistoryEvent): string {
  const record = e.record === null ? '' : `${e.record.sourceSystem}/${e.record.localId} `;
  const score = e.score === null ? '' : ` score ${e.score.toFixed(4)}`;
  const under =
    e.profileVersion === null
      ? ''
      : ` (profile v${String(e.profileVersion)}${e.jobId === null ? '' : `, job ${e.jobId}`})`;
  switch (e.kind) {
    case 'identity-created':
      return `${record}arrived; no candidate was Certain, so a new identity${score === '' ? '' : ` (best candidate${score})`}${under}`;
    case 'record-joined':
      return `${record}joined: certain by ${e.decidedBy === 'trusted-identifier' ? 'a trusted identifier' : 'score'}${e.score === null ? '' : ` (${e.score.toFixed(4)})`}${under}`;
    case 'record-linked':
      return `${record}linked${e.score === null ? '' : ` with score ${e.score.toFixed(4)}`} (before the history was kept: how it was decided is not recorded)`;
    case 'record-updated':
      return `${record}updated by its source${under}`;
    case 'canonical-rebuilt':
      return `canonical record rebuilt by reconciliation${under}`;
    case 'review-case-opened':
      return `${e.caseKind === null ? 'a' : withArticle(REVIEW_KIND_NAME[e.caseKind].toLowerCase())} review case ${e.caseId ?? ''} opened${caseScore(e)}${under}`;
    case 'review-decided':
      return `review case ${e.caseId ?? ''} decided: ${e.decision === null ? 'no decision' : REVIEW_DECISION_NAME[e.decision].toLowerCase()}, by ${e.actor ?? 'an unknown reviewer'}`;
  }
}

/** "an ingestion", "a link quality": a case's kind as the Review cases page names it, in a sentence. */
function withArticle(name: string): string {
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** A pair's score; a link quality case is about one identity, so its score is that identity's weakest link. */
function caseScore(e: HistoryEvent): string {
  if (e.score === null) return '';
  return e.caseKind === 'LinkQuality'
    ? ` on its weakest link, scored ${e.score.toFixed(4)}`
    : ` on a pair scored ${e.score.toFixed(4)}`;
}
