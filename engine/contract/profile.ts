import { z } from 'zod';
import { BandSchema, FieldNameSchema } from './fields.ts';
import { SOURCE_SYSTEM_MAX_LENGTH } from './limits.ts';

/**
 * The tenant's matching profile: one document, versioned as a whole (`MatchingProfileVersion`).
 * Configuration keys are PascalCase as in the specification; operation payloads are camelCase.
 * Structural schemas live here; the semantic checks (duplicates, alias groups, limits) live in
 * engine/profile/validate.ts so that every message names a path and the offending value.
 */

export const NicknameDictionarySchema = z.strictObject({
  Version: z.string(),
  Culture: z.string(),
  Entries: z.record(z.string(), z.array(z.string())),
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
] as const;
export const BlockingFieldSchema = z.enum(BLOCKING_FIELDS);
export type BlockingField = z.infer<typeof BlockingFieldSchema>;

/** How a normalised field value becomes part of a blocking key. */
export const BLOCKING_TRANSFORMS = ['Exact', 'Phonetic', 'Prefix3', 'Year', 'Initial'] as const;
export const BlockingTransformSchema = z.enum(BLOCKING_TRANSFORMS);
export type BlockingTransform = z.infer<typeof BlockingTransformSchema>;

export const BlockingRuleSchema = z.strictObject({
  Name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a rule name is 1-64 lower-case letters, digits or hyphens'),
  Parts: z
    .array(z.strictObject({ Field: BlockingFieldSchema, Transform: BlockingTransformSchema }))
    .min(1)
    .max(4),
});
export type BlockingRule = z.infer<typeof BlockingRuleSchema>;

const KeyVersionSchema = z.string().regex(/^[A-Za-z0-9._-]{1,32}$/, 'a key version is 1-32 letters, digits, dot, dash or underscore');

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

const BandProbabilitiesSchema = z.strictObject({
  Exact: z.number().gt(0).lt(1),
  Strong: z.number().gt(0).lt(1),
  Partial: z.number().gt(0).lt(1),
  Different: z.number().gt(0).lt(1),
});

/** A complete Fellegi-Sunter model as produced by calibration (never activated by calibration itself). */
export const FellegiSunterModelSchema = z.strictObject({
  kind: z.literal('fellegi-sunter-model'),
  modelVersion: z.string().min(1).max(100),
  priorMatchProbability: z.number().gt(0).lt(1),
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
