import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { populationQuality, refKey } from '../../../engine/benchmark/population-quality.ts';
import { truthRecords } from '../../../engine/store/assurance.ts';

/**
 * The synthetic population (twins and households as hard non-matches, a trusted national identifier on some
 * records) ingested into a sandbox with the default model. Measured on 2026-11-23, 2,000 people (4,380
 * records): auto-links P 0.9919 R 0.9896 F1 0.9907 (the weighted-similarity default: P 0.9956 R 0.9127 F1
 * 0.9523), 19.2 review cases per 1,000 records (before: 70.8); 10,000 people (npm run quality): F1 0.9919,
 * 17.2 per 1,000. Most review cases are twins held back by the PossibleTwin rule.
 * With term frequency and the twin rule on same-sex pairs (2026-11-23): 10,000 people P 0.9992 R 0.9805
 * F1 0.9898, 23.5 per 1,000 (53% of cases join a true pair).
 * Certain 0.97 instead of 0.99 (2026-11-23): measured here on the 10,000 people, not on 2,000.
 */
describe('synthetic population quality with the default model', () => {
  it('links with F1 ≥ 0.984 and opens at most 30 review cases per 1,000 records', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'synthetic.db') });
    const ctx = { tenantId: 'synthetic', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 10_000, seed: 7 }, ctx);
    const truth = new Map(
      truthRecords(engine.env.store, ctx.tenantId).map((r) => [refKey(r.sourceSystem, r.localId), r.personId] as const),
    );
    const q = await populationQuality(engine, ctx, truth);
    engine.close();
    expect(q.records).toBe(22_053);
    // No wrong link since household evidence stopped counting beside another given name or birth date (2026-11-25).
    expect(q.autoLinks.precision).toBeGreaterThanOrEqual(0.9995);
    // Lowered from 0.985: same-sex records with one family name and birth date whose given names do not agree
    // are held to review (twins), and without a nickname dictionary (none by default) that includes one person's
    // "William" and "Bill"; precision rose from 0.9919 to 1.0000 for it.
    // 2026-11-25, household evidence and the twin hold no longer lifted by a shared e-mail: P 1.0000 R 0.9770 F1 0.9884
    // (was P 0.9989 R 0.9849 F1 0.9918): the wrong links went; nickname pairs of one sex now wait in review as possible twins.
    // 2026-12-03: two records of one 1 January say the year only (comparators/first-of-january.ts), so the pairs of
    // people born on it and nothing but their names left wait in review: R 0.9748 (was 0.9751), precision unchanged.
    // 2026-12-04: same-sex given names that differ in their first sound (Emma and Gemma) are held as possible twins
    // (comparators/first-sound.ts), and the generator puts one typo in ten on a first letter (Kristine and Ristine):
    // R 0.9709 F1 0.9852 (was 0.9751, 0.9874), 306 review cases (was 265), precision unchanged.
    // 2026-12-07: the sandbox's load is judged at the 22,053 records it brings the registry to from its first record
    // (engine/ingest/load-size.ts), not at the size it had grown to, so its first 20,000 records lose the higher prior
    // of a smaller registry: R 0.9703 F1 0.9849, 309 review cases (were 0.9707, 0.9851 and 307 just before), precision
    // unchanged; the F1 floor moves from 0.985 to 0.984 for it.
    expect(q.autoLinks.recall).toBeGreaterThanOrEqual(0.97);
    expect(q.autoLinks.f1).toBeGreaterThanOrEqual(0.984);
    expect((1000 * q.reviewCases) / q.records).toBeLessThanOrEqual(30);
  }, 400_000);
});
