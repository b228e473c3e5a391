import { z } from 'zod';
import { BandSchema, FieldNameSchema } from './fields.ts';
import { SOURCE_SYSTEM_MAX_LENGTH } from './limits.ts';

/**
 * The tenant's matching profile: one document, versioned as a whole (`MatchingProfileVersion`).
 * Configuration keys are PascalCase as in the specification; operation payloads are camelCase.
 * Structural schemas live here; the semantic checks (duplicates, alias groups, limits) live in
 * engine/profile/validate.ts so that every message names a path and the offending value.
 */

const isPlainObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Canonical name → aliases. Names are user data, so the entries are read as a Map (every own key, even
 * `__proto__`, which an object literal or z.record would turn into a prototype) and given back as an
 * object without a prototype: `constructor` or `toString` are names like any other.
 */
export const NicknameEntriesSchema = z
  .preprocess(
    (raw) =>
      isPlainObject(raw)
        ? new Map(Object.keys(raw).map((key) => [key, Object.getOwnPropertyDescriptor(raw, key)?.value as unknown]))
        : raw,
    z.map(z.string(), z.array(z.string())),
  )
  .transform((entries) => {
    const out = Object.create(null) as Record<string, string[]>;
    for (const [name, aliases] of entries) out[name] = aliases;
    return out;
  });

export const NicknameDictionarySchema = z.strictObject({
  Version: z.string(),
  Culture: z.string(),
  Entries: NicknameEntriesSchema,
});
export type NicknameDictionary = z.infer<typeof NicknameDictionarySchema>;

export const ComparatorProfileSchema = z.strictObject({
  Version: z.string(),
  /** Comparator names; checked against the supported list by the validator for a precise message. */
  FamilyName: z.array(z.string()),
  GivenNames: z.array(z.string()),
  PhoneticMatchFloor: z.number().min(0).max(1),
  NicknameMatchFloor: z.number().min(0).max(1),
  NicknameDictionaries: z.array(NicknameDictionarySchema),
});
export type ComparatorProfile = z.infer<typeof ComparatorProfileSchema>;

export const BLOCKING_FIELDS = [
  'familyName',
  'givenName',
  'birthDate',
  'postalCode',
  'phone',
  'city',
  'identifier',
  'email',
] as const;
export const BlockingFieldSchema = z.enum(BLOCKING_FIELDS);
export type BlockingField = z.infer<typeof BlockingFieldSchema>;

/**
 * How a normalised field value becomes part of a blocking key. `Year` and `MonthDay` split a full birth date
 * (YYYY-MM-DD) so a date with a mistyped year still shares its month and day, and one with a mistyped day its year.
 */
export const BLOCKING_TRANSFORMS = ['Exact', 'Phonetic', 'Prefix3', 'Year', 'MonthDay', 'Initial'] as const;
export const BlockingTransformSchema = z.enum(BLOCKING_TRANSFORMS);
export type BlockingTransform = z.infer<typeof BlockingTransformSchema>;

export const BlockingRuleSchema = z.strictObject({
  Name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a rule name is 1-64 lower-case letters, digits or hyphens'),
  Parts: z
    .array(z.strictObject({ Field: BlockingFieldSchema, Transform: BlockingTransformSchema }))
    .min(1)
    .max(4),
  /**
   * The parts' values are sorted before they make the key, so two records share it whatever the order of the
   * values: a given and a family name written the wrong way round still meet. Optional; false when absent.
   */
  Unordered: z.boolean().optional(),
});
export type BlockingRule = z.infer<typeof BlockingRuleSchema>;

const KeyVersionSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,32}$/, 'a key version is 1-32 letters, digits, dot, dash or underscore');

export const BlockingConfigSchema = z.strictObject({
  /** Version of the rule set; recorded on every stored tag. */
  Version: z.number().int().min(1),
  Rules: z.array(BlockingRuleSchema).min(1).max(32),
  /** HMAC key used for new tags; the secret itself lives in the configuration file, never in the database. */
  ActiveKeyVersion: KeyVersionSchema,
  /** The previous key, kept during a staged key change so existing tags still find candidates. */
  InactiveKeyVersion: KeyVersionSchema.optional(),
});
export type BlockingConfig = z.infer<typeof BlockingConfigSchema>;

/**
 * m and u stay at least this far from 0 and 1, so every weight ln(m/u) is finite and at most
 * ln((1 − 1e-9) / 1e-9) ≈ 20.7 in size: no band of one field can decide a pair alone, and a near-zero
 * u-probability can no longer turn into an infinite weight that auto-links a different person at 1.0.
 */
export const MODEL_PROBABILITY_FLOOR = 1e-9;
/**
 * The prior match probability stays this far from 0 and 1: its log-odds are at most ln(1e6) ≈ 13.8, so the
 * prior plus the strongest single field (≈ 20.7) stays below 36.7, the log-odds at which 1 / (1 + e^-x)
 * rounds to exactly 1 in double precision.
 */
export const MODEL_PRIOR_FLOOR = 1e-6;

const ModelProbabilitySchema = z
  .number()
  .min(MODEL_PROBABILITY_FLOOR)
  .max(1 - MODEL_PROBABILITY_FLOOR);
export const PriorMatchProbabilitySchema = z
  .number()
  .min(MODEL_PRIOR_FLOOR)
  .max(1 - MODEL_PRIOR_FLOOR);

const BandProbabilitiesSchema = z.strictObject({
  Exact: ModelProbabilitySchema,
  Strong: ModelProbabilitySchema,
  Partial: ModelProbabilitySchema,
  Different: ModelProbabilitySchema,
});

/** A complete Fellegi-Sunter model as produced by calibration (never activated by calibration itself). */
export const FellegiSunterModelSchema = z.strictObject({
  kind: z.literal('fellegi-sunter-model'),
  modelVersion: z.string().min(1).max(100),
  priorMatchProbability: PriorMatchProbabilitySchema,
  /**
   * The registry size (records) the prior was set for, when the prior is one of two records picked at random: the
   * live scorer then lowers it in proportion in a larger registry (scoring/fellegi-sunter.ts priorAdjustment), since
   * a record's own duplicates stay few while the records it could be taken for grow with the registry. Absent: the
   * prior is used as given (a calibrated model's, whose prior the analyst states).
   */
  priorRecords: z.number().int().min(1).optional(),
  smoothing: z.number().min(0),
  fields: z.partialRecord(FieldNameSchema, z.strictObject({ m: BandProbabilitiesSchema, u: BandProbabilitiesSchema })),
  trainedAgainst: z.strictObject({
    matchingProfileVersion: z.number().int().min(1),
    comparatorVersion: z.string(),
    scoreMethodVersion: z.string(),
  }),
  datasetId: z.string(),
  datasetDigest: z.string().regex(/^[0-9a-f]{64}$/),
  bands: z.array(BandSchema).length(4),
});
export type FellegiSunterModel = z.infer<typeof FellegiSunterModelSchema>;

export const ThresholdsSchema = z
  .strictObject({ Certain: z.number().min(0).max(1), Probable: z.number().min(0).max(1) })
  .refine((t) => t.Probable <= t.Certain, { message: 'Probable must not exceed Certain', path: ['Probable'] });

export const MatchingRulesSchema = z.strictObject({
  Thresholds: ThresholdsSchema,
  FellegiSunter: FellegiSunterModelSchema.nullable(),
});
export type MatchingRules = z.infer<typeof MatchingRulesSchema>;

export const SourceTrustEntrySchema = z.strictObject({
  SourceSystem: z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,${String(SOURCE_SYSTEM_MAX_LENGTH - 1)}}$`),
      `a source system is 1-${String(SOURCE_SYSTEM_MAX_LENGTH)} letters, digits, dot, colon, dash or underscore`,
    ),
  /** Identifier system of the source's local patient identifiers; without it, Patient.id is the local identifier. */
  LocalIdentifierSystem: z.string().min(1).max(500).optional(),
});
export type SourceTrustEntry = z.infer<typeof SourceTrustEntrySchema>;

export const HARD_CONFLICT_RULES = ['TrustedIdentifierMismatch', 'SexMismatch', 'BirthDateMismatch'] as const;
export const HardConflictRuleSchema = z.enum(HARD_CONFLICT_RULES);
export type HardConflictRule = z.infer<typeof HardConflictRuleSchema>;

export const MatchingProfileSchema = z.strictObject({
  Comparators: ComparatorProfileSchema,
  MatchingRules: MatchingRulesSchema,
  Blocking: BlockingConfigSchema,
  /** Source systems in trust order, most trusted first; survivorship follows this order. */
  SourceTrust: z.array(SourceTrustEntrySchema).min(1).max(100),
  /** Identifier systems whose equal values make a match certain (and, with the rule, whose different values conflict). */
  TrustedIdentifierSystems: z.array(z.string().min(1).max(500)).max(20),
  /**
   * Identifier systems that are personal (a national or social-security number) but not trusted to decide alone:
   * their agreement is identity evidence. Any other non-trusted system may be shared by a family (an insurance
   * plan's member number), so its agreement counts only beside an agreeing given name or birth date.
   * Optional: a profile without it names none.
   */
  PersonalIdentifierSystems: z.array(z.string().min(1).max(500)).max(20).optional(),
  HardConflictRules: z.array(HardConflictRuleSchema),
});
export type MatchingProfile = z.infer<typeof MatchingProfileSchema>;

/** A stored, numbered profile. */
export const MatchingProfileVersionSchema = z.strictObject({
  matchingProfileVersion: z.number().int().min(1),
  createdAt: z.string(),
  reason: z.string(),
  active: z.boolean(),
  profile: MatchingProfileSchema,
});
export type MatchingProfileVersion = z.infer<typeof MatchingProfileVersionSchema>;
