import { describe, expect, it } from 'vitest';
import { generateExtract, type ExtractOptions } from '../../../engine/synthetic/extract.ts';
import { EngineError } from '../../../engine/contract/errors.ts';

const base: ExtractOptions = { records: 2_000, duplicateShare: 0.1, seed: 5, fields: 'all', errors: 'heavy' };

/** Records per person, from the extract's own person IDs. */
function clusters(options: ExtractOptions): { sizes: number[]; truePairs: number; records: number } {
  const extract = generateExtract(options);
  const byPerson = new Map<string, number>();
  for (const r of extract.records) byPerson.set(r.personId, (byPerson.get(r.personId) ?? 0) + 1);
  return { sizes: [...byPerson.values()], truePairs: extract.truePairs, records: extract.records.length };
}

describe('generated registry extracts', () => {
  it.each([0, 0.1, 0.5, 0.6, 0.75, 0.9])(
    'holds the records asked for at a duplicate share of %s, and counts their true pairs',
    (duplicateShare) => {
      const { sizes, truePairs, records } = clusters({ ...base, duplicateShare });
      expect(records).toBe(2_000);
      // One original per person; every other record is a duplicate of one of them.
      expect(sizes.length).toBe(Math.round(2_000 * (1 - duplicateShare)));
      expect(truePairs).toBe(sizes.reduce((sum, k) => sum + (k * (k - 1)) / 2, 0));
    },
  );

  it('spreads a high share over the people (about ten records each at 0.9), not over a few', () => {
    const { sizes } = clusters({ ...base, duplicateShare: 0.9 });
    expect(sizes.length).toBe(200);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(25);
  });

  it('gives the same records for the same options, and others for another seed', () => {
    const options = { ...base, duplicateShare: 0.9 };
    expect(JSON.stringify(generateExtract(options))).toBe(JSON.stringify(generateExtract(options)));
    expect(JSON.stringify(generateExtract({ ...options, seed: 6 }))).not.toBe(JSON.stringify(generateExtract(options)));
  });

  it('puts most people on a few common names when asked, and leaves the extracts as they were by default', () => {
    // Σ p(v)² over the values of a name part: the chance that two records picked at random share it.
    const sharing = (options: ExtractOptions, part: 'family' | 'given'): number => {
      const counts = new Map<string, number>();
      for (const { patient } of generateExtract(options).records) {
        const [name] = patient.name as { family?: string; given?: string[] }[];
        const value = part === 'family' ? name?.family : name?.given?.[0];
        if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const total = [...counts.values()].reduce((sum, c) => sum + c, 0);
      return [...counts.values()].reduce((sum, c) => sum + (c / total) ** 2, 0);
    };
    const namesDates: ExtractOptions = { ...base, fields: 'names-dates', errors: 'typical' };
    const concentrated: ExtractOptions = { ...namesDates, commonNames: 'concentrated' };
    expect(JSON.stringify(generateExtract({ ...namesDates, commonNames: 'typical' }))).toBe(
      JSON.stringify(generateExtract(namesDates)),
    );
    expect(JSON.stringify(generateExtract(concentrated))).toBe(JSON.stringify(generateExtract(concentrated)));
    // On 2,000 records: about 0.008 and 0.005 by default, 0.044 and 0.017 concentrated (seeds 5 to 7).
    expect(sharing(concentrated, 'family')).toBeGreaterThan(3 * sharing(namesDates, 'family'));
    expect(sharing(concentrated, 'given')).toBeGreaterThan(2 * sharing(namesDates, 'given'));
  });

  it('writes names and birth dates only when asked', () => {
    const { records } = generateExtract({ ...base, fields: 'names-dates', records: 300 });
    const keys = new Set(records.flatMap((r) => Object.keys(r.patient)));
    for (const key of ['address', 'telecom', 'identifier', 'gender']) expect(keys.has(key)).toBe(false);
    expect(keys.has('name')).toBe(true);
    expect(keys.has('birthDate')).toBe(true);
  });

  it('refuses a share outside 0 to 0.9, naming it', () => {
    for (const duplicateShare of [0.95, -0.1, Number.NaN]) {
      let caught: unknown;
      try {
        generateExtract({ ...base, duplicateShare });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(EngineError);
      expect((caught as EngineError).issues[0]?.path).toBe('duplicateShare');
    }
  });
});
