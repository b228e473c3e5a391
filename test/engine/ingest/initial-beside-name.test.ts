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
  jSmith,
  openCases,
  openRegistry,
  withoutSex,
} from '../../helpers/registry.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';

const BORN = '1956-04-02';

/** The twin rule's reason on the only open case. */
async function twinReasonOfTheCase(engine: LocalEngine): Promise<string | undefined> {
  const { rows } = await engine.call('reviews/list', {}, ctx());
  expect(rows).toHaveLength(1);
  return rows[0]?.twinReason ?? undefined;
}

describe('an initial alone beside a name of its letter', () => {
  it('opens a review case about J Smith, who moved, and John Smith of one birth date; it links neither', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, johnSmith('john', BORN), jSmith('j-moved', BORN, true));
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
    await ingestEach(engine, withoutSex(johnSmith('john', BORN)), withoutSex(jSmith('j-home', BORN)));
    expect(await identityGroups(engine)).toEqual([['j-home'], ['john']]);
    const [only] = await openCases(engine);
    expect(only).toMatchObject({ limitedBy: 'PossibleTwin', decision: 'probable', pair: ['j-home', 'john'] });
    expect(only?.heldFrom).toBeGreaterThan(0.97);
    expect(await twinReasonOfTheCase(engine)).toBe('initial-alone');
    engine.close();
  });

  it('opens a review case about J Smith, who moved, and Robert James Smith, who may go by James; it links neither', async () => {
    const engine = openRegistry(tempDir());
    const robertJames = { ...johnSmith('robert-james', BORN), name: [{ family: 'Smith', given: ['Robert', 'James'] }] };
    await ingestEach(engine, robertJames, jSmith('j-moved', BORN, true));
    expect(await identityGroups(engine)).toEqual([['j-moved'], ['robert-james']]);
    const [only] = await openCases(engine);
    expect(only).toMatchObject({ limitedBy: 'PossibleTwin', decision: 'probable', pair: ['j-moved', 'robert-james'] });
    expect(await twinReasonOfTheCase(engine)).toBe('initial-alone');
    engine.close();
  });

  it('leaves apart, with no case, an initial of another letter and a birth date of another generation', async () => {
    const engine = openRegistry(tempDir());
    const other = { ...jSmith('m-moved', BORN, true), name: [{ use: 'official', family: 'Smith', given: ['M'] }] };
    const son = jSmith('j-son', '1986-09-21', true);
    await ingestEach(engine, johnSmith('john', BORN), other, son);
    expect(await identityGroups(engine)).toEqual([['j-son'], ['john'], ['m-moved']]);
    expect(await openCases(engine)).toEqual([]);
    engine.close();
  });

  it('still links a full name to its record as before: John beside John', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, johnSmith('john', BORN), johnSmith('john-again', BORN));
    expect(await identityGroups(engine)).toEqual([['john', 'john-again']]);
    engine.close();
  });
});
