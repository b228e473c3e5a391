/**
 * The generated extracts the quality figures and floors are measured on (engine/synthetic/extract.ts): 10,000
 * records, 10% duplicates, seeded. Names and birth dates only, with typical or heavy errors; and every field with
 * heavy errors (FEBRL 3's regime of two to four modifications per duplicate).
 */
import type { ExtractOptions } from '../synthetic/extract.ts';

export const QUALITY_EXTRACTS: Readonly<Record<'names-dates' | 'names-dates-heavy' | 'heavy-typos', ExtractOptions>> = {
  'names-dates': { records: 10_000, duplicateShare: 0.1, seed: 21, fields: 'names-dates', errors: 'typical' },
  'names-dates-heavy': { records: 10_000, duplicateShare: 0.1, seed: 22, fields: 'names-dates', errors: 'heavy' },
  'heavy-typos': { records: 10_000, duplicateShare: 0.1, seed: 23, fields: 'all', errors: 'heavy' },
};
