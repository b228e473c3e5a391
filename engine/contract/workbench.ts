/**
 * The labelling workbench's read (`labels/candidates`): record pairs the scorer really meets (blocking
 * candidates, as `labels/sample` draws its non-matches), scored by the active profile, in a score range and
 * nearest the thresholds first, each with BOTH records' matching fields and the field evidence. Unlike every
 * other assurance output it carries patient values (the normalised fields the comparators saw): it is for an
 * analyst holding `mpi.admin` labelling pairs, and its values go to the page only, never to logs, errors,
 * audit text or job records.
 */
import { z } from 'zod';
import { VersionsSchema } from './assurance.ts';
import {
  DecidedBySchema,
  DecisionSchema,
  FieldEvidenceSchema,
  RecordRefSchema,
  ScoreLimitSchema,
  TwinReasonSchema,
} from './matching.ts';
import { HardConflictRuleSchema } from './profile.ts';
import { ScoreBasisSchema } from './score-explanation.ts';

export const CANDIDATE_ORDERS = ['near-thresholds', 'highest-first', 'lowest-first'] as const;
export const CandidateOrderSchema = z.enum(CANDIDATE_ORDERS);
export type CandidateOrder = z.infer<typeof CandidateOrderSchema>;

/** At most this many candidate pairs are scored per call (a seeded uniform sample of the candidates beyond it). */
export const MAX_SCORED_CANDIDATES = 20_000;
export const MAX_CANDIDATES_PER_PAGE = 200;

export const CandidatePairsInputSchema = z
  .strictObject({
    /** Only pairs scoring within [minScore, maxScore]. */
    minScore: z.number().min(0).max(1).default(0),
    maxScore: z.number().min(0).max(1).default(1),
    /** near-thresholds: the smallest distance to Probable or Certain first. */
    order: CandidateOrderSchema.default('near-thresholds'),
    offset: z.number().int().min(0).max(MAX_SCORED_CANDIDATES).default(0),
    limit: z.number().int().min(1).max(MAX_CANDIDATES_PER_PAGE).default(50),
    /** Chooses the sample when there are more candidates than are scored; the same seed gives the same pairs. */
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .refine((input) => input.minScore <= input.maxScore, {
    message: 'minScore must not exceed maxScore',
    path: ['minScore'],
  });

/** The normalised matching fields of a record (engine/contract/fields.ts MatchFields), for display. */
export const DisplayFieldsSchema = z.object({
  familyName: z.string().nullable(),
  previousFamilyNames: z.array(z.string()),
  givenName: z.string().nullable(),
  middleNames: z.string().nullable(),
  /** The name's generational suffix (jr, sr, ii, iii, iv), when it has one (MatchFields.generation). */
  generation: z.string().optional(),
  birthDate: z.string().nullable(),
  /** A partial birth date (YYYY or YYYY-MM) when the source sent only that (MatchFields.partialBirthDate). */
  partialBirthDate: z.string().optional(),
  /** The birth order of one of a multiple birth (1, 2, ...), when the source sent one (MatchFields.birthOrder). */
  birthOrder: z.number().int().optional(),
  /** True when the source says one of a multiple birth (MatchFields.multipleBirth). */
  multipleBirth: z.literal(true).optional(),
  sex: z.string().nullable(),
  addressLine: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  identifiers: z.array(z.object({ system: z.string(), value: z.string() })),
});
export type DisplayFields = z.infer<typeof DisplayFieldsSchema>;

export const CandidateRecordSchema = RecordRefSchema.extend({ fields: DisplayFieldsSchema });

export const CandidatePairSchema = z.object({
  left: CandidateRecordSchema,
  right: CandidateRecordSchema,
  score: z.number(),
  decision: DecisionSchema,
  decidedBy: DecidedBySchema,
  conflictRule: HardConflictRuleSchema.optional(),
  limitedBy: ScoreLimitSchema.optional(),
  /** With limitedBy `PossibleTwin`: which case of the twin rule held the pair (MatchResult.twinReason). */
  twinReason: TwinReasonSchema.optional(),
  /** The prior lowered for the registry's size (MatchResult.priorAdjustment). */
  priorAdjustment: z.number().optional(),
  evidence: z.array(FieldEvidenceSchema),
});
export type CandidatePair = z.infer<typeof CandidatePairSchema>;

export const CandidatePairsOutputSchema = z.object({
  versions: VersionsSchema,
  scoreBasis: ScoreBasisSchema,
  population: z.object({
    /** Source records of the tenant. */
    records: z.number().int(),
    /** Present when the draw read a seeded uniform sample of the records (more than MAX_SAMPLED_RECORDS, engine/assurance/record-sample.ts): its size. */
    sampledRecords: z.number().int().optional(),
    /** Distinct record pairs sharing a usable blocking key (counted up to a bound; see truncated). */
    candidatePairs: z.number().int(),
    /** True when counting stopped at the bound: candidatePairs is then a lower bound. */
    truncated: z.boolean(),
    /** Candidate pairs scored: all of them, or a seeded uniform sample of MAX_SCORED_CANDIDATES. */
    scoredPairs: z.number().int(),
    /** Scored pairs within [minScore, maxScore]: the length of the ordered list offset and limit page through. */
    inRange: z.number().int(),
  }),
  order: CandidateOrderSchema,
  offset: z.number().int(),
  pairs: z.array(CandidatePairSchema),
});
export type CandidatePairsOutput = z.infer<typeof CandidatePairsOutputSchema>;
