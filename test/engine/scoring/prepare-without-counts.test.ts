/**
 * Ingestion prepares a record's candidates without reading their name counts (Scorer.prepareWithoutCounts): each is
 * compared only with the record being ingested, prepared now, and scoring takes the fresher of two readings. Here a
 * candidate is prepared in a registry of 30,000 records and the new record once the registry has doubled; every
 * outcome and explanation with the candidate's stale counts equals the one with none, in a registry large enough
 * that its size moves the prior, and where an exactly agreeing name is adjusted by its frequency.
 */
import { describe, expect, it } from 'vitest';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import type { TermCount, TermFrequencyField, TermFrequencyReader } from '../../../engine/scoring/term-frequency.ts';
import { sandboxProfile } from '../../../engine/operations/sandbox.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';

/** Name counts that can grow: a registry of `total` records per field, with the given counts. */
function growingCounts(): {
  reader: TermFrequencyReader;
  set: (total: number, counts: Record<string, number>) => void;
} {
  let total = 0;
  let counts: Record<string, number> = {};
  const count = (field: TermFrequencyField, value: string): TermCount => {
    const c = counts[`${field}:${value}`] ?? 0;
    // Σ count² of a registry whose names are as common as this one, near enough for a reading.
    return { count: c, total, sumSquares: Math.round(total * 40) };
  };
  return {
    reader: { count, countNames: (family, given) => [count('familyName', family), count('givenName', given)] },
    set: (t, c) => {
      total = t;
      counts = c;
    },
  };
}

const member: MatchFields = { ...SAMPLE_FIELDS };
const newRecords: [string, MatchFields][] = [
  ['the same person, another phone', { ...SAMPLE_FIELDS, phone: '2392009999' }],
  ['another given name (a twin pattern)', { ...SAMPLE_FIELDS, givenName: 'beatrice' }],
  ['another birth date', { ...SAMPLE_FIELDS, birthDate: '1985-03-17' }],
  ['no given name', { ...SAMPLE_FIELDS, givenName: null }],
  ['no family name', { ...SAMPLE_FIELDS, familyName: null }],
  ['a misspelt family name', { ...SAMPLE_FIELDS, familyName: 'fairwether' }],
];

describe("a candidate's name counts in ingestion", () => {
  const counts = growingCounts();
  const scorer = createScorer(sandboxProfile(), counts.reader);
  counts.set(30_000, { 'familyName:fairweather': 30, 'givenName:annabel': 90 });
  const counted = scorer.prepare(member);
  const uncounted = scorer.prepareWithoutCounts(member);
  counts.set(60_000, { 'familyName:fairweather': 31, 'givenName:annabel': 91, 'givenName:beatrice': 40 });

  it('are not read: the candidate is prepared as it would be, without them', () => {
    expect(counted.familyCount?.total).toBe(30_000);
    expect(uncounted.familyCount).toBeUndefined();
    expect(uncounted.givenCount).toBeUndefined();
    expect({ ...uncounted, familyCount: counted.familyCount, givenCount: counted.givenCount }).toEqual(counted);
  });

  it.each(newRecords)('change no outcome or explanation: %s', (_, fields) => {
    const fresh = scorer.prepare(fields);
    expect(scorer.outcome(fresh, uncounted)).toEqual(scorer.outcome(fresh, counted));
    expect(scorer.explain(fresh, uncounted)).toEqual(scorer.explain(fresh, counted));
  });

  it('and the case above is one where counts matter: a frequency adjustment and a prior moved for the size', () => {
    const fresh = scorer.prepare(newRecords[0]?.[1] ?? member);
    const explained = scorer.explain(fresh, uncounted);
    expect(explained.evidence.find((e) => e.field === 'familyName')?.termFrequencyAdjustment).toBeDefined();
    expect(explained.priorAdjustment).toBeLessThan(0);
    // Read alone, the candidate's stale counts would say otherwise: a registry half the size.
    expect(scorer.explain(counted, counted).priorAdjustment).toBeGreaterThan(explained.priorAdjustment ?? 0);
  });
});
