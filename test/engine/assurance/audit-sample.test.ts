import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { auditPopulation, drawAuditSample } from '../../../engine/assurance/audit-sample.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { keyRingFor } from '../../../engine/blocking/key-ring.ts';
import { NO_CONTROL } from '../../../engine/run-control.ts';
import { AUDIT_STRATA } from '../../../engine/contract/audit.ts';
import { tempDir } from '../../helpers/temp.ts';

const ctx = { tenantId: 'audit', actor: 'test' };

describe('the registry audit from a stratified sample', () => {
  it('covers the true precision and recall of the links in at least 90 of 100 seeded samples of 400 labels', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'audit.db') });
    await engine.call('sandbox/create', { syntheticPeople: 1000, seed: 6 }, ctx);
    const { store } = engine.env;
    const population = store.read(() => {
      const stored = activeProfile(store, ctx.tenantId);
      return auditPopulation(store, ctx.tenantId, stored, keyRingFor(stored.profile.Blocking, engine.env.settings(), ctx.tenantId), NO_CONTROL);
    });
    const person = new Map(
      (store.statement('SELECT source_system, local_id, person_id FROM synthetic_truth WHERE tenant_id = ?').raw().all(ctx.tenantId) as [string, string, string][]).map(([s, l, p]) => [`${s}/${l}`, p]),
    );
    const same = (a: { sourceSystem: string; localId: string }, b: { sourceSystem: string; localId: string }): boolean =>
      person.get(`${a.sourceSystem}/${a.localId}`) === person.get(`${b.sourceSystem}/${b.localId}`);
    // The truth over the same population: every pair of every stratum judged by the ground truth.
    const trueIn = (name: (typeof AUDIT_STRATA)[number]): number =>
      (population.strata.get(name) ?? []).filter(([a, b]) => {
        const left = population.records[a];
        const right = population.records[b];
        return left !== undefined && right !== undefined && same(left, right);
      }).length;
    const linkedPairs = population.strata.get('linked')?.length ?? 0;
    const trueLinked = trueIn('linked');
    const trueMissed = trueIn('review-band') + trueIn('near') + trueIn('far');
    const truth = { precision: trueLinked / linkedPairs, recall: trueLinked / (trueLinked + trueMissed) };
    const strata = AUDIT_STRATA.map((name) => ({ name, linked: name === 'linked', population: population.strata.get(name)?.length ?? 0 }));

    let coveredP = 0;
    let coveredR = 0;
    let errorP = 0;
    let errorR = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const labels = drawAuditSample(population, 400, seed).map((p) => ({ ...p, isMatch: same(p.left, p.right) }));
      const e = await engine.call('audit/estimate', { strata, labels }, ctx);
      if ((e.precision.lower ?? 2) <= truth.precision && truth.precision <= (e.precision.upper ?? -1)) coveredP++;
      if ((e.recall.lower ?? 2) <= truth.recall && truth.recall <= (e.recall.upper ?? -1)) coveredR++;
      errorP += Math.abs((e.precision.estimate ?? 0) - truth.precision);
      errorR += Math.abs((e.recall.estimate ?? 0) - truth.recall);
    }
    console.log(JSON.stringify({ truth, strata, coveredP, coveredR, meanErrorP: errorP / 100, meanErrorR: errorR / 100 }));
    expect(coveredP).toBeGreaterThanOrEqual(90);
    expect(coveredR).toBeGreaterThanOrEqual(90);
    expect(errorP / 100).toBeLessThanOrEqual(0.02);
    expect(errorR / 100).toBeLessThanOrEqual(0.02);

    // The operation draws the same sample for the same seed, and states its strata and allocation.
    const sample = await engine.call('audit/sample', { labels: 400, seed: 7 }, ctx);
    expect(sample.pairs).toEqual(drawAuditSample(population, 400, 7));
    expect(sample.strata.map((s) => s.population)).toEqual(strata.map((s) => s.population));
    expect(sample.strata.reduce((sum, s) => sum + s.sampled, 0)).toBe(sample.pairs.length);
    // A label naming a stratum the sample does not have is refused with its path.
    const refused = await engine.call('audit/estimate', { strata: [strata[0] ?? { name: 'linked', linked: true, population: 1 }], labels: [{ ...(sample.pairs.find((p) => p.stratum === 'far') ?? { stratum: 'far', left: { sourceSystem: 'a', localId: 'b' }, right: { sourceSystem: 'a', localId: 'c' } }), isMatch: false }] }, ctx).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'validation', issues: [{ path: 'labels[0].stratum' }] });
    engine.close();
  });
});
