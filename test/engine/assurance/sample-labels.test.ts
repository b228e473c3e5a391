import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';

describe('labels/sample', () => {
  it('draws every true pair and hard non-matches from blocking candidates, deterministically per seed', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    await engine.call('sandbox/create', { syntheticPeople: 400, seed: 2 }, ctx);
    const truth = new Map(
      (
        engine.env.store
          .statement('SELECT source_system, local_id, person_id FROM synthetic_truth WHERE tenant_id = ?')
          .all('demo') as {
          source_system: string;
          local_id: string;
          person_id: string;
        }[]
      ).map((r) => [`${r.source_system}/${r.local_id}`, r.person_id]),
    );
    const person = (r: { sourceSystem: string; localId: string }): string | undefined =>
      truth.get(`${r.sourceSystem}/${r.localId}`);

    const sample = await engine.call('labels/sample', { maxPairs: 10_000, seed: 4 }, ctx);
    const matches = sample.pairs.filter((p) => p.isMatch);
    expect(matches.length).toBeGreaterThan(0);
    expect(sample.pairs.length - matches.length).toBeGreaterThan(0);
    for (const p of sample.pairs) expect(person(p.left) === person(p.right)).toBe(p.isMatch);
    // Every true pair of the registry is there (all fit under the cap).
    const sizes = new Map<string, number>();
    for (const id of truth.values()) sizes.set(id, (sizes.get(id) ?? 0) + 1);
    expect(matches.length).toBe([...sizes.values()].reduce((sum, k) => sum + (k * (k - 1)) / 2, 0));
    // Non-matches are hard: the scorer gives them clearly non-zero similarity on average.
    const evaluation = await engine.call(
      'matching/evaluate',
      { datasetId: 'sample', pairs: sample.pairs, thresholds: [0.5], maximumErrorExamples: 0 },
      ctx,
    );
    expect(evaluation.labels.distinctRecords).toBeGreaterThan(0);
    const family = evaluation.fieldSimilarity.find((f) => f.field === 'familyName');
    expect(family?.nonMatchMean).toBeGreaterThan(0.5);
    expect(sample.candidates.truePairs).toBeLessThanOrEqual(matches.length);
    expect(sample.candidates.matchShare).toBeCloseTo(sample.candidates.truePairs / sample.candidates.pairs, 12);

    expect(await engine.call('labels/sample', { maxPairs: 10_000, seed: 4 }, ctx)).toEqual(sample);
    const other = await engine.call('labels/sample', { maxPairs: 10_000, seed: 5 }, ctx);
    expect(other.pairs).not.toEqual(sample.pairs);

    const small = await engine.call('labels/sample', { maxPairs: 50, seed: 4 }, ctx);
    expect(small.pairs).toHaveLength(50);
    expect(small.pairs.filter((p) => p.isMatch)).toHaveLength(25);
    engine.close();
  });

  it('refuses a tenant without ground truth', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'empty', actor: 'test' };
    await engine.call('sandbox/create', {}, ctx);
    const error = await engine.call('labels/sample', {}, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).message).toMatch(/no ground truth/);
    engine.close();
  });
});
