/**
 * The link-quality scan of existing identities: every identity holding two or more records, each record compared
 * with the identity's other records under the active profile. It flags what looks like a wrong link; it never
 * unlinks anything; each flagged identity becomes a LinkQuality review case. Browser-safe: zod only.
 */
import { z } from 'zod';

export const LINK_FLAGS = ['weak-bridge', 'same-source', 'sex-conflict', 'birth-date-conflict', 'too-large'] as const;
export const LinkFlagSchema = z.enum(LINK_FLAGS);
export type LinkFlag = z.infer<typeof LinkFlagSchema>;

/** Each flag's name in words, for the console (the CLI and the API keep the flag itself). */
export const LINK_FLAG_NAME: Record<LinkFlag, string> = {
  'weak-bridge': 'Weak bridge',
  'same-source': 'One source twice',
  'sex-conflict': 'Sexes differ',
  'birth-date-conflict': 'Birth dates differ',
  'too-large': 'Too many records',
};

/** What each flag means, in words for the report, the CLI and the console. */
export const LINK_FLAG_TEXT: Record<LinkFlag, string> = {
  'weak-bridge':
    'records fall apart into groups that no Probable score joins: the identity holds together only through a weak link',
  'same-source': 'two records of one source system in one identity',
  'sex-conflict': 'two records that no chain of Certain pairs of records with a sex joins state different sexes',
  'birth-date-conflict':
    'two records that no chain of Certain pairs of dated records joins have birth dates further apart than a typo, a swap or a near date',
  'too-large': 'more records than the bound for one person',
};

/**
 * Why a LinkQuality case's first pair is the one shown (ReviewCaseDetail.bestPairShows), in words for the CLI and
 * the console; none: the weakest link.
 */
export function shownFirstText(flag: LinkFlag | null | undefined): string {
  switch (flag) {
    case 'same-source':
      return 'two records of one source, which keeps one record per patient: they may be two people';
    case 'sex-conflict':
      return 'two records that state different sexes';
    case 'birth-date-conflict':
      return 'two records whose birth dates differ beyond a typo, a swap or a near date';
    default:
      return "the identity's weakest link (the pair its records hold together by last)";
  }
}

/** The scan's default bound: an identity with more records is flagged too-large. */
export const MAX_IDENTITY_RECORDS = 20;

export const LinkQualityInputSchema = z.strictObject({
  /** An identity with more records than this is flagged too-large (and only its first records are compared). */
  maxIdentityRecords: z.number().int().min(2).max(1000).default(MAX_IDENTITY_RECORDS),
  /** Flagged identities listed in the report (all are counted). */
  maxListed: z.number().int().min(0).max(10_000).default(1000),
  /** Open a LinkQuality review case for each flagged identity (false: a look only, nothing written). */
  openCases: z.boolean().default(true),
});

export const LinkEdgeSchema = z.object({ a: z.number().int(), b: z.number().int(), score: z.number() });

export const FlaggedIdentitySchema = z.object({
  enterpriseId: z.string(),
  version: z.number().int(),
  flags: z.array(LinkFlagSchema),
  /** The records compared, by source and local ID, in identity order (the edges name them by index). */
  records: z.array(z.object({ sourceSystem: z.string(), localId: z.string() })),
  /** Every compared pair's score: the identity's record graph. */
  edges: z.array(LinkEdgeSchema),
  /** Groups of records joined by scores at or above Probable (1: one group). */
  groups: z.number().int(),
  /** The lowest score among the pairs that hold the groups together, or the best pair's score across groups. */
  weakestLink: z.number().nullable(),
});
export type FlaggedIdentity = z.infer<typeof FlaggedIdentitySchema>;

export const LinkQualityReportSchema = z.object({
  matchingProfileVersion: z.number().int(),
  probableThreshold: z.number(),
  identitiesScanned: z.number().int(),
  identitiesWithSeveralRecords: z.number().int(),
  pairsScored: z.number().int(),
  flagged: z.number().int(),
  /** Flagged identities per 1,000 identities with several records. */
  flaggedPerThousand: z.number().nullable(),
  byFlag: z.record(LinkFlagSchema, z.number().int()),
  /** Flagged identities holding a record of each source system. */
  bySource: z.record(z.string(), z.number().int()),
  /** Most doubtful first: one source twice, then more flags, then more groups, then the weakest link lowest. */
  identities: z.array(FlaggedIdentitySchema),
  /** Flagged identities not listed (beyond maxListed). */
  notListed: z.number().int(),
  /** LinkQuality review cases opened (not for an identity already open or decided at its version). */
  casesOpened: z.number().int(),
});
export type LinkQualityReport = z.infer<typeof LinkQualityReportSchema>;

export const linkQualityOperations = {
  'links/scan': { input: LinkQualityInputSchema, output: LinkQualityReportSchema },
} as const;
