import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { LocalEngine } from '../../../engine/local-engine.ts';
import {
  AuditSampler,
  drawAuditSample,
  forEachAuditPair,
  type AuditRecord,
} from '../../../engine/assurance/audit-sample.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { NO_CONTROL } from '../../../engine/run-control.ts';
import { AUDIT_STRATA, type AuditStratumName } from '../../../engine/contract/audit.ts';
import { tempDir } from '../../helpers/temp.ts';

const ctx = { tenantId: 'audit', actor: 'test' };

describe('the registry audit from a stratified sample', () => {
  it('covers the true precision and recall of the links in at least 90 of 100 seeded samples of 400 labels', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'audit.db') });
    await engine.call('sandbox/create', { syntheticPeople: 1000, seed: 6 }, ctx);
    const { store } = engine.env;
    // The stream of every pair, once (the test keeps it to judge the truth over all of it; the registry never does).
    const stream: [AuditStratumName, AuditRecord, AuditRecord][] = [];
    const stored = store.read(() => activeProfile(store, ctx.tenantId));
    store.read(() => {
      forEachAuditPair(store, ctx.tenantId, stored, NO_CONTROL, (stratum, left, right) =>
        stream.push([stratum, left, right]),
      );
    });
    const person = new Map(
      (
        store
          .statement('SELECT source_system, local_id, person_id FROM synthetic_truth WHERE tenant_id = ?')
          .raw()
          .all(ctx.tenantId) as [string, string, string][]
      ).map(([s, l, p]) => [`${s}/${l}`, p]),
    );
    const same = (a: AuditRecord, b: AuditRecord): boolean =>
      person.get(`${a.sourceSystem}/${a.localId}`) === person.get(`${b.sourceSystem}/${b.localId}`);
    // The truth over the same population: every pair of every stratum judged by the ground truth.
    const inStratum = (name: AuditStratumName) => stream.filter(([s]) => s === name);
    const trueIn = (name: AuditStratumName): number => inStratum(name).filter(([, a, b]) => same(a, b)).length;
    const linkedPairs = inStratum('linked').length;
    const trueLinked = trueIn('linked');
    const trueMissed = trueIn('review-band') + trueIn('near') + trueIn('far');
    const truth = { precision: trueLinked / linkedPairs, recall: trueLinked / (trueLinked + trueMissed) };
    const strata = AUDIT_STRATA.map((name) => ({
      name,
      linked: name === 'linked',
      population: inStratum(name).length,
    }));
    // The sampler the operation uses, over the same stream, seed by seed.
    const drawn = (seed: number) => {
      const sampler = new AuditSampler(400, seed);
      for (const [stratum, left, right] of stream) sampler.visit(stratum, left, right);
      return sampler.draw();
    };

    let coveredP = 0;
    let coveredR = 0;
    let errorP = 0;
    let errorR = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const labels = drawn(seed).pairs.map((p) => ({ ...p, isMatch: same(p.left, p.right) }));
      const e = await engine.call('audit/estimate', { strata, labels }, ctx);
      if ((e.precision.lower ?? 2) <= truth.precision && truth.precision <= (e.precision.upper ?? -1)) coveredP++;
      if ((e.recall.lower ?? 2) <= truth.recall && truth.recall <= (e.recall.upper ?? -1)) coveredR++;
      errorP += Math.abs((e.precision.estimate ?? 0) - truth.precision);
      errorR += Math.abs((e.recall.estimate ?? 0) - truth.recall);
    }
    console.log(
      JSON.stringify({ truth, strata, coveredP, coveredR, meanErrorP: errorP / 100, meanErrorR: errorR / 100 }),
    );
    expect(coveredP).toBeGreaterThanOrEqual(90);
    expect(coveredR).toBeGreaterThanOrEqual(90);
    expect(errorP / 100).toBeLessThanOrEqual(0.02);
    expect(errorR / 100).toBeLessThanOrEqual(0.02);

    // The operation draws the same sample for the same seed, and states its strata and allocation.
    const sample = await engine.call('audit/sample', { labels: 400, seed: 7 }, ctx);
    expect(sample.pairs).toEqual(drawn(7).pairs);
    expect(sample.pairs).toEqual(
      store.read(() => drawAuditSample(store, ctx.tenantId, stored, 400, 7, NO_CONTROL)).pairs,
    );
    // Every stratum's quota is met from its own pairs, without repeats.
    expect(new Set(sample.pairs.map((p) => `${p.left.localId}|${p.right.localId}`)).size).toBe(sample.pairs.length);
    expect(sample.strata.map((s) => s.population)).toEqual(strata.map((s) => s.population));
    expect(sample.strata.reduce((sum, s) => sum + s.sampled, 0)).toBe(sample.pairs.length);
    // A label naming a stratum the sample does not have is refused with its path.
    const refused = await engine
      .call(
        'audit/estimate',
        {
          strata: [strata[0] ?? { name: 'linked', linked: true, population: 1 }],
          labels: [
            {
              ...(sample.pairs.find((p) => p.stratum === 'far') ?? {
                stratum: 'far',
                left: { sourceSystem: 'a', localId: 'b' },
                right: { sourceSystem: 'a', localId: 'c' },
              }),
              isMatch: false,
            },
          ],
        },
        ctx,
      )
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'validation', issues: [{ path: 'labels[0].stratum' }] });
    engine.close();
  });
});
