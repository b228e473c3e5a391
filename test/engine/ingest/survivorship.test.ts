/**
 * The canonical record keeps what a source sent only sometimes: a partial birth date, a generational suffix, a birth
 * order, a multiple birth. Before, survivorship read the fields every record carries, so an identity of a year-only
 * record lost its year and a Junior his suffix.
 */
import { describe, expect, it } from 'vitest';
import { buildCanonical, type SurvivorInput } from '../../../engine/ingest/survivorship.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';

const TRUST = ['registry', 'clinic'];
const record = (recordId: number, sourceSystem: string, fields: Partial<MatchFields>): SurvivorInput => ({
  recordId,
  sourceSystem,
  localId: `r${String(recordId)}`,
  fields: { ...SAMPLE_FIELDS, ...fields },
  sourceLastUpdated: null,
});

describe('survivorship of the fields a source sends only sometimes', () => {
  it('keeps a partial birth date where no record gives a full one, from the most trusted record with one', () => {
    const canonical = buildCanonical(
      [
        record(1, 'clinic', { birthDate: null, partialBirthDate: '1962-03' }),
        record(2, 'registry', { birthDate: null, partialBirthDate: '1962' }),
      ],
      TRUST,
    );
    expect(canonical.fields).toMatchObject({ birthDate: null, partialBirthDate: '1962' });
    expect(canonical.provenance.partialBirthDate).toBe('registry/r2');
  });

  it('leaves it out beside a full birth date, which says more', () => {
    const canonical = buildCanonical(
      [
        record(1, 'registry', { birthDate: null, partialBirthDate: '1962' }),
        record(2, 'clinic', { birthDate: '1962-03-04' }),
      ],
      TRUST,
    );
    expect(canonical.fields.birthDate).toBe('1962-03-04');
    expect(canonical.provenance.birthDate).toBe('clinic/r2');
    expect('partialBirthDate' in canonical.fields).toBe(false);
    expect(canonical.provenance.partialBirthDate).toBeUndefined();
  });

  it('keeps a generational suffix, a birth order and a multiple birth, each with the record it came from', () => {
    const canonical = buildCanonical(
      [
        record(1, 'clinic', { generation: 'jr', birthOrder: 2, multipleBirth: true }),
        record(2, 'registry', { multipleBirth: true }),
      ],
      TRUST,
    );
    expect(canonical.fields).toMatchObject({ generation: 'jr', birthOrder: 2, multipleBirth: true });
    expect(canonical.provenance).toMatchObject({
      generation: 'clinic/r1',
      birthOrder: 'clinic/r1',
      multipleBirth: 'registry/r2',
    });
  });

  it('adds nothing to an identity whose records carry none of them, so its canonical record stays as it was', () => {
    const canonical = buildCanonical([record(1, 'clinic', {}), record(2, 'registry', {})], TRUST);
    expect(Object.keys(canonical.fields).sort()).toEqual(Object.keys(SAMPLE_FIELDS).sort());
    for (const field of ['partialBirthDate', 'generation', 'birthOrder', 'multipleBirth'])
      expect(Object.keys(canonical.provenance)).not.toContain(field);
  });
});
