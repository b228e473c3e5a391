/**
 * The scorer's two shortcuts of outcome(), checked against outcome() itself on every pair of three kinds of data
 * (households with shared contact details, FEBRL with its personal numbers, names and birth dates only):
 * - outcomeFromProbable, which reconciliation's matching phase scores with: it may skip the household fields of a
 *   pair only when the pair is certain to stay below Probable. Under several thresholds, with the term-frequency
 *   adjustment on.
 * - decidedBy, which the random-pair u counts bands with: outcome()'s decidedBy and field similarities, no score.
 */
import { describe, expect, it } from 'vitest';
import { createScorer, type PairOutcome, type Scorer } from '../../../engine/scoring/scorer.ts';
import { newScratch } from '../../../engine/scoring/field-comparison.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { sandboxProfile } from '../../../engine/operations/sandbox.ts';
import { febrlProfile } from '../../../engine/benchmark/febrl-run.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';
import { readFebrl } from '../../../engine/benchmark/febrl.ts';
import { generatePopulation, SYNTHETIC_SOURCES } from '../../../engine/synthetic/generate.ts';
import { generateExtract } from '../../../engine/synthetic/extract.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchingProfile } from '../../../engine/contract/profile.ts';
import type { R4Patient } from '../../../engine/fhir/patient.ts';
import type { TermFrequencyReader } from '../../../engine/scoring/term-frequency.ts';
import type { PreparedRecord } from '../../../engine/scoring/prepared-record.ts';
import { febrlFile } from '../../helpers/febrl.ts';

const fieldsOf = (patient: Record<string, unknown>, localIdentifierSystem?: string): MatchFields =>
  matchFieldsOf(patient as unknown as R4Patient, { localIdentifierSystem });

const synthetic = generatePopulation({ people: 300, seed: 5 }).records.map((r) =>
  fieldsOf(r.patient, SYNTHETIC_SOURCES.find((s) => s.sourceSystem === r.sourceSystem)?.localIdentifierSystem),
);
const febrl = readFebrl(febrlFile('dataset1.csv')).map((r) => fieldsOf(r.patient));
const namesAndDates = generateExtract({
  records: 1_500,
  duplicateShare: 0.1,
  seed: 21,
  fields: 'names-dates',
  errors: 'typical',
}).records.map((r) => fieldsOf(r.patient));

/** The records' own name counts, as a tenant's scorer reads them (at least 1,000 records, so they apply). */
function frequencies(records: readonly MatchFields[]): TermFrequencyReader {
  const counts = { familyName: new Map<string, number>(), givenName: new Map<string, number>() };
  for (const r of records)
    for (const field of ['familyName', 'givenName'] as const) {
      const value = r[field];
      if (value !== null) counts[field].set(value, (counts[field].get(value) ?? 0) + 1);
    }
  const squares = (m: Map<string, number>): number => [...m.values()].reduce((sum, c) => sum + c * c, 0);
  const sumSquares = { familyName: squares(counts.familyName), givenName: squares(counts.givenName) };
  const total = Math.max(records.length, 1_000);
  return { count: (field, value) => ({ count: counts[field].get(value) ?? 0, total, sumSquares: sumSquares[field] }) };
}

/** Every pair within a window of 12 in family-name order (the near pairs), and every 7th pair of the rest. */
function pairsOf(records: readonly PreparedRecord[]): [PreparedRecord, PreparedRecord][] {
  const sorted = [...records].sort((x, y) => (x.fields.familyName ?? '').localeCompare(y.fields.familyName ?? ''));
  const pairs: [PreparedRecord, PreparedRecord][] = [];
  let n = 0;
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++)
      if (j - i <= 12 || n++ % 7 === 0) pairs.push([sorted[i] as PreparedRecord, sorted[j] as PreparedRecord]);
  return pairs;
}

function withProbable(profile: MatchingProfile, probable: number): MatchingProfile {
  const { Thresholds } = profile.MatchingRules;
  return {
    ...profile,
    MatchingRules: {
      ...profile.MatchingRules,
      Thresholds: { Certain: Math.max(Thresholds.Certain, probable), Probable: probable },
    },
  };
}

const cases: [string, MatchingProfile, readonly MatchFields[]][] = [
  ['synthetic households (every field, a trusted number)', sandboxProfile(), synthetic],
  ['FEBRL 1 (personal numbers)', febrlProfile([{ sourceSystem: 'febrl-1', path: '' }]), febrl],
  ['names and birth dates only', defaultProfile([{ SourceSystem: 'registry-extract' }]), namesAndDates],
];

/** Equal similarities, NaN (not compared) equal to NaN. */
const sameSimilarities = (x: Float64Array, y: Float64Array): boolean => x.every((v, f) => Object.is(v, y[f]));

interface Tally {
  skipped: number;
  scored: number;
  atLeastProbable: number;
}

/** Compares outcomeFromProbable with outcome on every pair; returns how many it skipped. */
function check(scorer: Scorer, records: readonly MatchFields[], probable: number): Tally {
  const prepared = records.map((r) => scorer.prepare(r));
  const tally: Tally = { skipped: 0, scored: 0, atLeastProbable: 0 };
  for (const [a, b] of pairsOf(prepared)) {
    const full: PairOutcome = scorer.outcome(a, b);
    const screened = scorer.outcomeFromProbable(a, b);
    if (full.decision !== 'no-match') tally.atLeastProbable++;
    if (screened === undefined) {
      tally.skipped++;
      // Skipped only when the pair is certain to stay below Probable.
      if (full.decision !== 'no-match' || full.score >= probable) expect.fail(`a pair at ${full.score} was skipped`);
    } else {
      tally.scored++;
      expect(screened).toEqual(full);
    }
  }
  return tally;
}

describe('outcomeFromProbable skips only pairs that stay below Probable', () => {
  for (const [name, profile, records] of cases) {
    it(`${name}: equal to outcome() wherever it scores, and skips most non-matches`, () => {
      const tally = check(
        createScorer(profile, frequencies(records)),
        records,
        profile.MatchingRules.Thresholds.Probable,
      );
      // The pairs that matter were all scored, and there were some; most of the rest were skipped.
      expect(tally.atLeastProbable).toBeGreaterThan(100);
      expect(tally.skipped / (tally.skipped + tally.scored)).toBeGreaterThan(0.5);
    });

    it(`${name}: sound under other thresholds too`, () => {
      for (const probable of [0.05, 0.5, 0.99, 0.999999, 1])
        check(createScorer(withProbable(profile, probable), frequencies(records)), records, probable);
    });
  }

  it('never skips under the weighted-similarity method (no bound is drawn for it)', () => {
    const base = sandboxProfile();
    const profile: MatchingProfile = { ...base, MatchingRules: { ...base.MatchingRules, FellegiSunter: null } };
    const tally = check(createScorer(profile), synthetic, profile.MatchingRules.Thresholds.Probable);
    expect(tally.skipped).toBe(0);
  });
});

describe('decidedBy says what outcome() says decides the pair, and leaves the same similarities', () => {
  for (const [name, profile, records] of cases) {
    it(name, () => {
      const scorer = createScorer(profile, frequencies(records));
      const prepared = records.map((r) => scorer.prepare(r));
      const full = newScratch();
      const shortcut = newScratch();
      const seen = new Map<string, number>();
      for (const [a, b] of pairsOf(prepared)) {
        const decided = scorer.decidedBy(a, b, shortcut);
        expect(decided).toBe(scorer.outcome(a, b, full).decidedBy);
        if (!sameSimilarities(shortcut.similarity, full.similarity))
          expect(shortcut.similarity).toEqual(full.similarity);
        seen.set(decided, (seen.get(decided) ?? 0) + 1);
      }
      // Scored pairs on every set, and the pairs decided before the model where the data has them.
      expect(seen.get('score')).toBeGreaterThan(1_000);
      if (name.startsWith('synthetic')) {
        expect(seen.get('trusted-identifier')).toBeGreaterThan(0);
        expect(seen.get('hard-conflict')).toBeGreaterThan(0);
      }
    });
  }
});
