/**
 * The default model's prior is that of two records picked at random in a registry of 20,000 records; in a larger
 * registry the live scorer lowers it in proportion (scoring/fellegi-sunter.ts registryPrior). The pair below is the
 * kind of wrong link the million-record registry of the scale bench made with the prior held: one given name, one
 * birth date and one sex, and a family name only partly alike ("guillermo halvorson" and "guillermo hyatt").
 *
 * The registry's size is what its name counts say (records carrying a family or a given name). Two tenants of one
 * registry file are given the counts of a registry of 15,000 and of 1,000,000 records, with the same name
 * frequencies (each name as common as the average, so no term-frequency adjustment moves the score): only the size
 * differs between them.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry } from '../../helpers/registry.ts';
import { registryPrior } from '../../../engine/scoring/fellegi-sunter.ts';
import { scoreWaterfall } from '../../../engine/contract/score-explanation.ts';
import { scoreBasis } from '../../../engine/scoring/score-basis.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';

const HALVORSON = {
  resourceType: 'Patient',
  id: 'p1',
  name: [{ family: 'Halvorson', given: ['Guillermo'] }],
  gender: 'male',
  birthDate: '1983-08-27',
  telecom: [{ system: 'email', value: 'guillermo_halvorson@example.net' }],
};
const HYATT = {
  resourceType: 'Patient',
  id: 'p2',
  name: [{ family: 'Hyatt', given: ['Guillermo'] }],
  gender: 'male',
  birthDate: '1983-08-27',
  address: [{ line: ['296 Bernier Island'], city: 'Gloverchester', state: 'RI', postalCode: '71390' }],
};

const logit = (p: number): number => Math.log(p / (1 - p));

/** The name counts of a registry of `records` records: every name as common as the field's average. */
function nameCountsOf(engine: LocalEngine, tenantId: string, records: number): void {
  const { store } = engine.env;
  const average = { familyName: 0.002, givenName: 0.004 } as const;
  const names = { familyName: ['halvorson', 'hyatt'], givenName: ['guillermo'] } as const;
  store.write(() => {
    for (const field of ['familyName', 'givenName'] as const) {
      store
        .statement('INSERT INTO term_frequency_total (tenant_id, field, total, sum_squares) VALUES (?, ?, ?, ?)')
        .run(tenantId, field, records, Math.round(records * records * average[field]));
      for (const value of names[field])
        store
          .statement('INSERT INTO term_frequency (tenant_id, field, value, count) VALUES (?, ?, ?, ?)')
          .run(tenantId, field, value, Math.round(records * average[field]));
    }
  });
}

async function ingestBoth(engine: LocalEngine, tenantId: string) {
  await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(HALVORSON) }, ctx(tenantId));
  await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(HYATT) }, ctx(tenantId));
  const identities = await engine.call('identities/list', { limit: 10, offset: 0 }, ctx(tenantId));
  const reviews = await engine.call('reviews/list', { status: 'open', limit: 10, offset: 0 }, ctx(tenantId));
  const explained = await engine.call(
    'matching/explain',
    { left: { sourceSystem: 'clinic', localId: 'p1' }, right: { sourceSystem: 'hospital', localId: 'p2' } },
    ctx(tenantId),
  );
  return { enterprises: new Set(identities.rows.map((r) => r.enterpriseId)).size, reviews: reviews.total, explained };
}

describe("the default model's prior in a registry larger than it was set for", () => {
  it('is lowered in proportion to the registry, never raised, and only for a model that names its size', () => {
    expect(registryPrior(1e-4, 20_000, 1_000_000)).toBeCloseTo(2e-6, 15);
    expect(registryPrior(1e-4, 20_000, 20_000)).toBe(1e-4);
    expect(registryPrior(1e-4, 20_000, 2_000)).toBe(1e-4);
    expect(registryPrior(0.07, undefined, 1_000_000)).toBe(0.07);
  });

  it('links a partly alike namesake of one given name and birth date in a small registry, and sends it to review in a large one', async () => {
    const engine = openRegistry(tempDir(), ['small', 'large']);
    nameCountsOf(engine, 'small', 15_000);
    nameCountsOf(engine, 'large', 1_000_000);

    const small = await ingestBoth(engine, 'small');
    expect(small.explained.decision).toBe('certain');
    expect(small.explained.priorAdjustment).toBeUndefined();
    expect(small.enterprises).toBe(1);

    const large = await ingestBoth(engine, 'large');
    expect(large.explained.decision).toBe('probable');
    expect(large.enterprises).toBe(2);
    expect(large.reviews).toBe(1);
    // The counts after the two records: the registry the scorer saw held a million and one or two names.
    expect(large.explained.priorAdjustment).toBeCloseTo(logit(1e-4 * (20_000 / 1_000_002)) - logit(1e-4), 4);
    // Lowered by about ln(50): from 0.99 to below Certain.
    expect(large.explained.score).toBeLessThan(0.97);
    expect(small.explained.score).toBeGreaterThan(0.97);
    // The waterfall adds it as a step of its own and still ends on the score.
    const { store } = engine.env;
    const profile = store.read(() => activeProfile(store, 'large')).profile;
    const waterfall = scoreWaterfall(large.explained, scoreBasis(profile));
    expect(waterfall?.steps.map((s) => s.label).slice(0, 2)).toEqual([
      'Prior log-odds',
      'Prior, for the registry’s size',
    ]);
    expect(waterfall?.methodScore).toBeCloseTo(large.explained.score, 9);
    engine.close();
  });

  it('leaves the prior of a model that does not name its size as given, however large the registry', async () => {
    const engine = openRegistry(tempDir(), ['large']);
    nameCountsOf(engine, 'large', 1_000_000);
    const { profile } = engine.env.store.read(() => activeProfile(engine.env.store, 'large'));
    const model = profile.MatchingRules.FellegiSunter;
    if (model === null) throw new Error('the test profile has a model');
    const calibrated = { ...model };
    delete calibrated.priorRecords;
    await engine.call(
      'profile/apply',
      { document: { MatchingRules: { ...profile.MatchingRules, FellegiSunter: calibrated } }, reason: 'test' },
      ctx('large'),
    );
    const large = await ingestBoth(engine, 'large');
    expect(large.explained.priorAdjustment).toBeUndefined();
    expect(large.explained.decision).toBe('certain');
    engine.close();
  });
});
