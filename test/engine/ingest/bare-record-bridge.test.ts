/**
 * A record without a given name (a family name and a birth date) agrees with every person of that family and birth
 * date: spouses or twins born on one day; one without a family name with every person of that given name born that
 * day. Linked to one of them, it must not carry the other's records into that identity: an arriving record whose
 * name part none of the identity's records carrying it agrees with (not even Strong) is judged on those records
 * (engine/ingest/judged-member.ts). Before, each of the second person's records joined the first person's identity
 * through the bare record. The bare record may belong to either person: a review case asks about it, its score held
 * at Probable by the identity's named records (BareRecord).
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import {
  identityGroups,
  ingestEach,
  johnSmith,
  NHI_SYSTEM,
  heldCase,
  openCases,
  openRegistry,
  reconcileMatchingToEnd,
  testProfile,
} from '../../helpers/registry.ts';

/** The Probable threshold of the profile openRegistry sets, at which a held case's score stands. */
const PROBABLE = testProfile().MatchingRules.Thresholds.Probable;

/** A record of names and a birth date only, as a names-and-dates extract sends it: no sex, address or phone. */
function namesAndDate(
  id: string,
  given: string | null,
  extra: Record<string, unknown> = {},
  family: string | null = 'Lakin',
): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id,
    name: [{ ...(family === null ? {} : { family }), ...(given === null ? {} : { given: [given] }) }],
    birthDate: '1933-07-31',
    ...extra,
  };
}

/** The pair a case about the bare record c3 shows first: it, beside either of the second person's records. */
const ABOUT_C3 = ['c3', expect.stringMatching(/^c[45]$/)];

describe('a record without a given or family name between two people it agrees with', () => {
  it('does not carry the second person into the first one’s identity', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(
      engine,
      namesAndDate('c1', 'Daisy'),
      namesAndDate('c2', 'Daysy'),
      namesAndDate('c3', null),
      namesAndDate('c4', 'Homer'),
      namesAndDate('c5', 'Homer'),
    );
    // The bare record joins the only identity it meets; Homer's records stay together and apart from Daisy's.
    expect(await identityGroups(engine)).toEqual([
      ['c1', 'c2', 'c3'],
      ['c4', 'c5'],
    ]);
    // One question for the two identities, about the bare record, which agrees with Homer's records as with Daisy's.
    expect(await openCases(engine)).toEqual([heldCase('BareRecord', ABOUT_C3)]);
  });

  it('does not carry a second person of one given name and birth date in through a record without a family name', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(
      engine,
      namesAndDate('c1', 'Marguerite', {}, 'Okonkwo'),
      namesAndDate('c2', 'Marguerite', {}, 'Okonkow'),
      namesAndDate('c3', 'Marguerite', {}, null),
      namesAndDate('c4', 'Marguerite', {}, 'Szczepanski'),
      namesAndDate('c5', 'Marguerite', {}, 'Szczepanski'),
    );
    expect(await identityGroups(engine)).toEqual([
      ['c1', 'c2', 'c3'],
      ['c4', 'c5'],
    ]);
    // Marguerite Okonkwo and Marguerite Szczepanski of one birth date score Probable; the case still asks about the
    // record without a family name, which a reviewer is shown first.
    expect(await openCases(engine)).toMatchObject([{ limitedBy: 'BareRecord', score: PROBABLE, pair: ABOUT_C3 }]);
  });

  it('still links on the bare record when the identity has no named record, or a named one agrees Strong', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, namesAndDate('c1', null), namesAndDate('c2', 'Homer'));
    expect(await identityGroups(engine)).toEqual([['c1', 'c2']]);

    const other = openRegistry(tempDir());
    await ingestEach(other, namesAndDate('c1', 'Homer'), namesAndDate('c2', null), namesAndDate('c3', 'Hommer'));
    expect(await identityGroups(other)).toEqual([['c1', 'c2', 'c3']]);
    expect(await openCases(other)).toEqual([]);
  });

  it('links on a trusted identifier of the bare record, which decides before any score', async () => {
    const engine = openRegistry(tempDir());
    const nhi = (value: string) => ({ identifier: [{ system: NHI_SYSTEM, value }] });
    await ingestEach(
      engine,
      namesAndDate('c1', 'Daisy'),
      namesAndDate('c2', null, nhi('9434765919')),
      namesAndDate('c3', 'Homer', nhi('9434765919')),
    );
    expect(await identityGroups(engine)).toEqual([['c1', 'c2', 'c3']]);
    expect(await openCases(engine)).toEqual([]);
  });

  it('is held so where it arrives after both people and joins one of them', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, namesAndDate('c1', 'Daisy'), namesAndDate('c2', 'Homer'), namesAndDate('c3', null));
    // It agrees with both at a score of 1 and joins one; the case about the other asks whose it is. Before, the case
    // read Certain on its pair with the other person's record, as if the two identities were one person.
    const groups = await identityGroups(engine);
    expect(groups).toHaveLength(2);
    expect(groups.flat().sort()).toEqual(['c1', 'c2', 'c3']);
    expect(await openCases(engine)).toMatchObject([
      {
        limitedBy: 'BareRecord',
        score: PROBABLE,
        decision: 'probable',
        pair: [expect.stringMatching(/^c[12]$/), 'c3'],
      },
    ]);
  });

  it('is held so by reconciliation too, where a corrected birth date brings the second person to it', async () => {
    const engine = openRegistry(tempDir());
    // Homer's record arrives with another birth date, then its source corrects it: an update is not matched again.
    await ingestEach(engine, namesAndDate('c1', 'Daisy'), namesAndDate('c2', null), {
      ...namesAndDate('c3', 'Homer'),
      birthDate: '1934-02-02',
    });
    await ingestEach(engine, namesAndDate('c3', 'Homer'));
    expect(await identityGroups(engine)).toEqual([['c1', 'c2'], ['c3']]);
    expect(await openCases(engine)).toEqual([]);

    reconcileMatchingToEnd(engine);
    // Without the hold the case read Certain (0.9991) on the bare record's pair with Homer's.
    expect(await openCases(engine)).toEqual([heldCase('BareRecord', ['c2', 'c3'])]);
  });
});

describe('a record without a birth date between a father and son of its name at one home', () => {
  it.each([
    ['after the father', [johnSmith('father', '1956-04-02'), johnSmith('lab')]],
    ['before the father', [johnSmith('lab'), johnSmith('father', '1956-04-02')]],
  ])('does not carry the son into the father’s identity, arriving %s', async (_, first) => {
    const engine = openRegistry(tempDir());
    await ingestEach(engine, ...first);
    expect(await identityGroups(engine)).toEqual([['father', 'lab']]);
    // Before, the son joined through the record without a birth date (a score of 1), and no case asked.
    await ingestEach(engine, johnSmith('son', '1986-09-21'));
    expect(await identityGroups(engine)).toEqual([['father', 'lab'], ['son']]);
    expect(await openCases(engine)).toEqual([heldCase('BareRecord', ['lab', 'son'])]);
    engine.close();
  });

  it('links on it a record whose birth date is a keying error off, or rewritten in another year; not one months off', async () => {
    const engine = openRegistry(tempDir());
    await ingestEach(
      engine,
      johnSmith('a', '1956-04-02'),
      johnSmith('lab'),
      johnSmith('b', '1956-04-12'),
      johnSmith('c', '1976-04-02'),
    );
    expect(await identityGroups(engine)).toEqual([['a', 'b', 'c', 'lab']]);
    // Born months from every dated record: a pair the birth-date rule holds (BirthDateConflict) is not linked through
    // the record without a date either.
    await ingestEach(engine, johnSmith('d', '1956-09-20'));
    expect(await identityGroups(engine)).toEqual([['a', 'b', 'c', 'lab'], ['d']]);
    expect((await openCases(engine)).map((c) => [c['limitedBy'], c['pair']])).toEqual([['BareRecord', ['d', 'lab']]]);
    engine.close();
  });
});
