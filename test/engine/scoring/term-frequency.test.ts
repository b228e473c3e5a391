import { describe, expect, it } from 'vitest';
import { MAX_RARITY, termFrequencyAdjustment, type TermCount, type TermFrequencyField, type TermFrequencyReader } from '../../../engine/scoring/term-frequency.ts';
import { storedTermFrequencies } from '../../../engine/store/term-frequency.ts';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { compileModel } from '../../../engine/scoring/fellegi-sunter.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { scoreBasis } from '../../../engine/scoring/score-basis.ts';
import { scoreWaterfall } from '../../../engine/contract/score-explanation.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';

/** Counts held in memory: the reader the store gives, without the store. */
function readerOf(counts: Partial<Record<TermFrequencyField, Record<string, number>>>, totals: Partial<Record<TermFrequencyField, number>>): TermFrequencyReader {
  return { count: (field, value): TermCount => ({ count: counts[field]?.[value] ?? 0, total: totals[field] ?? 0 }) };
}

describe('term-frequency adjustment (Winkler 2000; Splink term_frequency_adjustments)', () => {
  it('is ln(u / p̂) with p̂ = (count + 1) / (total + 1/u), bounded above by ln(MAX_RARITY)', () => {
    // No records: p̂ = 1 / (1/u) = u, no adjustment.
    expect(termFrequencyAdjustment(2e-3, { count: 0, total: 0 })).toBeCloseTo(0, 12);
    // 100 of 10,000 records (1%): p̂ = 101 / 10,500; a common name weighs less than the average one.
    expect(termFrequencyAdjustment(2e-3, { count: 100, total: 10_000 })).toBeCloseTo(Math.log(2e-3 / (101 / 10_500)), 12);
    expect(termFrequencyAdjustment(2e-3, { count: 100, total: 10_000 })).toBeLessThan(-1.5);
    // 2 of 10,000: p̂ = 3 / 10,500, a rare name weighs more.
    expect(termFrequencyAdjustment(2e-3, { count: 2, total: 10_000 })).toBeCloseTo(Math.log(2e-3 / (3 / 10_500)), 12);
    // 2 of 10 million: the bound holds.
    expect(termFrequencyAdjustment(2e-3, { count: 2, total: 10_000_000 })).toBe(Math.log(MAX_RARITY));
    // A model without a usable u: nothing to adjust.
    expect(termFrequencyAdjustment(Number.NaN, { count: 2, total: 10 })).toBe(0);
  });

  it('weighs agreement on a rare name above agreement on a common one, visibly in the evidence, and the waterfall adds up', () => {
    const profile = defaultProfile([{ SourceSystem: 'a' }]);
    const reader = readerOf({ familyName: { smith: 900, fairweather: 2 }, givenName: { annabel: 30 } }, { familyName: 10_000, givenName: 10_000 });
    const scorer = createScorer(profile, reader);
    const plain = createScorer(profile);
    // Another given name (Partial) and an address of their own: the family name carries the pair.
    const a: MatchFields = { ...SAMPLE_FIELDS, addressLine: null, phone: null, postalCode: null, city: null };
    const b: MatchFields = { ...a, givenName: 'annie', birthDate: '1984-03-18' };
    const rare = scorer.explain(scorer.prepare(a), scorer.prepare(b));
    const common = scorer.explain(scorer.prepare({ ...a, familyName: 'smith' }), scorer.prepare({ ...b, familyName: 'smith' }));
    const without = plain.explain(plain.prepare(a), plain.prepare(b));
    expect(rare.score).toBeGreaterThan(without.score);
    expect(common.score).toBeLessThan(without.score);

    const family = rare.evidence.find((e) => e.field === 'familyName');
    const model = profile.MatchingRules.FellegiSunter;
    if (model === null) throw new Error('the default profile has a model');
    const exactWeight = Math.log(model.fields.familyName?.m.Exact ?? Number.NaN) - Math.log(model.fields.familyName?.u.Exact ?? Number.NaN);
    expect(family?.termFrequencyAdjustment).toBeCloseTo(termFrequencyAdjustment(2e-3, { count: 2, total: 10_000 }), 12);
    expect(family?.logLikelihood).toBeCloseTo(exactWeight + (family?.termFrequencyAdjustment ?? Number.NaN), 12);
    // Only exact agreement is adjusted: the given names differ.
    expect(rare.evidence.find((e) => e.field === 'givenName')?.termFrequencyAdjustment).toBeUndefined();
    expect(without.evidence.find((e) => e.field === 'familyName')?.termFrequencyAdjustment).toBeUndefined();

    const prior = compileModel(model).priorLogOdds;
    for (const r of [rare, common]) {
      const sum = prior + r.evidence.reduce((total, e) => total + (e.logLikelihood ?? Number.NaN), 0);
      expect(Math.abs(sum - Math.log(r.score / (1 - r.score)))).toBeLessThan(1e-9);
      expect(scoreWaterfall(r, scoreBasis(profile))?.score).toBeCloseTo(r.score, 12);
    }
  });

  it('is kept by record writes in the same transaction, per tenant', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'M1' }), patient({ id: 'h2', mrn: 'M2', given: ['Chidi'], family: 'Okonkwo' }), patient({ id: 'h3', mrn: 'M3', given: ['Rupert'] })) },
      ctx('t1'),
    );
    const t1 = storedTermFrequencies(engine.env.store, 't1');
    const t2 = storedTermFrequencies(engine.env.store, 't2');
    expect(t1.count('familyName', 'fairweather')).toEqual({ count: 2, total: 3 });
    expect(t1.count('givenName', 'annabel')).toEqual({ count: 1, total: 3 });
    // Another tenant sees none of them.
    expect(t2.count('familyName', 'fairweather')).toEqual({ count: 0, total: 0 });

    // A new version of h1 under another family name moves its count.
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'M1', family: 'Okonkwo' })) }, ctx('t1'));
    expect(t1.count('familyName', 'fairweather')).toEqual({ count: 1, total: 3 });
    expect(t1.count('familyName', 'okonkwo')).toEqual({ count: 2, total: 3 });
    // Every record with a family name is counted once.
    const counted = engine.env.store.statement("SELECT SUM(count) AS n FROM term_frequency WHERE tenant_id = 't1' AND field = 'familyName'").get() as { n: number };
    const records = engine.env.store.statement("SELECT COUNT(*) AS n FROM source_record WHERE tenant_id = 't1'").get() as { n: number };
    expect(counted.n).toBe(records.n);
    engine.close();
  });
});
