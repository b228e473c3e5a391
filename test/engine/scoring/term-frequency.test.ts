import { describe, expect, it } from 'vitest';
import {
  MAX_RARITY,
  MIN_COMMON_COUNT,
  MIN_TERM_RECORDS,
  rememberedTermFrequencies,
  termFrequencyAdjustment,
  type TermCount,
  type TermFrequencyField,
  type TermFrequencyReader,
} from '../../../engine/scoring/term-frequency.ts';
import { storedTermFrequencies, termFrequencySnapshot } from '../../../engine/store/term-frequency.ts';
import { copyTermReadings, createScorer, modelTermFrequency, TERM_READINGS } from '../../../engine/scoring/scorer.ts';
import { newScratch } from '../../../engine/scoring/field-comparison.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import { compileModel } from '../../../engine/scoring/fellegi-sunter.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { scoreBasis } from '../../../engine/scoring/score-basis.ts';
import { scoreWaterfall } from '../../../engine/contract/score-explanation.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';

/** Counts held in memory: the reader the store gives, without the store. */
function readerOf(
  counts: Partial<Record<TermFrequencyField, Record<string, number>>>,
  total: number,
  average: number,
): TermFrequencyReader {
  return {
    count: (field, value): TermCount => ({
      count: counts[field]?.[value] ?? 0,
      total,
      sumSquares: average * total * total,
    }),
  };
}

describe('term-frequency adjustment (Winkler 2000; Splink term_frequency_adjustments)', () => {
  it('is ln(ū / p(v)) with p(v) = count / total and ū = Σ count² / total², bounded by ±ln(MAX_RARITY), none below MIN_TERM_RECORDS', () => {
    // ū = 4e-3: two records picked at random share the name 4 times in 1,000.
    const of = (count: number, total: number): TermCount => ({ count, total, sumSquares: 4e-3 * total * total });
    // 100 of 10,000 records (1%): two and a half times the average name's frequency, so it weighs less.
    expect(termFrequencyAdjustment(of(100, 10_000))).toBeCloseTo(Math.log(4e-3 / 1e-2), 12);
    // 2 of 10,000: twenty times rarer than the average, ln 20 more.
    expect(termFrequencyAdjustment(of(2, 10_000))).toBeCloseTo(Math.log(20), 12);
    // A value not yet stored counts as seen once.
    expect(termFrequencyAdjustment(of(0, 10_000))).toBe(termFrequencyAdjustment(of(1, 10_000)));
    // 1 of 10 million and all of them: the bounds hold.
    expect(termFrequencyAdjustment(of(1, 10_000_000))).toBe(Math.log(MAX_RARITY));
    expect(termFrequencyAdjustment({ count: 5000, total: 10_000, sumSquares: 1e4 })).toBe(-Math.log(MAX_RARITY));
    // Too few records to say what is rare: no adjustment.
    expect(termFrequencyAdjustment(of(1, MIN_TERM_RECORDS - 1))).toBeNaN();
    expect(termFrequencyAdjustment(of(1, MIN_TERM_RECORDS))).toBeCloseTo(Math.log(4), 12);
  });

  it("never weighs agreement above ln(m / p(v)): under a model whose u is below the population's ū, ln(u / p(v))", () => {
    // A population where a tenth carry one name (ū ≈ 0.01) under the default family-name u of 0.002.
    const of = (count: number): TermCount => ({ count, total: 20_000, sumSquares: 0.01 * 20_000 * 20_000 });
    // The relative form alone: a tenth is ten times the average name, ln 0.1 (weight ln(m/u) + ln 0.1 = ln(m / 0.02)).
    expect(termFrequencyAdjustment(of(2000))).toBeCloseTo(Math.log(0.1), 12);
    // Under u = 0.002 two people share the name a tenth of the time whatever u says: ln(0.002 / 0.1), the weight
    // ln(m / 0.1).
    expect(termFrequencyAdjustment(of(2000), 0.002)).toBeCloseTo(Math.log(0.002 / 0.1), 12);
    // A rare name there: ln(0.002 / 1e-4) = ln 20 under the relative form's ln 100 (bounded at ln 50).
    expect(termFrequencyAdjustment(of(2), 0.002)).toBeCloseTo(Math.log(20), 12);
    expect(termFrequencyAdjustment(of(2))).toBe(Math.log(MAX_RARITY));
    // A model whose u is above ū (a calibrated one, u among candidates) keeps the relative form, the lower one.
    expect(termFrequencyAdjustment(of(2000), 0.05)).toBeCloseTo(Math.log(0.1), 12);
    // Too few records to know rarity: none, but the cap on a name counted MIN_COMMON_COUNT times (a new registry).
    const small = (count: number): TermCount => ({ count, total: 900, sumSquares: 8100 });
    expect(termFrequencyAdjustment(small(MIN_COMMON_COUNT - 1), 0.002)).toBeNaN();
    expect(termFrequencyAdjustment(small(90), 0.002)).toBeCloseTo(Math.log(0.002 / 0.1), 12);
    expect(termFrequencyAdjustment(small(MIN_COMMON_COUNT), 0.05)).toBe(0);
    expect(termFrequencyAdjustment(small(90))).toBe(0);
  });

  it('weighs agreement on a rare name above agreement on a common one, visibly in the evidence, and the waterfall adds up', () => {
    const profile = defaultProfile([{ SourceSystem: 'a' }]);
    const reader = readerOf({ familyName: { smith: 900, fairweather: 2 }, givenName: { annabel: 30 } }, 10_000, 4e-3);
    const scorer = createScorer(profile, reader);
    const plain = createScorer(profile);
    // Another given name (Partial) and an address of their own: the family name carries the pair.
    const a: MatchFields = { ...SAMPLE_FIELDS, addressLine: null, phone: null, postalCode: null, city: null };
    const b: MatchFields = { ...a, givenName: 'annie', birthDate: '1984-03-18' };
    const rare = scorer.explain(scorer.prepare(a), scorer.prepare(b));
    const common = scorer.explain(
      scorer.prepare({ ...a, familyName: 'smith' }),
      scorer.prepare({ ...b, familyName: 'smith' }),
    );
    const without = plain.explain(plain.prepare(a), plain.prepare(b));
    expect(rare.score).toBeGreaterThan(without.score);
    expect(common.score).toBeLessThan(without.score);

    const family = rare.evidence.find((e) => e.field === 'familyName');
    const model = profile.MatchingRules.FellegiSunter;
    if (model === null) throw new Error('the default profile has a model');
    const exactWeight =
      Math.log(model.fields.familyName?.m.Exact ?? Number.NaN) -
      Math.log(model.fields.familyName?.u.Exact ?? Number.NaN);
    // The population's ū (4e-3) is above the model's u (2e-3): ln(u / p(v)) is the lower reading (ln 10, not ln 20).
    expect(family?.termFrequencyAdjustment).toBeCloseTo(Math.log(2e-3 / 2e-4), 12);
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

  it('gives assurance the adjustment the live scorer adds under another model, from one scoring under the active one', () => {
    const active = defaultProfile([{ SourceSystem: 'a' }]);
    const model = active.MatchingRules.FellegiSunter;
    if (model === null) throw new Error('the default profile has a model');
    // A model fitted elsewhere: u of exact names above the population's ū (as among candidates), and below it.
    const withU = (family: number, given: number): MatchingProfile => {
      const fields = { ...model.fields };
      for (const [field, u] of [
        ['familyName', family],
        ['givenName', given],
      ] as const) {
        const params = fields[field];
        if (params === undefined) throw new Error('the default model covers names');
        const Different = 1 - u - params.u.Strong - params.u.Partial;
        fields[field] = { ...params, u: { ...params.u, Exact: u, Different } };
      }
      return { ...active, MatchingRules: { ...active.MatchingRules, FellegiSunter: { ...model, fields } } };
    };
    // ū = 0.01 for both names: smith and john a tenth each, fairweather rare.
    const reader = readerOf(
      { familyName: { smith: 1000, fairweather: 3 }, givenName: { john: 1000, annabel: 40 } },
      10_000,
      0.01,
    );
    const a: MatchFields = { ...SAMPLE_FIELDS, addressLine: null, phone: null, postalCode: null, city: null };
    const pairs: [MatchFields, MatchFields][] = [
      [a, { ...a, birthDate: '1984-03-18' }],
      [
        { ...a, familyName: 'smith', givenName: 'john' },
        { ...a, familyName: 'smith', givenName: 'john', birthDate: '1964-03-17' },
      ],
    ];
    const readings = new Float64Array(TERM_READINGS * pairs.length);
    const scorer = createScorer(active, reader);
    const scratch = newScratch();
    pairs.forEach(([left, right], i) => {
      scorer.outcome(scorer.prepare(left), scorer.prepare(right), scratch);
      copyTermReadings(scratch, readings, i * TERM_READINGS);
    });
    for (const other of [withU(0.05, 0.05), withU(0.001, 0.002), active]) {
      const live = createScorer(other, reader);
      const compiled = compileModel(other.MatchingRules.FellegiSunter ?? model);
      pairs.forEach(([left, right], i) => {
        const explained = live.explain(live.prepare(left), live.prepare(right));
        const added = explained.evidence.reduce((sum, e) => sum + (e.termFrequencyAdjustment ?? 0), 0);
        expect(added).not.toBe(0);
        expect(modelTermFrequency(compiled, readings, i * TERM_READINGS)).toBeCloseTo(added, 12);
      });
    }
  });

  it('is kept by record writes in the same transaction, per tenant', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    await engine.call(
      'records/ingest',
      {
        sourceSystem: 'hospital',
        ndjson: ndjson(
          patient({ id: 'h1', mrn: 'M1' }),
          patient({ id: 'h2', mrn: 'M2', given: ['Chidi'], family: 'Okonkwo' }),
          patient({ id: 'h3', mrn: 'M3', given: ['Rupert'] }),
        ),
      },
      ctx('t1'),
    );
    const t1 = storedTermFrequencies(engine.env.store, 't1');
    const t2 = storedTermFrequencies(engine.env.store, 't2');
    // Σ count²: fairweather 2² + okonkwo 1²; annabel, chidi, rupert 1² each.
    expect(t1.count('familyName', 'fairweather')).toEqual({ count: 2, total: 3, sumSquares: 5 });
    expect(t1.count('givenName', 'annabel')).toEqual({ count: 1, total: 3, sumSquares: 3 });
    // Another tenant sees none of them.
    expect(t2.count('familyName', 'fairweather')).toEqual({ count: 0, total: 0, sumSquares: 0 });

    // A new version of h1 under another family name moves its count.
    await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'M1', family: 'Okonkwo' })) },
      ctx('t1'),
    );
    expect(t1.count('familyName', 'fairweather')).toEqual({ count: 1, total: 3, sumSquares: 5 });
    expect(t1.count('familyName', 'okonkwo')).toEqual({ count: 2, total: 3, sumSquares: 5 });
    // Every record with a family name is counted once, and the total and Σ count² follow the counts.
    const counted = engine.env.store
      .statement(
        "SELECT SUM(count) AS n, SUM(count * count) AS squares FROM term_frequency WHERE tenant_id = 't1' AND field = 'familyName'",
      )
      .get() as { n: number; squares: number };
    expect(t1.count('familyName', 'x')).toMatchObject({ total: counted.n, sumSquares: counted.squares });
    const records = engine.env.store
      .statement("SELECT COUNT(*) AS n FROM source_record WHERE tenant_id = 't1'")
      .get() as { n: number };
    expect(counted.n).toBe(records.n);

    // The snapshot the estimate reads once gives the same answers, per tenant, for stored and unseen values.
    const snapshot = termFrequencySnapshot(engine.env.store, 't1');
    for (const [field, value] of [
      ['familyName', 'okonkwo'],
      ['familyName', 'fairweather'],
      ['givenName', 'chidi'],
      ['givenName', 'nobody'],
    ] as const) {
      expect(snapshot.count(field, value)).toEqual(t1.count(field, value));
    }
    expect(termFrequencySnapshot(engine.env.store, 't2').count('familyName', 'okonkwo')).toEqual({
      count: 0,
      total: 0,
      sumSquares: 0,
    });
    engine.close();
  });
});

describe('rememberedTermFrequencies', () => {
  const counting = (): { reader: TermFrequencyReader; reads: string[] } => {
    const reads: string[] = [];
    return {
      reads,
      reader: {
        count(field, value) {
          reads.push(`${field}:${value}`);
          return { count: value.length, total: 100, sumSquares: 1000 };
        },
      },
    };
  };

  it('answers as the reader does and reads each value once', () => {
    const { reader, reads } = counting();
    const remembered = rememberedTermFrequencies(reader);
    for (const value of ['smith', 'jones', 'smith', 'smith', 'jones'])
      expect(remembered.count('familyName', value)).toEqual(reader.count('familyName', value));
    expect(remembered.count('givenName', 'smith')).toEqual({ count: 5, total: 100, sumSquares: 1000 });
    // Five reads by the test itself, two by the remembered reader for the family names, one for the given name.
    expect(reads.filter((r) => r === 'familyName:smith')).toHaveLength(4);
    expect(reads.filter((r) => r === 'givenName:smith')).toHaveLength(1);
  });

  it('stays bounded: beyond its capacity the oldest values are read again', () => {
    const { reader, reads } = counting();
    const remembered = rememberedTermFrequencies(reader, 4);
    for (const value of ['a', 'b', 'c', 'd', 'e', 'f']) remembered.count('familyName', value);
    remembered.count('familyName', 'f');
    expect(reads).toHaveLength(6);
    remembered.count('familyName', 'a');
    expect(reads).toHaveLength(7);
  });
});
