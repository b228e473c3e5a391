/**
 * The generated extracts the quality figures and floors are measured on (engine/synthetic/extract.ts), seeded:
 * 10,000 records with 10% duplicates, names and birth dates only with typical or heavy errors, and every field with
 * heavy errors (FEBRL 3's regime of two to four modifications per duplicate); and 20,000 records of 2,000 people,
 * about ten records each (90% duplicates), the regime of a registry fed by frequent visits, names and birth dates
 * only and every field with heavy errors. `names-dates-common` is `names-dates` among people most of whom carry one of a
 * few common names (ExtractOptions.commonNames), where the estimate can pass its checks and still link less than the
 * default profile (docs/matching.md, "Where the estimate is weak").
 */
import type { ExtractOptions } from '../synthetic/extract.ts';

export type QualityExtract =
  'names-dates' | 'names-dates-heavy' | 'names-dates-common' | 'heavy-typos' | 'names-dates-many' | 'heavy-typos-many';

export const QUALITY_EXTRACTS: Readonly<Record<QualityExtract, ExtractOptions>> = {
  'names-dates': { records: 10_000, duplicateShare: 0.1, seed: 21, fields: 'names-dates', errors: 'typical' },
  'names-dates-heavy': { records: 10_000, duplicateShare: 0.1, seed: 22, fields: 'names-dates', errors: 'heavy' },
  'names-dates-common': {
    records: 10_000,
    duplicateShare: 0.1,
    seed: 21,
    fields: 'names-dates',
    errors: 'typical',
    commonNames: 'concentrated',
  },
  'heavy-typos': { records: 10_000, duplicateShare: 0.1, seed: 23, fields: 'all', errors: 'heavy' },
  'names-dates-many': { records: 20_000, duplicateShare: 0.9, seed: 33, fields: 'names-dates', errors: 'typical' },
  'heavy-typos-many': { records: 20_000, duplicateShare: 0.9, seed: 31, fields: 'all', errors: 'heavy' },
};
