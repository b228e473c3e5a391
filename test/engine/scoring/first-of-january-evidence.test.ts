/**
 * A community of a few common names, many registered on 1 January of their year of birth (refugees and migrants
 * registered from documents that give a year). Two records of 1 January were compared as dates: +10 for the same one,
 * +3.9 for years a digit apart (a keying error): the first two pairs below, each two people, were linked
 * automatically. Now two 1 Januaries say the year only (comparators/first-of-january.ts); the others say what that
 * leaves as it was, and what it sends to review.
 */
import { describe, expect, it } from 'vitest';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import { explainPair, householdRecord } from '../../helpers/household-patient.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { MatchResult } from '../../../engine/contract/matching.ts';

const profile = defaultProfile([{ SourceSystem: 'a' }]);

interface Person {
  readonly given: string;
  readonly family: string;
  readonly gender: string;
  readonly birthDate: string;
  readonly line: string;
  readonly postalCode: string;
  readonly phone: string;
}

/** The person's record: their own address and phone in place of the helper's household ones. */
const record = (p: Person): MatchFields =>
  householdRecord({
    name: [{ family: p.family, given: p.given.split(' ') }],
    gender: p.gender,
    birthDate: p.birthDate,
    telecom: [{ system: 'phone', value: p.phone }],
    address: [{ use: 'home', line: [p.line], city: 'Springfield', state: 'ND', postalCode: p.postalCode }],
  });

const pair = (a: Person, b: Person): MatchResult => explainPair(profile, record(a), record(b));
const field = (r: MatchResult, name: string) => r.evidence.find((e) => e.field === name);

const laila: Person = {
  given: 'Laila',
  family: 'Sultani',
  gender: 'female',
  birthDate: '1988-01-01',
  line: '211 River Road',
  postalCode: '72027',
  phone: '(204) 339-5037',
};

describe('birth dates on 1 January', () => {
  it('two namesakes of one year registered on 1 January are not linked on it', () => {
    // 0.9999 when the date counted +10.2 as any other.
    const r = pair(laila, { ...laila, line: '167 Pine Crescent', postalCode: '72076', phone: '(204) 339-2973' });
    expect(field(r, 'birthDate')).toMatchObject({
      band: null,
      similarity: null,
      logLikelihood: 0,
      level: 'first-of-january-same-year',
    });
    expect(r.decision).toBe('no-match');
  });

  it('nor two of adjacent years, which a digit apart looked like a keying error', () => {
    // 1.0000 when 1980 and 1987 were one digit wrong (Strong, +3.9).
    const r = pair(
      { ...laila, birthDate: '1980-01-01', line: '77 King Street' },
      { ...laila, birthDate: '1987-01-01', line: '237 Queen Street', phone: '(204) 555-4494' },
    );
    expect(field(r, 'birthDate')).toMatchObject({ band: 'Different', level: 'first-of-january-other-year' });
    expect(r.decision).toBe('no-match');
  });

  it('one person at one home is still linked; a 1 January beside another date of that year is held as before', () => {
    expect(pair(laila, laila).decision).toBe('certain');
    // Within a year: two people of one household, or one person's imputed date beside the real one (review).
    const r = pair(laila, { ...laila, birthDate: '1988-06-15' });
    expect(field(r, 'birthDate')).toMatchObject({ band: 'Partial', level: 'within-year' });
    expect(r).toMatchObject({ decision: 'probable', limitedBy: 'BirthDateConflict' });
  });

  it("is a newborn's real birthday: twins born on New Year's Day are held for review as on any other day", () => {
    const baby = (order: string): Person => ({ ...laila, given: `Baby Girl ${order}`, birthDate: '2026-01-01' });
    const r = pair(baby('A'), baby('B'));
    expect(field(r, 'birthDate')).toMatchObject({ band: 'Exact', level: 'exact' });
    expect(r).toMatchObject({ decision: 'probable', limitedBy: 'PossibleTwin' });
  });

  it('one person who moved, with names alone and a phone, goes to review', () => {
    const r = pair(laila, { ...laila, line: '5 Oak Road', postalCode: '72001' });
    expect(r).toMatchObject({ decision: 'probable', limitedBy: 'NamesOnly' });
  });
});
