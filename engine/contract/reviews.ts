/**
 * Review cases as the console, the CLI and the registry API read and decide them. A case asks whether two
 * enterprise identities are one person; a job or an ingestion opened it. A reviewer records a decision (same
 * person, different people, unsure) with a reason; the registry never merges on it: a merge stays with the
 * organisation's governed process. "Different people" is remembered while neither identity's records change.
 * Browser-safe: zod only.
 */
import { z } from 'zod';
import { MatchResultSchema, RecordRefSchema, ScoreLimitSchema, TwinReasonSchema } from './matching.ts';
import { LinkFlagSchema } from './link-quality.ts';
import { countOfText, countText } from './count-text.ts';

/** The longest reason a review decision may give (characters, after trimming). */
export const DECISION_REASON_MAX = 500;

/** LinkQuality: one identity whose records look wrongly linked (the link-quality scan); both sides name it. */
export const REVIEW_KINDS = ['IngestionMatch', 'PopulationReconciliation', 'LinkQuality'] as const;
export const ReviewKindSchema = z.enum(REVIEW_KINDS);
export type ReviewKind = z.infer<typeof ReviewKindSchema>;

/** Each kind's name, as the Review cases page, the identity history and the CLI's sentences call it. */
export const REVIEW_KIND_NAME: Record<ReviewKind, string> = {
  IngestionMatch: 'Ingestion',
  PopulationReconciliation: 'Reconciliation',
  LinkQuality: 'Link quality',
};

export const REVIEW_DECISIONS = ['same-person', 'different-people', 'unsure'] as const;
export const ReviewDecisionSchema = z.enum(REVIEW_DECISIONS);
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** Each decision in words, wherever a person reads it. */
export const REVIEW_DECISION_NAME: Record<ReviewDecision, string> = {
  'same-person': 'Same person',
  'different-people': 'Different people',
  unsure: 'Unsure',
};

/** open: no final decision yet (an "unsure" keeps a case open); resolved: same person or different people. */
export const ReviewStatusSchema = z.enum(['open', 'resolved', 'dismissed']);

export const REVIEW_SORTS = ['newest', 'oldest', 'score-high', 'score-low', 'most-doubtful'] as const;

const CaseIdSchema = z.string().regex(/^rc-[0-9a-f]{32}$/, 'a review case ID is rc- and 32 hexadecimal digits');

export const ReviewCaseSchema = z.object({
  caseId: z.string(),
  kind: ReviewKindSchema,
  status: ReviewStatusSchema,
  leftEnterpriseId: z.string(),
  leftVersion: z.number().int(),
  rightEnterpriseId: z.string(),
  rightVersion: z.number().int(),
  matchingProfileVersion: z.number().int(),
  score: z.number(),
  /** The matching decision that opened the case (not a reviewer's). */
  decision: z.enum(['certain', 'probable']),
  evidence: MatchResultSchema.shape.evidence,
  /**
   * The rule that held the pair's score at Probable when the case was opened (a possible twin, names only, …: its
   * score is then the Probable threshold, whatever its fields add up to); null when none did, or for a case opened
   * before the registry recorded it.
   */
  limitedBy: ScoreLimitSchema.nullable(),
  /** With limitedBy: the score the pair's fields gave before the rule held it; null otherwise. */
  heldFrom: z.number().min(0).max(1).nullable(),
  /**
   * With limitedBy `PossibleTwin`: which case of the twin rule held the pair (MatchResult.twinReason); null otherwise
   * or for a case opened before the registry recorded it; absent from older registries.
   */
  twinReason: TwinReasonSchema.nullable().optional(),
  createdAt: z.string(),
  /** The job that opened the case; null for an ingestion outside a job and for cases older than this field. */
  jobId: z.string().nullable(),
  /** For an ingestion case, the source system of the record that opened it. */
  sourceSystem: z.string().nullable(),
  /** True when either identity changed (or was retired) since the case was opened: a decision would be refused. */
  stale: z.boolean(),
  /** The reviewer's latest decision, if any. */
  review: z.object({ decision: ReviewDecisionSchema, actor: z.string(), decidedAt: z.string() }).nullable(),
});
export type ReviewCase = z.infer<typeof ReviewCaseSchema>;

/**
 * A case as the list gives it. flags: for a LinkQuality case, those its identity's records raise now, judged as the
 * scan judges them (its first MAX_IDENTITY_RECORDS records); null for other kinds; absent from older registries.
 */
export const ReviewListRowSchema = ReviewCaseSchema.extend({ flags: z.array(LinkFlagSchema).nullable().optional() });
export type ReviewListRow = z.infer<typeof ReviewListRowSchema>;

export const ReviewListInputSchema = z.strictObject({
  status: z.enum(['open', 'resolved', 'dismissed', 'all']).default('open'),
  kind: ReviewKindSchema.optional(),
  jobId: z.string().min(1).max(80).optional(),
  sourceSystem: z.string().min(1).max(100).optional(),
  /**
   * Only cases opened after this instant (an ISO 8601 date and time): with `sourceSystem`, the cases of that source's
   * latest ingest are those opened after its ingest before ended (the Health page's `at`).
   */
  openedAfter: z.iso.datetime({ offset: true }).optional(),
  /**
   * Only cases the rule held at Probable when they were opened (`limitedBy`), or `none`: only cases no rule held.
   * With `twinReason`: only the twin rule's cases of that case (only a `PossibleTwin` case has one, so beside another
   * rule it holds none).
   */
  limitedBy: z.union([ScoreLimitSchema, z.literal('none')]).optional(),
  twinReason: TwinReasonSchema.optional(),
  /** Only cases whose identities are still at the versions the case names (decidable now). */
  currentOnly: z.boolean().default(false),
  /** Also count the cases of every hold (`holds` in the answer): what each choice of `limitedBy` would list. */
  withHolds: z.boolean().default(false),
  sort: z.enum(REVIEW_SORTS).default('oldest'),
  limit: z.number().int().min(1).max(1000).default(50),
  offset: z.number().int().min(0).default(0),
});

const IdentityRecordsSchema = z.object({
  enterpriseId: z.string(),
  /** The identity's logical version now (a case whose versions differ is stale: its identities changed). */
  version: z.number().int(),
  active: z.boolean(),
  /** Its linked source records, oldest first (at most RECORDS_SHOWN). */
  records: z.array(RecordRefSchema),
  /** All its linked records, of which `records` holds the oldest (an identity may hold hundreds). Older registries leave it out. */
  recordCount: z.number().int().optional(),
});

/** The most records of each identity a case's detail carries and compares. */
export const RECORDS_SHOWN = 100;

/**
 * An identity's records as the case page and `review show` say them: "3 records", or past RECORDS_SHOWN "130 records
 * (the case compares its oldest 100)", never the records carried counted as if they were all of them.
 */
export function identityRecordsText(side: {
  readonly records: readonly unknown[];
  readonly recordCount?: number | undefined;
}): string {
  const total = side.recordCount ?? side.records.length;
  return total > side.records.length
    ? `${countText(total)} records (the case compares its oldest ${countText(side.records.length)})`
    : countOfText(total, 'record');
}

export const ReviewDecisionRowSchema = z.object({
  decision: ReviewDecisionSchema,
  reason: z.string(),
  actor: z.string(),
  decidedAt: z.string(),
});

export const ReviewCaseDetailSchema = z.object({
  case: ReviewCaseSchema,
  left: IdentityRecordsSchema,
  right: IdentityRecordsSchema,
  /**
   * The pair to compare first: for two identities, the two records that score best under the active profile; for a
   * LinkQuality case, the pair bestPairShows names.
   */
  bestPair: z.object({ left: RecordRefSchema, right: RecordRefSchema, score: z.number() }).nullable(),
  /**
   * LinkQuality: the flag the pair shown first stands for. weak-bridge: the identity's weakest link (the pair its
   * records hold together by last); same-source: the lowest-scoring two records of one source; sex-conflict or
   * birth-date-conflict: the lowest-scoring pair in that conflict. Null: the weakest link of an identity no such flag
   * names now, and every other kind of case (its strongest pair). Older registries leave it out.
   */
  bestPairShows: LinkFlagSchema.nullable().optional(),
  decisions: z.array(ReviewDecisionRowSchema),
  /** LinkQuality: every pair of the identity's records with its score (indexes into left.records); else null. */
  graph: z.array(z.object({ a: z.number().int(), b: z.number().int(), score: z.number() })).nullable(),
  /**
   * LinkQuality: the flags the identity's records raise now, judged as the link-quality scan judges them (under the
   * active profile and the scan's default bound, MAX_IDENTITY_RECORDS); else null. Older registries leave it out.
   */
  flags: z.array(LinkFlagSchema).nullable().optional(),
  /**
   * A dismissed case: the newest case about the same identities, which superseded it (a new case about a pair
   * dismisses the out-of-date ones still open). Null otherwise.
   */
  supersededBy: z.string().nullable(),
});
export type ReviewCaseDetail = z.infer<typeof ReviewCaseDetailSchema>;

/** What review-queue labels are, said wherever they are used. */
export const REVIEW_QUEUE_NOTE =
  'They are reviewers’ decisions on pairs the model already found uncertain, so they over-represent hard cases: use them to check thresholds near the review band. Precision, recall and F1 computed on them are not the registry’s accuracy.';

export const reviewOperations = {
  'reviews/list': {
    input: ReviewListInputSchema,
    /**
     * total: the cases that match the filters (for paging). sources: every source system the tenant's cases name
     * (whatever the filters), ascending: the values the sourceSystem filter can take; absent from older registries.
     */
    output: z.object({
      total: z.number().int(),
      sources: z.array(z.string()).optional(),
      /**
       * With `withHolds`: the cases that match every filter but `limitedBy` and `twinReason`, counted by the rule that
       * held them (null: none) and, for the twin rule, its case (null: none recorded), most first. With status
       * `resolved`, `samePerson`: how many of them were decided the same person (the rest different people); absent
       * otherwise and from older registries.
       */
      holds: z
        .array(
          z.object({
            limitedBy: ScoreLimitSchema.nullable(),
            twinReason: TwinReasonSchema.nullable(),
            cases: z.number().int(),
            samePerson: z.number().int().optional(),
          }),
        )
        .optional(),
      rows: z.array(ReviewListRowSchema),
    }),
  },
  'reviews/get': { input: z.strictObject({ caseId: CaseIdSchema }), output: ReviewCaseDetailSchema },
  'reviews/decide': {
    input: z.strictObject({
      caseId: CaseIdSchema,
      decision: ReviewDecisionSchema,
      reason: z.string().trim().min(1).max(DECISION_REASON_MAX),
    }),
    output: z.object({ case: ReviewCaseSchema }),
  },
  'reviews/labels': {
    /** Decided cases as five-column TSV labels (same person → match, different people → non-match). */
    input: z.strictObject({ jobId: z.string().min(1).max(80).optional() }),
    output: z.object({ tsv: z.string(), labels: z.number().int(), note: z.string() }),
  },
} as const;
