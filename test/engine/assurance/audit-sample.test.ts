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
import { countIdentities } from '../../../engine/store/identities.ts';
import { NO_CONTROL } from '../../../engine/run-control.ts';
import { AUDIT_STRATA, type AuditStratumName } from '../../../engine/contract/audit.ts';
import { tempDir } from '../../helpers/temp.ts';
import type { Store } from '../../../engine/store/store.ts';
import { EngineError } from '../../../engine/contract/errors.ts';
import { ctx as registryCtx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';

const ctx = { tenantId: 'audit', actor: 'test' };

/** Each record's person, by "source/localId", from the sandbox's ground truth. */
function personOf(store: Store): Map<string, string> {
  return new Map(
    (
      store
        .statement('SELECT source_system, local_id, person_id FROM synthetic_truth WHERE tenant_id = ?')
        .raw()
        .all(ctx.tenantId) as [string, string, string][]
    ).map(([s, l, p]) => [`${s}/${l}`, p]),
  );
}

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
    const person = personOf(store);
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
    // Under the bound the whole registry is walked, and the answer says so by naming no sample.
    expect(sample.sampledIdentities).toBeUndefined();
    expect(sample.identities).toBe(countIdentities(store, ctx.tenantId));
    engine.close();
  });

  it('walks a seeded sample of the identities above its bound, scales the strata up, and still covers the truth', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'audit-sampled.db') });
    await engine.call('sandbox/create', { syntheticPeople: 1000, seed: 6 }, ctx);
    const { store } = engine.env;
    const stored = store.read(() => activeProfile(store, ctx.tenantId));
    const identityOf = new Map(
      (
        store
          .statement(
            `SELECT r.source_system, r.local_id, l.identity_id FROM source_record r
             JOIN identity_link l ON l.tenant_id = r.tenant_id AND l.record_id = r.record_id WHERE r.tenant_id = ?`,
          )
          .raw()
          .all(ctx.tenantId) as [string, string, number][]
      ).map(([s, l, i]) => [`${s}/${l}`, i]),
    );
    const person = personOf(store);
    const key = (r: AuditRecord): string => `${r.sourceSystem}/${r.localId}`;
    const same = (a: AuditRecord, b: AuditRecord): boolean => person.get(key(a)) === person.get(key(b));
    const identities = countIdentities(store, ctx.tenantId);
    const whole = store.read(() => drawAuditSample(store, ctx.tenantId, stored, 400, 1, NO_CONTROL));
    // The truth over the whole registry, from every pair of every stratum.
    const stream: [AuditStratumName, AuditRecord, AuditRecord][] = [];
    store.read(() => {
      forEachAuditPair(store, ctx.tenantId, stored, NO_CONTROL, (stratum, a, b) => stream.push([stratum, a, b]));
    });
    const trueIn = (name: AuditStratumName): number => stream.filter(([s, a, b]) => s === name && same(a, b)).length;
    const trueLinked = trueIn('linked');
    const truth = {
      precision: trueLinked / (whole.sizes.get('linked') ?? 1),
      recall: trueLinked / (trueLinked + trueIn('review-band') + trueIn('near') + trueIn('far')),
    };

    const bound = 300;
    let covered = 0;
    const seeds = 30;
    for (let seed = 1; seed <= seeds; seed++) {
      const drawn = store.read(() => drawAuditSample(store, ctx.tenantId, stored, 400, seed, NO_CONTROL, bound));
      expect(drawn.identities).toBe(identities);
      expect(drawn.sampledIdentities).toBe(bound);
      // Every pair is met from a sampled identity: the linked ones within one, the others from their left record's.
      const met = new Set(drawn.pairs.map((p) => identityOf.get(key(p.left))));
      expect(met.size).toBeLessThanOrEqual(bound);
      for (const p of drawn.pairs)
        if (p.stratum === 'linked') expect(identityOf.get(key(p.left))).toBe(identityOf.get(key(p.right)));
      // The scaled strata lie near the whole registry's (the larger ones: a small stratum's count is noisy).
      for (const [stratum, size] of whole.sizes)
        if (size >= 200) {
          expect(drawn.sizes.get(stratum) ?? 0, stratum).toBeGreaterThan(size / 2);
          expect(drawn.sizes.get(stratum) ?? 0, stratum).toBeLessThan(size * 2);
        }
      const strata = AUDIT_STRATA.map((name) => ({
        name,
        linked: name === 'linked',
        population: drawn.sizes.get(name) ?? 0,
      }));
      const labels = drawn.pairs.map((p) => ({ ...p, isMatch: same(p.left, p.right) }));
      const e = await engine.call('audit/estimate', { strata, labels }, ctx);
      const inside = (b: { lower: number | null; upper: number | null }, x: number): boolean =>
        (b.lower ?? 2) <= x && x <= (b.upper ?? -1);
      if (inside(e.precision, truth.precision) && inside(e.recall, truth.recall)) covered++;
    }
    console.log(JSON.stringify({ truth, identities, bound, covered, of: seeds }));
    // Conservative intervals, and the identity sample's own noise beside the labels': most seeds still cover both.
    expect(covered).toBeGreaterThanOrEqual(25);

    // The same seed walks the same identities and draws the same pairs; another seed, other ones.
    const again = () => store.read(() => drawAuditSample(store, ctx.tenantId, stored, 400, 3, NO_CONTROL, bound));
    expect(again().pairs).toEqual(again().pairs);
    const other = store.read(() => drawAuditSample(store, ctx.tenantId, stored, 400, 4, NO_CONTROL, bound));
    expect(other.pairs).not.toEqual(again().pairs);
    engine.close();
  });
  it('labels an audit sample from the ground truth, the same draw with each pair as the truth has it', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 'truth.db') });
    await engine.call('sandbox/create', { syntheticPeople: 300, seed: 3 }, ctx);
    const plain = await engine.call('audit/sample', { labels: 200, seed: 2 }, ctx);
    const labelled = await engine.call('audit/sample', { labels: 200, seed: 2, groundTruth: true }, ctx);
    expect(plain.pairs.every((p) => p.isMatch === undefined)).toBe(true);
    expect(labelled.pairs.map(({ isMatch: _label, ...pair }) => pair)).toEqual(plain.pairs);
    expect(labelled.strata).toEqual(plain.strata);
    const person = personOf(engine.env.store);
    const truth = labelled.pairs.map(
      (p) =>
        person.get(`${p.left.sourceSystem}/${p.left.localId}`) ===
        person.get(`${p.right.sourceSystem}/${p.right.localId}`),
    );
    expect(labelled.pairs.map((p) => p.isMatch)).toEqual(truth);
    // Both kinds occur: the registry's links and the candidate pairs it left apart.
    expect(truth.filter(Boolean).length).toBeGreaterThan(0);
    expect(truth.filter((t) => !t).length).toBeGreaterThan(0);
    // The labels go into the estimate as they come.
    const estimate = await engine.call(
      'audit/estimate',
      {
        strata: labelled.strata.map(({ name, linked, population }) => ({ name, linked, population })),
        labels: labelled.pairs.map(({ stratum, left, right, isMatch }, i) => ({
          stratum,
          left,
          right,
          isMatch: isMatch === true,
          // The first ten as a person relabelled them (a page or a label file changed them): theirs, not the truth's.
          ...(i < 10 ? {} : { fromGroundTruth: true }),
        })),
      },
      ctx,
    );
    expect(estimate.byStratum.map((s) => s.labelled)).toEqual(labelled.strata.map((s) => s.sampled));
    // The estimate says how many of its labels the truth gave, so a saved audit tells how it was labelled.
    expect(estimate.labelsFromGroundTruth).toBe(labelled.pairs.length - 10);
    engine.close();
  });

  it('refuses to label from the ground truth where the tenant has none, and draws as usual without it', async () => {
    const engine = openRegistry(tempDir(), ['t1']);
    // Two records of one person, ingested as a hospital sends them: a registry with a link and no ground truth.
    const twice = ['a1', 'a2'].map((id, i) =>
      patient({ id, mrn: `M${String(i)}`, family: 'Okafor', given: ['Ada'], birthDate: '1970-01-02' }),
    );
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(...twice) }, registryCtx());
    const refused = await engine
      .call('audit/sample', { labels: 40, groundTruth: true }, registryCtx())
      .then(() => null)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).toData()).toMatchObject({
      kind: 'validation',
      issues: [{ path: 'groundTruth', message: 'no ground truth in this tenant' }],
    });
    expect((refused as EngineError).message).toMatch(
      /has no ground truth: .*label a registry of real patients by hand/,
    );
    const drawn = await engine.call('audit/sample', { labels: 40 }, registryCtx());
    expect(drawn.pairs.every((p) => p.isMatch === undefined)).toBe(true);
    engine.close();
  });
});
