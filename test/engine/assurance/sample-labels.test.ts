import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { sampleLabels } from '../../../engine/assurance/sample-labels.ts';
import { NO_CONTROL } from '../../../engine/run-control.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { recordRefsByIds, recordRefsSql } from '../../../engine/store/assurance.ts';

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

  it('draws non-matches among a seeded uniform record sample above its bound, and estimates the candidate figures from it', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const ctx = { tenantId: 'demo', actor: 'test' };
    try {
      await engine.call('sandbox/create', { syntheticPeople: 400, seed: 9 }, ctx);
      const draw = (seed: number, maxRecords: number) =>
        withTenant('demo', () => sampleLabels(engine.env, { maxPairs: 10_000, seed }, ctx, NO_CONTROL, maxRecords));
      const whole = draw(1, 100_000);
      const records = whole.candidates.records;
      expect(whole.candidates).toMatchObject({ truncated: false });
      expect(whole.candidates.sampledRecords).toBeUndefined();
      // The whole population is the workbench's: every record pair sharing a usable blocking key.
      const workbench = await engine.call('labels/candidates', { limit: 1 }, ctx);
      expect(records).toBe(workbench.population.records);
      expect(whole.candidates.pairs).toBe(workbench.population.candidatePairs);

      const key = (r: { sourceSystem: string; localId: string }) => `${r.sourceSystem}/${r.localId}`;
      for (const seed of [1, 2, 3]) {
        const sampled = draw(seed, 300);
        expect(sampled.candidates).toMatchObject({ records, sampledRecords: 300, truncated: false });
        // Every true pair of the tenant is still there; the non-matches lie among 300 records.
        const matches = sampled.pairs.filter((p) => p.isMatch);
        expect(matches).toHaveLength(whole.pairs.filter((p) => p.isMatch).length);
        const nonMatches = sampled.pairs.filter((p) => !p.isMatch);
        expect(nonMatches.length).toBeGreaterThan(0);
        expect(new Set(nonMatches.flatMap((p) => [key(p.left), key(p.right)])).size).toBeLessThanOrEqual(300);
        // The figures scaled from the sample estimate the whole tenant's, and the share is the sample's own ratio.
        expect(sampled.candidates.pairs).toBeGreaterThan(whole.candidates.pairs / 2);
        expect(sampled.candidates.pairs).toBeLessThan(whole.candidates.pairs * 2);
        expect(sampled.candidates.matchShare).toBeGreaterThan((whole.candidates.matchShare ?? 0) / 2);
        expect(sampled.candidates.matchShare).toBeLessThan((whole.candidates.matchShare ?? 0) * 2);
        expect(sampled.candidates.matchShare).toBeCloseTo(sampled.candidates.truePairs / sampled.candidates.pairs, 2);
        for (const pair of nonMatches.slice(0, 5)) {
          const explained = await engine.call('matching/explain', { left: pair.left, right: pair.right }, ctx);
          expect(explained.sharedBlockingRules.length).toBeGreaterThan(0);
        }
      }
      // The seed chooses the records: the same seed the same file, another seed other non-matches.
      expect(draw(1, 300)).toEqual(draw(1, 300));
      const nonMatchKeys = (seed: number) =>
        draw(seed, 300)
          .pairs.filter((p) => !p.isMatch)
          .map((p) => key(p.left))
          .sort();
      expect(nonMatchKeys(2)).not.toEqual(nonMatchKeys(1));
    } finally {
      engine.close();
    }
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

  it("reads the drawn records' source and local IDs by key, and only the tenant's", async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'refs.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 300, seed: 2 }, { tenantId: 'demo', actor: 'test' });
      await engine.call('sandbox/create', { syntheticPeople: 300, seed: 3 }, { tenantId: 'other', actor: 'test' });
      const { store } = engine.env;
      const rows = (tenant: string) =>
        store
          .statement('SELECT record_id, source_system, local_id FROM source_record WHERE tenant_id = ?')
          .raw()
          .all(tenant) as [number, string, string][];
      const mine = rows('demo');
      const theirs = rows('other');
      const refs = recordRefsByIds(
        store,
        'demo',
        [...mine, ...theirs].map(([id]) => id),
      );
      expect(refs).toEqual(new Map(mine.map(([id, sourceSystem, localId]) => [id, { sourceSystem, localId }])));
      // A chunk of 500 IDs is looked up by the primary key, not by reading the tenant's (tenant, source, local ID)
      // index, which SQLite chose when the tenant was compared as a column.
      const plan = store
        .statement(`EXPLAIN QUERY PLAN ${recordRefsSql(new Array(500).fill('?').join(', '))}`)
        .all('demo', ...mine.slice(0, 500).map(([id]) => id))
        .map((row) => (row as { detail: string }).detail)
        .join(' | ');
      expect(plan).toMatch(/INTEGER PRIMARY KEY/);
      expect(plan).not.toMatch(/autoindex/);
    } finally {
      engine.close();
    }
  });
});
