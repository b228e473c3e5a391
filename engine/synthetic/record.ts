import {
  ERROR_RATES,
  birthDateDigitError,
  canonicalPhone,
  phoneVariant,
  postcodeTypo,
  swapDayMonth,
  transpose,
  typo,
} from './errors.ts';
import type { SyntheticErrorKind } from './errors.ts';
import { NICKNAMES, capitalise, hasDiacritics, stripDiacritics } from './names.ts';
import { ADULT_BORN_BEFORE } from './person.ts';
import type { Address, Person, PersonFactory } from './person.ts';
import type { Rng } from './prng.ts';

export interface HumanName {
  readonly use: 'official' | 'maiden';
  readonly family: string;
  readonly given: readonly string[];
}

/** One source record before it has a place in the output and hence its local identifiers. */
export interface RecordDraft {
  readonly person: Person;
  readonly sourceIndex: number;
  /** 0 for the person's clean first record, then 1, 2, 3. */
  readonly variant: number;
  readonly errors: readonly SyntheticErrorKind[];
  readonly names: readonly HumanName[];
  readonly birthDate: string | null;
  readonly address: Address | null;
  readonly phone: string | null;
  readonly email: string | null;
  /** Whether this record carries the person's national health identifier. */
  readonly hasNationalId: boolean;
  readonly lastUpdated: string;
}

/**
 * What a person's later records share: someone who moved or married did so once, so every record
 * showing the move or the marriage shows the same new address or name.
 */
export interface LaterLife {
  address?: Address;
  family?: string;
}

/** A mistyped birth date must still be in the past at the reference date. */
const LATEST_BIRTH_DATE = '2025-12-31';
/** Shared by every clean record, so that they do not each hold an empty array. */
const NO_ERRORS: readonly SyntheticErrorKind[] = Object.freeze([]);
const FIRST_UPDATE_MS = Date.UTC(2020, 0, 1);
const LAST_UPDATE_MS = Date.UTC(2026, 0, 1);

/** A record update time in 2020–2025, never before the person was born. */
function lastUpdated(rng: Rng, birthDate: string): string {
  const from = birthDate < '2020-01-01' ? FIRST_UPDATE_MS : Date.parse(`${birthDate}T00:00:00Z`);
  const seconds = Math.floor((LAST_UPDATE_MS - from) / 1000);
  return new Date(from + rng.int(seconds) * 1000).toISOString();
}

export function cleanDraft(rng: Rng, person: Person, sourceIndex: number, nationalIdChance: number): RecordDraft {
  return {
    person,
    sourceIndex,
    variant: 0,
    errors: NO_ERRORS,
    names: [{ use: 'official', family: person.family, given: person.given }],
    birthDate: person.birthDate,
    address: person.address,
    phone: person.phone === null ? null : canonicalPhone(person.phone),
    email: person.email,
    hasNationalId: rng.chance(nationalIdChance),
    lastUpdated: lastUpdated(rng, person.birthDate),
  };
}

/** A later record of the person, with errors drawn as documented on ERROR_RATES. */
export function noisyDraft(
  rng: Rng,
  factory: PersonFactory,
  later: LaterLife,
  person: Person,
  sourceIndex: number,
  variant: number,
  nationalIdChance: number,
): RecordDraft {
  const errors: SyntheticErrorKind[] = [];
  const hit = (kind: SyntheticErrorKind): boolean => {
    if (!rng.chance(ERROR_RATES[kind])) return false;
    errors.push(kind);
    return true;
  };

  let given = [...person.given];
  let family = person.family;
  let maiden: string | null = null;

  const first = given[0] ?? '';
  const nickname = NICKNAMES.get(first.toLowerCase());
  if (nickname !== undefined && hit('nickname')) given[0] = capitalise(nickname);

  if (person.sex === 'female' && person.birthDate < ADULT_BORN_BEFORE && hit('marriedName')) {
    later.family ??= factory.marriedFamily(person.family);
    family = later.family;
    if (hit('maidenNameKept')) maiden = person.family;
  }

  if ([...given, family].some(hasDiacritics) && hit('diacriticsStripped')) {
    given = given.map(stripDiacritics);
    family = stripDiacritics(family);
    if (maiden !== null) maiden = stripDiacritics(maiden);
  }

  const mistype = (change: (text: string) => string | null): void => {
    if (rng.chance(0.5)) {
      family = change(family) ?? family;
    } else {
      given[0] = change(given[0] ?? '') ?? given[0] ?? '';
    }
  };
  if (hit('nameTypo')) mistype((text) => typo(rng, text));
  if (rng.chance(ERROR_RATES.nameTransposition)) {
    // Only counted when a swap was possible, so the trace never claims an error that is not there.
    const before = `${family}|${given.join(' ')}`;
    mistype((text) => transpose(rng, text));
    if (`${family}|${given.join(' ')}` !== before) errors.push('nameTransposition');
  }

  if (hit('nameCase')) {
    if (rng.chance(0.5)) {
      family = family.toUpperCase();
      if (maiden !== null) maiden = maiden.toUpperCase();
    } else {
      given = given.map((g) => g.toLowerCase());
      family = family.toLowerCase();
      if (maiden !== null) maiden = maiden.toLowerCase();
    }
  }

  const names: HumanName[] = [{ use: 'official', family, given }];
  if (maiden !== null) names.push({ use: 'maiden', family: maiden, given });

  const birthDate = noisyBirthDate(rng, person.birthDate, hit, errors);
  const address = noisyAddress(rng, factory, later, person.address, hit);
  const phone = noisyPhone(rng, person.phone, hit);
  const email = person.email !== null && hit('missingEmail') ? null : person.email;
  return {
    person,
    sourceIndex,
    variant,
    errors: errors.length === 0 ? NO_ERRORS : errors,
    names,
    birthDate,
    address,
    phone,
    email,
    hasNationalId: rng.chance(nationalIdChance),
    lastUpdated: lastUpdated(rng, person.birthDate),
  };
}

type Hit = (kind: SyntheticErrorKind) => boolean;

function noisyBirthDate(rng: Rng, birthDate: string, hit: Hit, errors: SyntheticErrorKind[]): string | null {
  if (hit('missingBirthDate')) return null;
  let date = birthDate;
  const swapped = swapDayMonth(date);
  if (swapped !== null && hit('dayMonthSwap')) date = swapped;
  if (rng.chance(ERROR_RATES.birthDateDigit)) {
    const changed = birthDateDigitError(rng, date, LATEST_BIRTH_DATE);
    if (changed !== null) {
      errors.push('birthDateDigit');
      date = changed;
    }
  }
  return date;
}

function noisyAddress(rng: Rng, factory: PersonFactory, later: LaterLife, home: Address, hit: Hit): Address | null {
  if (hit('missingAddress')) return null;
  let address = home;
  if (hit('movedHouse')) {
    later.address ??= factory.movedFrom(home);
    address = later.address;
  }
  if (hit('postcodeTypo')) address = { ...address, postalCode: postcodeTypo(rng, address.postalCode) };
  return address;
}

function noisyPhone(rng: Rng, digits: string | null, hit: Hit): string | null {
  if (digits === null || hit('missingPhone')) return null;
  return hit('phoneFormat') ? phoneVariant(rng, digits) : canonicalPhone(digits);
}
