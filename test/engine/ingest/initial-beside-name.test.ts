/**
 * A record whose given name is an initial alone ("J Smith") beside a record of a name of that letter ("John Smith"),
 * one birth date. The initial counted against a match as another name does, so wherever the two homes differed the
 * record stayed apart with no case: a reviewer never saw it. Now it agrees Strong (level `initial-of-name`) and the
 * pair is always a review case, never a link: the initial fits James and Jane as well as John. Real SQLite registry,
 * the engine's own operations.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import {
  ctx,
  identityGroups,
  ingestEach,
  johnSmith,
  openCases,
  openRegistry,
  patient,
} from '../../helpers/registry.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';

const BORN = '1956-04-02';

/** J Smith, born on John Smith's birth date, at the address given (John's own by default), with or without a sex. */
function jSmith(id: string, where: { line?: string; postalCode?: string; gender?: string } = {}) {
  const record = {
    ...johnSmith(id, BORN),
    name: [{ use: 'official', family: 'Smith', given: ['J.'] }],
    ...(where.gender === undefined ? {} : { gender: where.gender }),
  };
  if (where.line !== undefined)
    Object.assign(record, {
      address: [{ use: 'home', line: [where.line], city: 'Southsea', postalCode: where.postalCode }],
      telecom: [],
    });
  if (where.gender === 'none') delete (record as { gender?: string }).gender;
  return record;
}

/** The twin rule's reason on the only open case. */
async function twinReasonOfTheCase(engine: LocalEngine): Promise<string | undefined> {
  const { rows } = await engine.call('reviews/list', {}, ctx());
  expect(rows).toHaveLength(1);
  return rows[0]?.twinReason ?? undefined;
}

describe('an initial alone beside a name of its letter', () => {
  it('opens a review case about J Smith, who moved, and John Smith of one birth date; it links neither', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(
      engine,
      johnSmith('john', BORN),
      jSmith('j-moved', { line: '9 Ocean Drive', postalCode: 'PO5 2QQ' }),
    );
    expect(await identityGroups(engine)).toEqual([['j-moved'], ['john']]);
    expect(await openCases(engine)).toEqual([
      {
        limitedBy: 'PossibleTwin',
        score: 0.5,
        heldFrom: expect.any(Number) as unknown,
        decision: 'probable',
        pair: ['j-moved', 'john'],
      },
    ]);
    expect(await twinReasonOfTheCase(engine)).toBe('initial-alone');
    engine.close();
  });

  it('never links them, with no sex recorded, at his home: the case is held at Probable', async () => {
    const engine = openRegistry(tempDir());
    const john = johnSmith('john', BORN);
    delete (john as { gender?: string }).gender;
    await ingestEach(engine, john, jSmith('j-home', { gender: 'none' }));
    expect(await identityGroups(engine)).toEqual([['j-home'], ['john']]);
    const [only] = await openCases(engine);
    expect(only).toMatchObject({ limitedBy: 'PossibleTwin', decision: 'probable', pair: ['j-home', 'john'] });
    expect(only?.heldFrom).toBeGreaterThan(0.97);
    expect(await twinReasonOfTheCase(engine)).toBe('initial-alone');
    engine.close();
  });

  it('leaves apart, with no case, an initial of another letter and a birth date of another generation', async () => {
    const engine = openRegistry(tempDir());
    const other = { ...jSmith('m-moved', { line: '9 Ocean Drive', postalCode: 'PO5 2QQ' }) };
    other.name = [{ use: 'official', family: 'Smith', given: ['M'] }];
    const son = { ...jSmith('j-son', { line: '9 Ocean Drive', postalCode: 'PO5 2QQ' }), birthDate: '1986-09-21' };
    await ingestEach(engine, johnSmith('john', BORN), other, son);
    expect(await identityGroups(engine)).toEqual([['j-son'], ['john'], ['m-moved']]);
    expect(await openCases(engine)).toEqual([]);
    engine.close();
  });

  it('still links a full name to its record as before: John beside John', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, johnSmith('john', BORN), patient({ ...johnSmithSpec(), id: 'john-again' }));
    expect(await identityGroups(engine)).toEqual([['john', 'john-again']]);
    engine.close();
  });
});

function johnSmithSpec() {
  return {
    family: 'Smith',
    given: ['John'],
    gender: 'male',
    line: '4 Elm Street',
    postalCode: 'PO2 1AA',
    birthDate: BORN,
  };
}
