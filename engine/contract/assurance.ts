/**
 * Matching assurance in the contract: labelled pairs, the evaluation request and report, the calibration
 * request and its { model, report } answer, profile rollback and labelled-pair sampling from a synthetic
 * sandbox (spec "Label pair", "Evaluation request", "Evaluation report", "Calibration request",
 * "Calibration behaviour"). Report field names are ours (the spec shows none); every metric whose
 * denominator is zero is null, never 0.
 */
import { z } from 'zod';
import {
  DecidedBySchema,
  DecisionSchema,
  FieldEvidenceSchema,
  RecordRefSchema,
  ScoreLimitSchema,
  TwinReasonSchema,
  ScoreMethodSchema,
} from './matching.ts';
import { FieldNameSchema } from './fields.ts';
import { FellegiSunterModelSchema, HardConflictRuleSchema, PriorMatchProbabilitySchema } from './profile.ts';
import { ScoreDistributionSchema } from './statistics/score-distribution.ts';
import { IntervalSchema, ThresholdMetricsSchema, type ThresholdMetrics } from './statistics/threshold-metrics.ts';
import { ScoreBasisSchema } from './score-explanation.ts';

/** At most this many pairs per evaluation or calibration dataset (spec "Limits"). */
export const MAX_DATASET_PAIRS = 10_000;
/** The least additive smoothing calibration accepts (see CalibrationRequestSchema). */
export const MIN_SMOOTHING = 1e-4;
/** A report never carries more error examples than this (spec "Limits"). */
export const MAX_ERROR_EXAMPLES = 100;

/**
 * Review pairs per 1,000 records the estimate's suggested thresholds and a calibration's live thresholds (with u from
 * random pairs) allow by default: two thirds of the 30 review cases per
 * 1,000 records a team can work through (issue 12), because a bulk load scores pairs against the name counts of
 * its moment, not the final ones the estimate sees, and opens somewhat more cases than the estimate counts
 * (FEBRL 3 on names and dates: 160 cases where the estimate counted at most 150 pairs).
 */
export const DEFAULT_REVIEW_BUDGET = 20;
/** A review budget: candidate pairs in the review band per 1,000 records (the estimate's and calibration's). */
export const ReviewBudgetSchema = z.number().min(0).max(100_000);

export const LabelPairSchema = z.strictObject({ left: RecordRefSchema, right: RecordRefSchema, isMatch: z.boolean() });

const ProbabilitySchema = z.number().min(0).max(1);

/** Shared request fields. rowNumbers (same length as pairs) name rows `line N` in errors; without it they are `pairs[i]`. */
const DatasetFields = {
  datasetId: z.string().min(1).max(200),
  pairs: z.array(LabelPairSchema).max(MAX_DATASET_PAIRS),
  rowNumbers: z.array(z.number().int().min(1)).max(MAX_DATASET_PAIRS).optional(),
};

export const EvaluationRequestSchema = z.strictObject({
  ...DatasetFields,
  thresholds: z.array(ProbabilitySchema).min(1).max(50),
  maximumErrorExamples: z.number().int().min(0).max(1_000_000).default(10),
});

/** Where a calibrated model's u-probabilities come from (CalibrationRequestSchema.uFrom). */
export const U_SOURCES = ['labels', 'random-pairs'] as const;
export type USource = (typeof U_SOURCES)[number];

export const CalibrationRequestSchema = z.strictObject({
  ...DatasetFields,
  modelVersion: z.string().min(1).max(100),
  /** Within the model's bounds (engine/contract/profile.ts), so the calibrated model always validates. */
  priorMatchProbability: PriorMatchProbabilitySchema,
  /**
   * Additive (Laplace/Lidstone) smoothing. At least MIN_SMOOTHING: with at most 10,000 pairs a band's
   * probability is then at least 1e-4 / (10,000 + 4e-4) ≈ 1e-8 from 0 and from 1, inside the model's bounds.
   */
  smoothing: z.number().min(MIN_SMOOTHING).max(1_000),
  validationFraction: z.number().gt(0).lt(1),
  targetPrecision: ProbabilitySchema,
  /**
   * Extension: where the model's u-probabilities come from. `labels` (the specification's method, the default): the
   * labelled non-matches, and the model's prior is priorMatchProbability as given. `random-pairs`: random pairs of
   * the tenant's records, and the prior restated over all record pairs (engine/assurance/registry-u.ts);
   * priorMatchProbability is still the share of true pairs among blocking candidates, and the live thresholds are
   * read with it. Labels drawn from blocking candidates make u from labels high on every blocked field.
   */
  uFrom: z
    .enum(U_SOURCES)
    .default('labels')
    .describe(
      "Extension, not in the interface specification: where the model's u-probabilities come from. labels (the default): the labelled non-matches. random-pairs: random pairs of the tenant's records, with the prior restated over all record pairs; the report's uSource says what was read.",
    ),
  /**
   * Extension: the live thresholds' review band stops growing before it would hold more than this many candidate pairs
   * per 1,000 records, as the estimate's suggested Probable does (engine/assurance/live-thresholds.ts). With u from
   * random pairs only: they count the registry's candidates; u from the labels reads nothing of the registry.
   */
  reviewBudget: ReviewBudgetSchema.default(DEFAULT_REVIEW_BUDGET).describe(
    "Extension, not in the interface specification: the live thresholds' review band holds at most this many of the registry's candidate pairs per 1,000 records, as the estimate's suggested thresholds do. Applied with uFrom random-pairs, which counts the registry's candidates; ignored with uFrom labels.",
  ),
});

export const VersionsSchema = z.object({
  matchingProfileVersion: z.number().int(),
  comparatorVersion: z.string(),
  scoreMethod: ScoreMethodSchema,
  scoreMethodVersion: z.string(),
});

/** The active profile's versions, what the Match assurance page shows before a run (extension `profile/summary`). */
export const ProfileSummarySchema = VersionsSchema.extend({
  createdAt: z.string(),
  reason: z.string(),
  thresholds: z.object({ certain: z.number(), probable: z.number() }),
  /**
   * The tenant's source systems (SourceTrust) with an external FHIR source configured to import from
   * (Maintenance.FhirSources): what a reconciliation may name as externalSourceSystem. Names only. Optional: older
   * engines lack it.
   */
  importSources: z.array(z.string()).optional(),
  /**
   * The profile's blocking key versions (active, inactive) that the configuration file holds no secret for: until
   * the configuration file the registry was made with is back, nothing that reads or writes blocking tags can run
   * (ingestion, re-index, reconciliation, evaluation, the estimate, explaining a pair with its values). Empty when
   * none is missing. Optional: older engines lack it.
   */
  missingKeyVersions: z.array(z.string()).optional(),
});

export const ClassCountsSchema = z.object({
  pairs: z.number().int(),
  matches: z.number().int(),
  nonMatches: z.number().int(),
});

export const BlockingRecallSchema = z.object({
  /** How a true pair counts as found; stated in the report so a reader needs no source code. */
  rule: z.string(),
  maximumBlockSize: z.number().int(),
  truePairs: z.number().int(),
  found: z.number().int(),
  missed: z.number().int(),
  recall: z.number().nullable(),
});

/**
 * The metrics per threshold end to end: a pair is predicted a match only when blocking brings its records
 * together and its score reaches the threshold, so a true pair blocking cannot find is a false negative and
 * a labelled non-match blocking never compares a true negative (engine/assurance/end-to-end-metrics.ts).
 */
export const EndToEndMetricsSchema = z.object({
  /** What the figures mean, in plain words, so a reader needs no source code. */
  explanation: z.string(),
  /** Labelled pairs candidate discovery would never compare, by class. */
  notCandidates: z.object({ matches: z.number().int(), nonMatches: z.number().int() }),
  thresholds: z.array(ThresholdMetricsSchema),
});
export type EndToEndMetrics = z.infer<typeof EndToEndMetricsSchema>;

export const FieldSimilaritySchema = z.object({
  field: FieldNameSchema,
  /** Mean similarity over the pairs of the class where both records have the field; null when none has. */
  matchMean: z.number().nullable(),
  matchObserved: z.number().int(),
  nonMatchMean: z.number().nullable(),
  nonMatchObserved: z.number().int(),
});

export const ErrorExampleSchema = z.object({
  left: RecordRefSchema,
  right: RecordRefSchema,
  isMatch: z.boolean(),
  score: z.number(),
  decidedBy: DecidedBySchema,
  evidence: z.array(FieldEvidenceSchema),
  /** The scorer's decision, the hard-conflict rule that decided and the name-evidence cap (optional: older reports lack them). */
  decision: DecisionSchema.optional(),
  conflictRule: HardConflictRuleSchema.optional(),
  limitedBy: ScoreLimitSchema.optional(),
  /** With limitedBy `PossibleTwin`: which case of the twin rule held the pair (MatchResult.twinReason). */
  twinReason: TwinReasonSchema.optional(),
  /** The prior lowered for the registry's size (MatchResult.priorAdjustment). */
  priorAdjustment: z.number().optional(),
});

export const EvaluationReportSchema = z.object({
  datasetId: z.string(),
  /** SHA-256 (hex) of the ordered pairs; serialisation in engine/assurance/dataset-digest.ts. */
  datasetDigest: z.string(),
  versions: VersionsSchema,
  labels: ClassCountsSchema.extend({ distinctRecords: z.number().int() }),
  /** How the pairs were decided by the scorer's precedence (trusted identifier, hard conflict, score). */
  decidedBy: z.object({ trustedIdentifier: z.number().int(), hardConflict: z.number().int(), score: z.number().int() }),
  scoreNote: z.string(),
  blockingRecall: BlockingRecallSchema,
  thresholds: z.array(ThresholdMetricsSchema),
  /** Beside `thresholds` (the scorer on the labelled pairs): blocking misses counted. Optional: older registries report none. */
  endToEnd: EndToEndMetricsSchema.optional(),
  fieldSimilarity: z.array(FieldSimilaritySchema),
  errorExamples: z.object({
    rule: z.string(),
    requested: z.number().int(),
    falsePositives: z.array(ErrorExampleSchema),
    falseNegatives: z.array(ErrorExampleSchema),
  }),
  /**
   * The scores by class in fine bins, aggregates only (score-distribution.ts): the confusion matrix at any
   * bin edge and the threshold curves. Optional: a registry running older code reports none.
   */
  scoreDistribution: ScoreDistributionSchema.optional(),
  /** The scorer's constant terms, so that an error example's field contributions add up to its score. */
  scoreBasis: ScoreBasisSchema.optional(),
});
export type EvaluationReport = z.infer<typeof EvaluationReportSchema>;

/** One bin of a reliability diagram: held-out pairs whose predicted probability lies in [lower, upper). */
export const ReliabilityBinSchema = z.object({
  lower: z.number(),
  /** Exclusive, except for the last bin, which holds predictions equal to 1. */
  upper: z.number(),
  pairs: z.number().int(),
  /** Mean predicted probability of the bin's pairs; null for an empty bin. */
  meanPredicted: z.number().nullable(),
  /** Share of labelled matches among them; null for an empty bin. */
  observed: z.number().nullable(),
  /** Wilson 95% interval of the observed share; null for an empty bin. */
  observedInterval: IntervalSchema,
});
export type ReliabilityBin = z.infer<typeof ReliabilityBinSchema>;

/** The held-out pairs behind a recommended threshold: the gap of observed scores it sits in, and how many pairs it admits. */
export const ThresholdSupportSchema = z.object({
  heldOutPairs: z.number().int(),
  /** Held-out pairs scoring at or above the threshold (predicted matches). */
  atOrAbove: z.number().int(),
  /** The threshold is the simplest number in (highestExcludedScore, lowestAdmittedScore]: every value there gives the same held-out figures. */
  lowestAdmittedScore: z.number(),
  highestExcludedScore: z.number().nullable(),
});

export const RecommendedThresholdSchema = z.object({
  threshold: z.number().nullable(),
  explanation: z.string(),
  metrics: ThresholdMetricsSchema.nullable(),
  /** How the target is judged met (meetingTargetPrecision only; optional: older reports lack it). */
  criterion: z.enum(['precision-lower-95-bound']).optional(),
  support: ThresholdSupportSchema.nullable().optional(),
  /** When no threshold meets the target: the best achievable one (highest lower bound of precision). */
  bestAchievable: z
    .object({ threshold: z.number(), metrics: ThresholdMetricsSchema, support: ThresholdSupportSchema })
    .nullable()
    .optional(),
});
export type RecommendedThreshold = z.infer<typeof RecommendedThresholdSchema>;

const LiveOperatingPointSchema = z.object({
  threshold: z.number(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  /** Live precision with 95% confidence (TPR's lower, FPR's upper Wilson bound); optional: older reports lack it. */
  precisionLowerBound: z.number().nullable().optional(),
});

/**
 * The thresholds to apply with a calibrated model in live matching (engine/assurance/live-thresholds.ts): held-out
 * recall and false-positive rate, with precision corrected from the labels' balance of classes to the live share of
 * true pairs (the model's prior). Optional: older reports lack it.
 */
export const LiveThresholdsSchema = z.object({
  Certain: z.number(),
  Probable: z.number(),
  /** The live share of true pairs among the pairs the scorer meets: the model's priorMatchProbability. */
  prior: z.number(),
  targetPrecisionMet: z.boolean(),
  /** 'target', 'best-shown' (short of the target, at least 0.95 shown) or 'highest-score'; optional as below. */
  certainFrom: z.enum(['target', 'best-shown', 'highest-score']).optional(),
  atCertain: LiveOperatingPointSchema,
  atProbable: LiveOperatingPointSchema,
  /**
   * The non-matches the live false-positive rate is read on (those the model never learned from: the held-out ones,
   * and with u from random pairs the training ones too), and about how many would show the target when it is not met;
   * optional as above.
   */
  heldOutNonMatches: z.number().int().optional(),
  heldOutNonMatchesNeeded: z.number().int().nullable().optional(),
  /**
   * The review band's expected load against the request's review budget: the registry's candidate pairs read through
   * the labels' rates at the live share (engine/assurance/live-thresholds.ts). Present with u from random pairs only;
   * older reports lack it.
   */
  reviewLoad: z
    .object({
      budgetPerThousandRecords: z.number(),
      pairsPerThousandRecords: z.number(),
      budgetRaisedProbable: z.boolean(),
      unbudgetedPairsPerThousandRecords: z.number(),
    })
    .optional(),
  /** How many of heldOutNonMatches are training non-matches (0 when u came from the labels); optional as above. */
  nonMatchesFromTraining: z.number().int().optional(),
  /**
   * The active profile on the same unseen labelled pairs, at its own thresholds, at the same live share
   * (engine/assurance/profile-comparison.ts); keepProfile when it does at least as well at Certain. Optional: older
   * reports lack it. Measured on the same pairs as the live thresholds, so present whenever they are.
   */
  againstProfile: z
    .object({
      Certain: z.number(),
      Probable: z.number(),
      atCertain: LiveOperatingPointSchema,
      atProbable: LiveOperatingPointSchema,
      keepProfile: z.boolean(),
    })
    .nullable()
    .optional(),
  explanation: z.string(),
});
export type LiveThresholds = z.infer<typeof LiveThresholdsSchema>;

export const CalibrationReportSchema = z.object({
  datasetId: z.string(),
  datasetDigest: z.string(),
  modelVersion: z.string(),
  trainedAgainst: VersionsSchema,
  labels: ClassCountsSchema,
  training: ClassCountsSchema.extend({ decidedOutsideModel: z.number().int() }),
  validation: ClassCountsSchema.extend({ decidedOutsideModel: z.number().int() }),
  estimation: z.string(),
  /** Training observations per field and class (pairs where both records have the field). */
  fieldObservations: z.array(
    z.object({ field: FieldNameSchema, matches: z.number().int(), nonMatches: z.number().int() }),
  ),
  heldOut: z.object({
    brierScore: z.number().nullable(),
    logLoss: z.number().nullable(),
    thresholds: z.array(ThresholdMetricsSchema),
    /** Held-out scores under the new model by class in fine bins (aggregates only); optional as above. */
    scoreDistribution: ScoreDistributionSchema.optional(),
    /** Predicted against observed on the held-out pairs (a reliability diagram); optional as above. */
    reliability: z.array(ReliabilityBinSchema).optional(),
  }),
  f1Optimal: RecommendedThresholdSchema,
  targetPrecision: z.number(),
  meetingTargetPrecision: RecommendedThresholdSchema,
  liveThresholds: LiveThresholdsSchema.nullable().optional(),
  /** Extension: where u came from and, from random pairs, what was read and the prior set (absent in older reports). */
  uSource: z
    .discriminatedUnion('from', [
      z.object({ from: z.literal('labels') }),
      z.object({
        from: z.literal('random-pairs'),
        /** Random pairs compared (those the model scores). */
        randomPairs: z.number().int(),
        /** How many of them the labels' m and the prior take for one person, weighted out of u. */
        matchesWeightedOut: z.number(),
        sampledRecords: z.number().int(),
        /** The tenant's records: the registry size the model's prior is set for. */
        population: z.number().int(),
        /** Blocking candidate pairs among the sampled records (a lower bound when truncated). */
        candidatePairs: z.number().int(),
        truncated: z.boolean(),
        /** The caller's prior, the share of true pairs among candidates, and the model's: over all record pairs. */
        candidateShare: z.number(),
        prior: z.number(),
        explanation: z.string(),
      }),
    ])
    .optional(),
  caveat: z.string(),
  activated: z.literal(false),
});
export type CalibrationReport = z.infer<typeof CalibrationReportSchema>;

export const CalibrationOutputSchema = z.object({ model: FellegiSunterModelSchema, report: CalibrationReportSchema });

export const ProfileRollbackInputSchema = z.strictObject({ reason: z.string().min(1).max(500).default('rollback') });
export const ProfileRollbackOutputSchema = z.object({
  /** The new active version, whose content equals restoredFrom's. */
  matchingProfileVersion: z.number().int(),
  restoredFrom: z.number().int(),
  previousVersion: z.number().int(),
});

export const LabelSampleInputSchema = z.strictObject({
  maxPairs: z.number().int().min(2).max(MAX_DATASET_PAIRS).default(MAX_DATASET_PAIRS),
  seed: z.number().int().default(1),
});
export const LabelSampleOutputSchema = z.object({
  pairs: z.array(LabelPairSchema),
  /**
   * The blocking-candidate population the non-matches were drawn from: distinct record pairs sharing a
   * usable tag, and how many of them are true pairs. Their ratio estimates priorMatchProbability for
   * the pairs the scorer meets during ingestion.
   */
  candidates: z.object({
    pairs: z.number().int(),
    truePairs: z.number().int(),
    matchShare: z.number().nullable(),
    /** The tenant's records with ground truth. */
    records: z.number().int(),
    /**
     * Present when the candidate pairs were enumerated among a seeded uniform sample of this many records (more
     * than MAX_SAMPLED_RECORDS, engine/assurance/record-sample.ts): pairs and truePairs are then estimates for the
     * whole tenant, scaled from the sample.
     */
    sampledRecords: z.number().int().optional(),
    /** True when enumeration stopped at its bound: pairs and truePairs are then lower bounds. */
    truncated: z.boolean(),
  }),
});

export { IntervalSchema, ThresholdMetricsSchema, type ThresholdMetrics };
