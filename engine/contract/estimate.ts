/**
 * The unsupervised estimate in the contract (operation `matching/estimate`, CLI `estimate`): a Fellegi-Sunter
 * model fitted to the tenant's own records without labels (u from random record pairs, m and the candidates'
 * match share by expectation-maximisation over the blocking candidates), answered as { model, report }
 * like calibration, so `profile apply` takes the model unchanged. Never activated.
 */
import { z } from 'zod';
import { FieldNameSchema } from './fields.ts';
import { FellegiSunterModelSchema } from './profile.ts';
import { DEFAULT_REVIEW_BUDGET, MIN_SMOOTHING, ReviewBudgetSchema, VersionsSchema } from './assurance.ts';

/** Bounds on the work of one estimate (random pairs compared; candidate pairs compared and fitted). */
export const MAX_RANDOM_PAIRS = 5_000_000;
export const MAX_ESTIMATE_CANDIDATES = 1_000_000;
/**
 * Records an estimate reads by default: a registry with more is estimated on a seeded uniform sample of this many.
 * An estimate's memory and time grow with the records it reads (about 1.3 GiB and 10 s at 100,000 on the reference
 * machine, 4.4 GiB at a million), so a registry of millions would exhaust the engine's thread; a sample keeps every
 * estimate inside the 100,000-record figures.
 */
export const DEFAULT_ESTIMATE_RECORDS = 100_000;
export const MAX_ESTIMATE_RECORDS = 2_000_000;
/** Random record pairs compared for u by default (the estimate's, and a calibration's with u from random pairs). */
export const DEFAULT_RANDOM_PAIRS = 300_000;

export const EstimateRequestSchema = z.strictObject({
  modelVersion: z.string().min(1).max(100),
  /** Seeds the random pairs and the candidate sample: the same seed on the same records gives the same model. */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  /**
   * At most this many of the tenant's records are read: with more, a seeded uniform sample of them (every record pair
   * of the registry is then in the sample with the same chance, so the fitted m, u and prior describe the registry).
   */
  maxRecords: z.number().int().min(1_000).max(MAX_ESTIMATE_RECORDS).default(DEFAULT_ESTIMATE_RECORDS),
  /** Random record pairs compared for u (almost all are non-matches). */
  randomPairs: z.number().int().min(1_000).max(MAX_RANDOM_PAIRS).default(DEFAULT_RANDOM_PAIRS),
  /** At most this many blocking candidates are compared and fitted (a seeded uniform sample when there are more). */
  maxCandidatePairs: z.number().int().min(100).max(MAX_ESTIMATE_CANDIDATES).default(300_000),
  /** Additive smoothing (pseudo-count per band) of m and u, as in calibration. */
  smoothing: z.number().min(MIN_SMOOTHING).max(1_000).default(1),
  /** EM stops when no parameter changes by more than this in one iteration. */
  tolerance: z.number().gt(0).max(0.01).default(1e-6),
  maxIterations: z.number().int().min(1).max(10_000).default(1_000),
  /** Thresholds at which the model's own precision and recall are estimated (the profile's Probable and Certain are always added). */
  thresholds: z.array(z.number().min(0).max(1)).max(50).default([0.5, 0.8, 0.9, 0.95, 0.99]),
  /** Suggested Certain: the lowest score (at least 0.5) whose model-estimated auto-link precision reaches this. */
  targetPrecision: z.number().gt(0).lt(1).default(0.999),
  /** Suggested Probable: the highest score (at most Certain) whose model-estimated recall of auto-links and reviews reaches this. */
  targetRecall: z.number().gt(0).lt(1).default(0.999),
  /**
   * Suggested Probable is raised further, when needed, so that at most this many candidate pairs per 1,000 records
   * fall between Probable and Certain (a review queue people can work through; each review case holds one or more
   * pairs). A budget at least the candidate pairs per 1,000 records leaves Probable where the recall target puts it.
   */
  reviewBudget: ReviewBudgetSchema.default(DEFAULT_REVIEW_BUDGET),
});

export const EstimatedThresholdSchema = z.object({
  threshold: z.number(),
  /** Candidate pairs scoring at or above the threshold under the estimated model. */
  pairsAtOrAbove: z.number().int(),
  /** Sums of the mixture's match posteriors: model-estimated, not measured against labels. */
  expectedTruePositives: z.number(),
  expectedFalsePositives: z.number(),
  expectedFalseNegatives: z.number(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  f1: z.number().nullable(),
});
export type EstimatedThreshold = z.infer<typeof EstimatedThresholdSchema>;

export const EstimateReportSchema = z.object({
  modelVersion: z.string(),
  trainedAgainst: VersionsSchema,
  /** The tenant's records. */
  records: z.number().int(),
  /** Present when the estimate read a seeded uniform sample of the records (more than maxRecords): its size. */
  sampledRecords: z.number().int().optional(),
  /** matchesWeightedOut: Σ over the random pairs of their posterior of being one person, left out of u. */
  randomPairs: z.object({
    compared: z.number().int(),
    decidedOutsideModel: z.number().int(),
    seed: z.number().int(),
    matchesWeightedOut: z.number(),
  }),
  candidates: z.object({
    /** Distinct pairs sharing a usable blocking key (enumeration stops at its cap and says so). */
    enumerated: z.number().int(),
    truncated: z.boolean(),
    compared: z.number().int(),
    decidedByTrustedIdentifier: z.number().int(),
    decidedByHardConflict: z.number().int(),
    /** The pairs the model scores, and the distinct band patterns EM iterated over. */
    modelled: z.number().int(),
    distinctPatterns: z.number().int(),
  }),
  convergence: z.object({
    /** True only when every EM run behind the model converged (the joint fit, each m session, the final fit). */
    converged: z.boolean(),
    iterations: z.number().int(),
    maxIterations: z.number().int(),
    tolerance: z.number(),
    logLikelihood: z.number(),
    /** The objective's change over the last iteration (log-likelihood plus the smoothing's log-prior terms). */
    finalObjectiveChange: z.number(),
    finalParameterChange: z.number(),
  }),
  /**
   * m of these fields from one EM session per blocking rule over fields of the person (the rule's fields left out,
   * u held at the random-pair u; assurance/session-m.ts); the other fields' m from EM over all candidates. A
   * session with too few pairs is listed with a null match share. Optional so that an older registry's report
   * still parses; the engine always sends it.
   */
  mSessions: z
    .object({
      fields: z.array(FieldNameSchema),
      sessions: z.array(
        z.object({
          rule: z.string(),
          pairs: z.number().int(),
          matchShare: z.number().nullable(),
          iterations: z.number().int(),
          converged: z.boolean(),
          lastLogLikelihoodChange: z.number().nullable().optional(),
        }),
      ),
    })
    .optional(),
  /** λ: the mixture's match share among the modelled candidate pairs. */
  candidateMatchShare: z.number(),
  /**
   * Whether the fit can be trusted (assurance/fit-checks.ts): EM ran from several seeded starts, each checked; the
   * model is the best start that passed every check ('fitted'), or, when none did, the fallback it names
   * ('fallback': no thresholds are suggested beyond the profile's). `checks` are the chosen start's (or, on
   * fallback, the first start's). Optional so that an older registry's report still parses.
   */
  fit: z
    .object({
      status: z.enum(['fitted', 'fallback']),
      start: z.string().nullable(),
      checks: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })),
      attempts: z.array(
        z.object({
          start: z.string(),
          passed: z.boolean(),
          logLikelihood: z.number(),
          failedChecks: z.array(z.string()),
        }),
      ),
      anchor: z.object({
        fields: z.array(FieldNameSchema),
        applies: z.boolean(),
        exactPairs: z.number(),
        coincidences: z.number(),
        lowerBound: z.number(),
      }),
      fallback: z.string().optional(),
    })
    .optional(),
  /** Expected true pairs among all enumerated candidates: λ × modelled pairs, scaled up to the enumerated ones, plus trusted-identifier pairs. */
  expectedMatches: z.number(),
  priorMatchProbability: z.number(),
  prior: z.string(),
  fieldObservations: z.array(
    z.object({ field: FieldNameSchema, candidatePairs: z.number().int(), randomPairs: z.number().int() }),
  ),
  /**
   * Model-estimated precision and recall among candidate pairs; a true pair that blocking misses is not counted.
   * Empty when the fit failed its checks (fit.status 'fallback'), as is suggestedThresholdsAt: a refused fit's
   * mixture supports no figure.
   */
  thresholds: z.array(EstimatedThresholdSchema),
  /** Thresholds the estimate suggests (apply them with the model as MatchingRules if wanted), with how they were chosen. */
  suggestedThresholds: z.object({ Certain: z.number().min(0).max(1), Probable: z.number().min(0).max(1) }),
  suggestedThresholdsAt: z.array(EstimatedThresholdSchema),
  /**
   * The review band at the suggested thresholds, counted over the candidate pairs: how many per 1,000 records it
   * holds against the request's review budget, whether the budget raised Probable, and the true pairs the model
   * expects among those the raise left below Probable. Optional: older registries report none.
   */
  reviewBand: z
    .object({
      budgetPerThousandRecords: z.number(),
      pairsPerThousandRecords: z.number(),
      budgetRaisedProbable: z.boolean(),
      expectedTruePairsLeftOut: z.number(),
    })
    .optional(),
  suggestion: z.string(),
  estimation: z.string(),
  caveat: z.string(),
  activated: z.literal(false),
});
export type EstimateReport = z.infer<typeof EstimateReportSchema>;

export const EstimateOutputSchema = z.object({ model: FellegiSunterModelSchema, report: EstimateReportSchema });
