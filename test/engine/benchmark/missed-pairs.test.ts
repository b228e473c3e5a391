import { afterEach, describe, expect, it } from 'vitest';
import { missClass, missedPairs } from '../../../engine/benchmark/missed-pairs.ts';
import { refKey, refOfKey } from '../../../engine/benchmark/population-quality.ts';
import type { ExplainOutput } from '../../../engine/contract/operations.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';
import { ctx, movedAway, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { tempDir } from '../../helpers/temp.ts';

let engine: LocalEngine | undefined;
afterEach(() => engine?.close());

/** An explanation with the parts missClass reads; bands by field (a field left out was not compared). */
function explained(
  decision: ExplainOutput['decision'],
  bands: Record<string, string>,
  extra: { limitedBy?: string; sharedBlockingRules?: string[] } = {},
): ExplainOutput {
  return {
    decision,
    ...(extra.limitedBy === undefined ? {} : { limitedBy: extra.limitedBy }),
    sharedBlockingRules: extra.sharedBlockingRules ?? ['birth-date'],
    evidence: Object.entries(bands).map(([field, band]) => ({ field, band })),
  } as unknown as ExplainOutput;
}

describe('missed true pairs', () => {
  it('classes a pair by what kept it apart: blocking, a hold, the review band, or the person fields below Probable', () => {
    expect(missClass(explained('no-match', {}, { sharedBlockingRules: [] }))).toBe('no blocking key shared');
    expect(missClass(explained('certain', { birthDate: 'Exact' }))).toMatch(/^certain when scored alone/);
    expect(missClass(explained('probable', {}, { limitedBy: 'NamesOnly' }))).toBe('held at Probable: NamesOnly');
    expect(missClass(explained('probable', { birthDate: 'Exact' }))).toBe('Probable (the review band)');
    expect(missClass(explained('no-match', { givenName: 'Exact' }))).toBe(
      'below Probable: a birth date missing on one side',
    );
    expect(missClass(explained('no-match', { birthDate: 'Partial', givenName: 'Exact' }))).toBe(
      'below Probable: birth dates differ',
    );
    expect(missClass(explained('no-match', { birthDate: 'Exact', givenName: 'Different' }))).toMatch(
      /same birth date, given names far apart/,
    );
    expect(missClass(explained('no-match', { birthDate: 'Exact', givenName: 'Exact' }))).toBe('below Probable: other');
  });

  it('counts the true pairs a tenant left apart, by class, and which of them an open review case asks about', async () => {
    engine = openRegistry(tempDir());
    const people = [
      patient({ id: 'a1' }),
      // The first person moved and both names misspelt: Probable, so a review case.
      movedAway('a2'),
      patient({ id: 'b1', family: 'Okonkwo', given: ['Chidi'], birthDate: '1970-01-05', line: '1 Elm Street' }),
      patient({ id: 'b2', family: 'Okonkwo', given: ['Chidi'], birthDate: '1970-01-05', line: '1 Elm Street' }),
      // One person by the ground truth, nothing alike: no blocking key shared.
      patient({
        id: 'c1',
        family: 'Pemberton',
        given: ['Oliver'],
        birthDate: '1990-06-01',
        line: '5 Oak Road',
        city: 'York',
        postalCode: 'YO1 2BB',
        phone: '01904 000 002',
      }),
      patient({
        id: 'c2',
        family: 'Zhang',
        given: ['Wei'],
        birthDate: '1955-11-30',
        line: '77 Pine Avenue',
        city: 'Bath',
        postalCode: 'BA1 9ZZ',
        phone: '01225 000 003',
      }),
    ];
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(...people) }, ctx());
    const truth = new Map(
      Object.entries({ a1: 'A', a2: 'A', b1: 'B', b2: 'B', c1: 'C', c2: 'C' }).map(([id, who]) => [
        `clinic/${id}`,
        who,
      ]),
    );
    const missed = await missedPairs(engine, ctx(), truth);
    expect(missed.truePairs).toBe(3);
    expect(missed.linked).toBe(1);
    expect(missed.classes).toEqual([
      { name: 'no blocking key shared', pairs: 1, inOpenCase: 0 },
      { name: 'Probable (the review band)', pairs: 1, inOpenCase: 1 },
    ]);
  });
});

describe('record keys', () => {
  it('name the record they were built from, also when the source system is a URI with slashes', () => {
    for (const [sourceSystem, localId] of [
      ['febrl-4a', 'rec-1-dup-0'],
      ['https://hospital.example/fhir/patients', 'p.42'],
    ] as const)
      expect(refOfKey(refKey(sourceSystem, localId))).toEqual({ sourceSystem, localId });
  });
});
