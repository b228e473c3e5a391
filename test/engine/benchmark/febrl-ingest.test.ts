import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { febrlFile } from '../../helpers/febrl.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { loadFebrl, febrlQuality } from '../../../engine/benchmark/febrl-run.ts';
import { readFebrl } from '../../../engine/benchmark/febrl.ts';

/**
 * FEBRL 4 (dataset4a + dataset4b as two sources, 5,000 true links) ingested with the default profile: no
 * labels, the default Fellegi-Sunter model (scoring/default-model.ts). FEBRL 4 and the synthetic population
 * are the sets the default was tuned on; FEBRL 3, 2 and 1 check it unchanged (febrl-holdout.test.ts).
 *
 *   2026-11-21, weighted-similarity default: auto-links P 1.0000 R 0.7252 F1 0.8407 (0.8758 with the
 *                                            later blocking), 100.7 review cases per 1,000 records
 *   2026-11-23, default model:                auto-links P 1.0000 R 0.9944 F1 0.9972; + review cases
 *                                            F1 0.9988; 1.6 review cases per 1,000 records, every one
 *                                            joining a true pair
 *   2026-11-23, + term frequency, twin rule, auto-links P 1.0000 R 0.9946 F1 0.9973; + review cases
 *   every Patient kept:                      F1 0.9991; 1.8 review cases per 1,000, every one joining a true pair
 *
 * 3 of 10,000 records have no name: rejected by validation until issue 12, now accepted and matched on what
 * they have (held to review at most, never auto-linked without a trusted identifier). The floors sit just
 * below the measurements.
 */
describe('FEBRL 4 linkage through ingestion', () => {
  it("links with precision ~1 and the default model's recall, with a short review queue of true pairs", async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'febrl.db') });
    const ctx = { tenantId: 'febrl4', actor: 'test' };
    const load = await loadFebrl(engine, ctx, [
      { sourceSystem: 'febrl-4a', path: febrlFile('dataset4a.csv') },
      { sourceSystem: 'febrl-4b', path: febrlFile('dataset4b.csv') },
    ]);
    expect(load.reports.map((r) => [r.created, r.rejected.length, r.warnings?.length])).toEqual([
      [5000, 0, 0],
      [5000, 0, 0],
    ]);
    const q = await febrlQuality(engine, ctx, load.truth);
    expect(q.autoLinks.truePairs).toBe(5000);
    expect(q.autoLinks.precision).toBeGreaterThanOrEqual(0.999);
    // Certain 0.97 (2026-11-23): measured R 0.9964, F1 0.9982 (0.99: 0.9946, 0.9973).
    // Household evidence not counted when the given name or birth date disagrees (2026-11-25): R 0.9914, F1 0.9957.
    // 2026-11-26: without a recorded sex, a twin's pattern (another given name, the same birth date) no longer counts the family name (household-evidence.ts); FEBRL replaces given names exactly so: R 0.9878, F1 0.9939.
    // 2026-11-26, later: a personal number one keying error apart that sequential numbering never makes (two adjacent
    // digits swapped, a digit replaced three or more places from the end) counts as agreeing: R 0.9926, F1 0.9963.
    expect(q.autoLinks.recall).toBeGreaterThanOrEqual(0.991);
    expect(q.autoLinks.f1).toBeGreaterThanOrEqual(0.995);
    expect(q.autoLinksAndReviews.precision).toBeGreaterThanOrEqual(0.999);
    expect(q.autoLinksAndReviews.f1).toBeGreaterThanOrEqual(0.995); // 0.9956 since twins without a sex stopped counting the family name
    expect((1000 * q.reviewCases) / q.records).toBeLessThanOrEqual(5);
    expect(q.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.9 * q.reviewCases);
    engine.close();
  }, 180_000);

  it('maps FEBRL rows to R4 Patients as the data README describes', () => {
    const [first] = readFebrl(febrlFile('dataset4a.csv'));
    expect(first?.patient).toMatchObject({ resourceType: 'Patient', id: first?.recId, name: [{ use: 'official' }] });
    expect(first?.entity).toMatch(/^\d+$/);
  });
});
