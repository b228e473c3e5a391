import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { febrlFile } from '../../helpers/febrl.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import {
  loadFebrl,
  febrlQuality,
  initialsOnOneInTen,
  namesAndBirthDate,
  type FebrlSource,
} from '../../../engine/benchmark/febrl-run.ts';
import type { PopulationQuality } from '../../../engine/benchmark/population-quality.ts';

/**
 * The default profile on the FEBRL sets it was not tuned on (tuned on FEBRL 4 and the synthetic population),
 * deduplicated through ingestion with no labels. Measured on 2026-11-23 (before: the weighted-similarity
 * default of main):
 *
 *   set        auto-links P / R / F1          before F1   review cases per 1,000 (before)   joining a true pair
 *   FEBRL 3    1.0000 / 0.9859 / 0.9929       0.7986      8.4 (290.1)                       42 of 42
 *   FEBRL 2    1.0000 / 0.9928 / 0.9964       0.8157      2.2 (87.2)                        11 of 11
 *   FEBRL 1    1.0000 / 0.9940 / 0.9970       0.8764      2.0 (97.0)                        2 of 2
 *
 * With term frequency, the twin rule on same-sex pairs and every valid Patient accepted (2026-11-23): FEBRL 3
 * 1.0000 / 0.9867 / 0.9933, 10.2 per 1,000 (51 of 51); FEBRL 2 and 1 unchanged.
 *
 * Published best F1 (Splink, FEBRL 3): 0.9954. The floors sit below the measurements.
 */
async function quality(name: string, sources: FebrlSource[]): Promise<PopulationQuality> {
  const engine = LocalEngine.open({ dbPath: join(tempDir(), `${name}.db`) });
  const ctx = { tenantId: name, actor: 'test' };
  const load = await loadFebrl(engine, ctx, sources);
  const q = await febrlQuality(engine, ctx, load.truth);
  engine.close();
  return q;
}

function expectFloors(q: PopulationQuality, f1: number, reviewsPerThousand: number): void {
  expect(q.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
  expect(q.autoLinks.f1).toBeGreaterThanOrEqual(f1);
  expect((1000 * q.reviewCases) / q.records).toBeLessThanOrEqual(reviewsPerThousand);
  // A review queue worth working through: most cases join a true pair.
  expect(q.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.5 * q.reviewCases);
}

describe('the default profile on FEBRL sets it was not tuned on', () => {
  it('FEBRL 3 (5,000 records, 6,538 true pairs)', async () => {
    const q = await quality('febrl3', [{ sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv') }]);
    expect(q.autoLinks.truePairs).toBe(6538);
    // Reviews ≤ 12 (measured 10.2): the 6 records without a name are accepted now, and their pairs go to review.
    // Certain 0.97 (2026-11-23): F1 0.9943, 8.2 reviews per 1,000.
    // Household evidence not counted when the given name or birth date disagrees (2026-11-25): F1 0.9891, 12.2 per 1,000.
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9872.
    // Birth dates of another day in the same year held to review (scorer.ts birthDateConflict, 2026-11-26): 13.2.
    expectFloors(q, 0.986, 14);
  }, 180_000);

  it('FEBRL 2 (5,000 records, 1,934 true pairs)', async () => {
    const q = await quality('febrl2', [{ sourceSystem: 'febrl-2', path: febrlFile('dataset2.csv') }]);
    expect(q.autoLinks.truePairs).toBe(1934);
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9917.
    expectFloors(q, 0.99, 5);
  }, 180_000);

  it('FEBRL 1 (1,000 records, 500 true pairs)', async () => {
    const q = await quality('febrl1', [{ sourceSystem: 'febrl-1', path: febrlFile('dataset1.csv') }]);
    expect(q.autoLinks.truePairs).toBe(500);
    // Certain 0.97 (2026-11-23): F1 0.9980.
    // Household evidence (2026-11-25): F1 0.9950.
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.9919.
    expectFloors(q, 0.99, 5);
  }, 180_000);

  /**
   * FEBRL 3 with names and birth dates only: the precision holds, but with three heavily corrupted fields
   * the evidence of many true pairs stays below Certain (measured P 1.0000, R 0.6583, F1 0.7939; 208 review
   * cases per 1,000, 99% joining a true pair; with term frequency: R 0.6962, F1 0.8209, 177.4 per 1,000).
   * Floors on what holds; the targets (F1 ≥ 0.9, ≤ 30 reviews per 1,000) are not met (see docs/matching.md,
   * "Matching quality"). Certain 0.97 (2026-11-23): R 0.7634, F1 0.8658, 114.0 per 1,000.
   */
  it('FEBRL 3 with names and birth dates only keeps its precision', async () => {
    const q = await quality('febrl3nd', [
      { sourceSystem: 'febrl-3', path: febrlFile('dataset3.csv'), project: namesAndBirthDate },
    ]);
    expect(q.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: 0.8267 (78.8 review cases per 1,000, was 114).
    // 2026-12-04: an identity is judged on its records that carry the name part a bare record lacks
    // (engine/ingest/judged-member.ts): 0.8219 -> 0.8199, two more review cases; no pair linked wrongly before or
    // after.
    expect(q.autoLinks.f1).toBeGreaterThanOrEqual(0.815);
    expect((1000 * q.reviewCases) / q.records).toBeLessThanOrEqual(120);
    expect(q.autoLinksAndReviews.precision).toBeGreaterThanOrEqual(0.99);
    expect(q.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.9 * q.reviewCases);
  }, 180_000);

  /**
   * The same with one record in ten cut to its given name's initial (J for John), as a laboratory keeps it. Each
   * initial beside a name of its letter is held for review, never linked (it fits James as well as John). Measured
   * 2026-12-06: auto-links P 1.0000, F1 0.7280, as before the initial's own level (2026-12-05); with the review cases
   * R 0.7715 (was 0.6554), 110.0 review cases per 1,000 (was 48.8), 543 of the 550 joining a true pair.
   */
  it('FEBRL 3 with names, birth dates and initials: the initials reach review, none is linked wrongly', async () => {
    const q = await quality('febrl3ndi', [
      {
        sourceSystem: 'febrl-3',
        path: febrlFile('dataset3.csv'),
        project: (patient) => initialsOnOneInTen(namesAndBirthDate(patient)),
      },
    ]);
    expect(q.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    expect(q.autoLinksAndReviews.recall).toBeGreaterThanOrEqual(0.75);
    expect((1000 * q.reviewCases) / q.records).toBeLessThanOrEqual(120);
    expect(q.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.95 * q.reviewCases);
  }, 180_000);
});
