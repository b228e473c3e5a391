import { z } from 'zod';
import { LOCAL_ID_MAX_LENGTH, SOURCE_SYSTEM_MAX_LENGTH } from './limits.ts';
import { BandSchema, ComparatorNameSchema, FieldNameSchema } from './fields.ts';
import { HardConflictRuleSchema } from './profile.ts';

export const SCORE_METHODS = ['fellegi-sunter', 'weighted-similarity'] as const;
export const ScoreMethodSchema = z.enum(SCORE_METHODS);
export type ScoreMethod = z.infer<typeof ScoreMethodSchema>;

export const DecisionSchema = z.enum(['certain', 'probable', 'no-match']);
export type Decision = z.infer<typeof DecisionSchema>;

/** One field's comparison. A missing value (on either side) is neutral: similarity and band are null. */
export const FieldEvidenceSchema = z.object({
  field: FieldNameSchema,
  comparator: ComparatorNameSchema.nullable(),
  similarity: z.number().min(0).max(1).nullable(),
  band: BandSchema.nullable(),
  /** weighted-similarity: the field's weight when present; fellegi-sunter: absent. */
  weight: z.number().optional(),
  /** fellegi-sunter: the field's log-likelihood contribution ln(m/u) for its band; 0 when missing or implied. */
  logLikelihood: z.number().optional(),
  /**
   * fellegi-sunter: present when the field agrees exactly and the tenant's frequency of the value adjusted its
   * weight (a rare family or given name counts more, a common one less): the part of logLikelihood that is
   * ln(average name's frequency / the value's), at most ln(u / the value's frequency) (scoring/term-frequency.ts),
   * so logLikelihood is the band's ln(m/u) plus this.
   */
  termFrequencyAdjustment: z.number().optional(),
  /**
   * fellegi-sunter: present when the address line already implies the field's agreement: postcode, city, state or
   * phone agreeing beside an agreeing address line (one household). Its contribution (logLikelihood) is then 0, so
   * one fact is not counted twice.
   */
  impliedBy: z.literal('addressLine').optional(),
  /**
   * Present when the field is one a household shares (address, city, state, postcode, phone, e-mail, a
   * non-personal identifier), it agrees, and the given names or birth dates tell two people apart, or no name part
   * and no birth date was compared at all (nothing tells the person apart): its agreement then counts for nothing
   * (logLikelihood 0; weighted similarity adds nothing for it). Household evidence is not identity evidence.
   */
  householdOnly: z.literal(true).optional(),
  /**
   * The comparison level the comparator found, finer than the band (e.g. `day-month-transposed` or
   * `one-digit` for birth dates, `one-edit` for a postcode): for explanation; the band is what the model weighs.
   */
  level: z.string().optional(),
  culture: z.string().optional(),
  dictionaryVersion: z.string().optional(),
});
export type FieldEvidence = z.infer<typeof FieldEvidenceSchema>;

export const DecidedBySchema = z.enum(['trusted-identifier', 'hard-conflict', 'score']);
/**
 * The rules that hold a score at the Probable threshold (scoring/scorer.ts). All but two judge a pair alone.
 * BareRecord judges a record against a whole identity (ingest/judged-member.ts: through a record without a name part
 * or birth date), IdentitiesApart an arriving record against two identities (ingest/identities-apart.ts): only review
 * cases carry them (opened by ingestion or reconciliation: jobs/reconcile-apart.ts for an identity without a birth
 * date), never a pair's score.
 */
export const ScoreLimitSchema = z.enum([
  'NoNameEvidence',
  'PossibleTwin',
  'SharedIdentifier',
  'BirthDateConflict',
  'MiddleNameConflict',
  'NamesOnly',
  'BareRecord',
  'IdentitiesApart',
]);
export type ScoreLimit = z.infer<typeof ScoreLimitSchema>;

/** Whether the limit holds an identity, not the pair a case shows (whose score is then what it was held from). */
export function holdsIdentity(limit: ScoreLimit): boolean {
  return limit === 'BareRecord' || limit === 'IdentitiesApart';
}

/**
 * Which case of the twin rule held a pair (limitedBy `PossibleTwin`; scoring/possible-twin.ts): a newborn's placeholder
 * given names; both records of a multiple birth; another recorded sex; without a sex, a boy's and a girl's form of one
 * given name; given names alike only by sound or but for their first sound; a given name missing, or an initial alone,
 * on one record; another given name; the same given name with middle names that name two people.
 */
export const TwinReasonSchema = z.enum([
  'newborn-placeholder',
  'multiple-birth',
  'another-sex',
  'names-of-two-sexes',
  'names-alike',
  'given-name-missing',
  'initial-alone',
  'another-given-name',
  'middle-names',
]);
export type TwinReason = z.infer<typeof TwinReasonSchema>;

export const MatchResultSchema = z.object({
  score: z.number().min(0).max(1),
  scoreMethod: ScoreMethodSchema,
  scoreMethodVersion: z.string(),
  decision: DecisionSchema,
  decidedBy: DecidedBySchema,
  /** The hard-conflict rule that decided, when decidedBy is hard-conflict. */
  conflictRule: HardConflictRuleSchema.optional(),
  /**
   * Present when a rule held the score method's score down to at most Thresholds.Probable (the decision at most
   * probable: review, never an automatic link; scoring/scorer.ts): `NoNameEvidence`, no name part compared on both
   * sides; `PossibleTwin`, the same family name and birth date (a keying error apart under another sex; a day apart
   * for names that only sound alike or differ in their first sound) but another
   * given name (or one that only sounds alike or differs in its first sound and no personal identifier agrees, or
   * none or an initial alone on one record with the birth dates compared), both records carrying a sex (twins or
   * household members of one age, whatever contact details or non-trusted identifiers agree), or a newborn's
   * placeholder given names on either record ("Baby Boy", "Twin A") whatever the sexes, or, without a sex on both
   * records, a boy's and a girl's form of one given name (Daniel and Danielle; which case: twinReason);
   * `SharedIdentifier`, a personal identifier agrees but the given names and birth dates both disagree, a sex on both
   * records (a number copied onto a relative's record); `BirthDateConflict`, birth dates within a year but beyond a
   * keying error; `MiddleNameConflict`, both records carry middle names and none of one's can be one of the other's (no
   * address line, phone or personal identifier agrees); `NamesOnly`, no birth date compared and nothing but the names
   * agreeing (no address line, postcode or identifier; a phone only from an address that disagrees; an e-mail never
   * counts).
   */
  limitedBy: ScoreLimitSchema.optional(),
  /** Present with limitedBy: the score method's score before the rule held it (above the Probable threshold). */
  heldFrom: z.number().min(0).max(1).optional(),
  /** Present with limitedBy `PossibleTwin` in an explanation: which case of the twin rule held the pair. */
  twinReason: TwinReasonSchema.optional(),
  /**
   * Fellegi-Sunter: what the score added to the model's prior log-odds for the registry's size (negative: a model
   * whose prior was set for a smaller registry, its priorRecords); absent when nothing was added.
   */
  priorAdjustment: z.number().optional(),
  evidence: z.array(FieldEvidenceSchema),
});
export type MatchResult = z.infer<typeof MatchResultSchema>;

export const RecordRefSchema = z.strictObject({
  sourceSystem: z.string().min(1).max(SOURCE_SYSTEM_MAX_LENGTH),
  localId: z.string().min(1).max(LOCAL_ID_MAX_LENGTH),
});
export type RecordRef = z.infer<typeof RecordRefSchema>;
