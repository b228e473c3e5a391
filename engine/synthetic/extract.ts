/**
 * A registry extract for measuring matching on harder data than the demo population: one file, one record per
 * person plus duplicates (a chosen share of all records), corrupted in the manner of the FEBRL generator
 * (Christen 2005, "Probabilistic data generation for deduplication and data linkage"): each duplicate carries a
 * drawn number of modifications, at most two per field.
 *
 * What makes it hard, on purpose:
 * - Common names: a fifth of family names and a quarter of given names come from short lists of the most common
 *   ones with Zipf weights, the rest from faker's long lists, so many unrelated people share a family name and
 *   some share a full name; with `commonNames: 'concentrated'`, three fifths and a half, so many do.
 * - Families: about 30% of people are relatives of an earlier person: the same family name, a sibling's birth
 *   date (1 to 10 years apart), a parent's or child's (20 to 40 years apart; one in five of them with the same
 *   given name, a Junior and a Senior) or, for one relative in twenty, a twin's (the same birth date, another
 *   given name): 1.5% of people are a later twin, about the 3% of births that are twins.
 * - Errors a clerk makes: typos and adjacent transpositions in names, spelling variants that sound alike,
 *   nicknames, given and family name swapped, a family name changed by marriage, day and month transposed,
 *   a mistyped digit or year of birth, and missing values.
 *
 * `fields: 'names-dates'` writes names and birth date only (no sex, address, telecom or identifier): the sparse
 * registries where household evidence cannot help and unsupervised estimation is most fragile. `fields: 'all'`
 * adds sex, an address, a phone and a personal identifier (each corruptible too). `errors: 'heavy'` gives every
 * duplicate two to four modifications (FEBRL 3's regime); 'typical' zero to three, mostly one.
 *
 * The same options give the same records, byte for byte. Only synthetic people are ever produced.
 */
import { Faker, en, en_US } from '@faker-js/faker';
import { validationError } from '../contract/errors.ts';
import { birthDateDigitError, canonicalPhone, swapDayMonth, transpose, typo } from './errors.ts';
import { NICKNAMES, capitalise } from './names.ts';
import { createRng, deriveSeed, type Rng } from './prng.ts';

export const EXTRACT_SOURCE = 'registry-extract';
export const EXTRACT_IDENTIFIER_SYSTEM = 'urn:example:extract:person-number';

export interface ExtractOptions {
  readonly records: number;
  /** Share of the records that are duplicates of another record's person (0 to 0.9). */
  readonly duplicateShare: number;
  readonly seed: number;
  readonly fields: 'names-dates' | 'all';
  readonly errors: 'typical' | 'heavy';
  /**
   * How many people carry one of the common names: 'typical' (the default) a fifth of family names and a quarter of
   * given names; 'concentrated' three fifths and half, a population where a few surnames cover most people (as Kim,
   * Lee and Park do in Korea, or Nguyen in Vietnam) and many unrelated people share a full name.
   */
  readonly commonNames?: 'typical' | 'concentrated';
}

export interface ExtractRecord {
  readonly localId: string;
  readonly personId: string;
  /** An R4 Patient JSON object. */
  readonly patient: Record<string, unknown>;
}

export interface Extract {
  readonly records: readonly ExtractRecord[];
  /** Pairs of records of one person. */
  readonly truePairs: number;
}

type Sex = 'male' | 'female';

interface Person {
  readonly personId: string;
  readonly sex: Sex;
  readonly given: string;
  readonly family: string;
  readonly birthDate: string;
  readonly line: string;
  readonly city: string;
  readonly postalCode: string;
  readonly phone: string;
  readonly identifier: string;
}

interface Draft {
  given: string | null;
  family: string | null;
  birthDate: string | null;
  sex: Sex | null;
  line: string | null;
  city: string | null;
  postalCode: string | null;
  phone: string | null;
  identifier: string | null;
}

const COMMON_FAMILY = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
];
const COMMON_GIVEN: Record<Sex, readonly string[]> = {
  male: [
    'James',
    'John',
    'Robert',
    'Michael',
    'William',
    'David',
    'Richard',
    'Joseph',
    'Thomas',
    'Charles',
    'Daniel',
    'Matthew',
  ],
  female: [
    'Mary',
    'Patricia',
    'Jennifer',
    'Linda',
    'Elizabeth',
    'Barbara',
    'Susan',
    'Jessica',
    'Sarah',
    'Karen',
    'Margaret',
    'Emily',
  ],
};
type CommonNames = NonNullable<ExtractOptions['commonNames']>;
interface NameShares {
  readonly family: number;
  readonly given: number;
}
/** The shares of family and given names drawn from the common lists, by ExtractOptions.commonNames. */
const COMMON_SHARES: Readonly<Record<CommonNames, NameShares>> = {
  typical: { family: 0.2, given: 0.25 },
  concentrated: { family: 0.6, given: 0.5 },
};
const RELATIVE_SHARE = 0.3;

/** Spelling variants that sound alike (both directions are tried). */
const SOUNDS_ALIKE: readonly (readonly [string, string])[] = [
  ['ph', 'f'],
  ['ck', 'k'],
  ['c', 'k'],
  ['y', 'ie'],
  ['ie', 'y'],
  ['ll', 'l'],
  ['tt', 't'],
  ['nn', 'n'],
  ['ss', 's'],
  ['son', 'sen'],
  ['ey', 'y'],
  ['ai', 'ay'],
  ['ei', 'ie'],
  ['z', 's'],
  ['mm', 'm'],
  ['th', 't'],
  ['ou', 'ow'],
];

type Modification =
  | 'nameTypo'
  | 'nameTransposition'
  | 'soundsAlike'
  | 'nickname'
  | 'nameSwap'
  | 'missingGiven'
  | 'marriedName'
  | 'dayMonthSwap'
  | 'birthDateDigit'
  | 'birthYear'
  | 'missingBirthDate'
  | 'addressTypo'
  | 'missingAddress'
  | 'postcodeDigit'
  | 'phoneDigit'
  | 'missingPhone'
  | 'identifierDigit'
  | 'missingIdentifier';

/** Relative weights of the modifications (those that cannot apply to a record are skipped). */
const WEIGHTS: readonly (readonly [Modification, number, 'names-dates' | 'all'])[] = [
  ['nameTypo', 3, 'names-dates'],
  ['nameTransposition', 1.5, 'names-dates'],
  ['soundsAlike', 1, 'names-dates'],
  ['nickname', 0.7, 'names-dates'],
  ['nameSwap', 0.3, 'names-dates'],
  ['missingGiven', 0.3, 'names-dates'],
  ['marriedName', 0.3, 'names-dates'],
  ['dayMonthSwap', 1, 'names-dates'],
  ['birthDateDigit', 1.5, 'names-dates'],
  ['birthYear', 0.5, 'names-dates'],
  ['missingBirthDate', 0.4, 'names-dates'],
  ['addressTypo', 1, 'all'],
  ['missingAddress', 0.4, 'all'],
  ['postcodeDigit', 0.6, 'all'],
  ['phoneDigit', 0.6, 'all'],
  ['missingPhone', 0.6, 'all'],
  ['identifierDigit', 0.5, 'all'],
  ['missingIdentifier', 0.5, 'all'],
];

/** The field a modification touches: at most two modifications per field (FEBRL's limit). */
const FIELD_OF: Record<Modification, keyof Draft> = {
  nameTypo: 'family',
  nameTransposition: 'family',
  soundsAlike: 'family',
  nickname: 'given',
  nameSwap: 'given',
  missingGiven: 'given',
  marriedName: 'family',
  dayMonthSwap: 'birthDate',
  birthDateDigit: 'birthDate',
  birthYear: 'birthDate',
  missingBirthDate: 'birthDate',
  addressTypo: 'line',
  missingAddress: 'line',
  postcodeDigit: 'postalCode',
  phoneDigit: 'phone',
  missingPhone: 'phone',
  identifierDigit: 'identifier',
  missingIdentifier: 'identifier',
};

/** P(number of modifications of a duplicate): typical 0–3 (mostly 1), heavy 2–4. */
const MODIFICATION_COUNTS: Record<ExtractOptions['errors'], readonly (readonly [number, number])[]> = {
  typical: [
    [0, 0.1],
    [1, 0.55],
    [2, 0.3],
    [3, 0.05],
  ],
  heavy: [
    [2, 0.45],
    [3, 0.35],
    [4, 0.2],
  ],
};

/** Duplicates per duplicated person: 1 (0.8), 2 (0.15), 3 (0.05). */
const DUPLICATES_PER_PERSON: readonly (readonly [number, number])[] = [
  [1, 0.8],
  [2, 0.15],
  [3, 0.05],
];

const DAY_MS = 86_400_000;
const OLDEST_MS = Date.UTC(1930, 0, 1);
const YOUNGEST_MS = Date.UTC(2024, 0, 1);
const LATEST_BIRTH_DATE = '2025-12-31';

function draw<T>(rng: Rng, table: readonly (readonly [T, number])[]): T {
  let roll = rng.next();
  for (const [value, p] of table) {
    if (roll < p) return value;
    roll -= p;
  }
  const last = table.at(-1);
  if (last === undefined) throw new Error('empty table');
  return last[0];
}

/** Zipf (s = 1) over a short list: the first entry about three times as common as the fifth. */
function zipf<T>(rng: Rng, items: readonly T[]): T {
  let total = 0;
  for (let k = 1; k <= items.length; k++) total += 1 / k;
  let roll = rng.next() * total;
  for (let k = 1; k <= items.length; k++) {
    roll -= 1 / k;
    if (roll < 0) return items[k - 1] as T;
  }
  return items[items.length - 1] as T;
}

function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function shiftYears(date: string, years: number): string {
  const year = Math.min(2023, Math.max(1900, Number(date.slice(0, 4)) + years));
  const shifted = `${String(year)}${date.slice(4)}`;
  // 29 February in a year without it becomes 28 February.
  return shifted.endsWith('-02-29') && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))
    ? `${String(year)}-02-28`
    : shifted;
}

class People {
  private readonly faker = new Faker({ locale: [en_US, en] });
  private count = 0;

  constructor(
    private readonly rng: Rng,
    seed: number,
    private readonly shares: NameShares,
  ) {
    this.faker.seed(seed);
  }

  private given(sex: Sex, avoid?: string): string {
    for (;;) {
      const name = this.rng.chance(this.shares.given)
        ? zipf(this.rng, COMMON_GIVEN[sex])
        : this.faker.person.firstName(sex);
      if (name !== avoid && /^[A-Za-z]+$/.test(name)) return name;
    }
  }

  family(): string {
    for (;;) {
      const name = this.rng.chance(this.shares.family) ? zipf(this.rng, COMMON_FAMILY) : this.faker.person.lastName();
      if (/^[A-Za-z]+$/.test(name)) return name;
    }
  }

  private birthDate(): string {
    return dateOf(OLDEST_MS + this.rng.int((YOUNGEST_MS - OLDEST_MS) / DAY_MS) * DAY_MS);
  }

  private make(sex: Sex, given: string, family: string, birthDate: string): Person {
    this.count++;
    return {
      personId: `p${String(this.count).padStart(7, '0')}`,
      sex,
      given,
      family,
      birthDate,
      line: `${String(1 + this.rng.int(999))} ${this.faker.location.street()}`,
      city: this.faker.location.city(),
      postalCode: this.faker.location.zipCode('#####'),
      phone: String(2_000_000_000 + this.rng.int(7_999_999_999)),
      identifier: String(100_000_000 + this.rng.int(899_999_999)),
    };
  }

  stranger(): Person {
    const sex: Sex = this.rng.chance(0.5) ? 'female' : 'male';
    return this.make(sex, this.given(sex), this.family(), this.birthDate());
  }

  /** A sibling, a parent or child (sometimes with the same given name) or a twin of `of`. */
  relative(of: Person): Person {
    const sex: Sex = this.rng.chance(0.5) ? 'female' : 'male';
    const roll = this.rng.next();
    if (roll < 0.05) return this.make(sex, this.given(sex, of.given), of.family, of.birthDate);
    if (roll < 0.4) {
      const years = (20 + this.rng.int(21)) * (this.rng.chance(0.5) ? 1 : -1);
      const birthDate = shiftYears(
        dateOf(Date.parse(`${of.birthDate}T00:00:00Z`) + (this.rng.int(365) - 182) * DAY_MS),
        years,
      );
      const junior = this.rng.chance(0.2) && sex === of.sex;
      return this.make(sex, junior ? of.given : this.given(sex, of.given), of.family, birthDate);
    }
    const years = (1 + this.rng.int(10)) * (this.rng.chance(0.5) ? 1 : -1);
    const birthDate = shiftYears(dateOf(Date.parse(`${of.birthDate}T00:00:00Z`) + this.rng.int(365) * DAY_MS), years);
    return this.make(sex, this.given(sex, of.given), of.family, birthDate);
  }

  marriedFamily(current: string): string {
    let family = this.family();
    while (family === current) family = this.family();
    return family;
  }
}

function soundsAlike(rng: Rng, text: string): string | null {
  const lower = text.toLowerCase();
  const options = SOUNDS_ALIKE.filter(([from]) => lower.indexOf(from, 1) > 0);
  if (options.length === 0) return null;
  const [from, to] = rng.pick(options);
  const at = lower.indexOf(from, 1);
  const changed = lower.slice(0, at) + to + lower.slice(at + from.length);
  return changed === lower ? null : capitalise(changed);
}

function digitTypo(rng: Rng, digits: string): string {
  const at = rng.int(digits.length);
  let digit = String(rng.int(10));
  while (digit === digits.charAt(at)) digit = String(rng.int(10));
  return digits.slice(0, at) + digit + digits.slice(at + 1);
}

/** Applies one modification; false when it cannot apply to this record as it stands. */
function modify(rng: Rng, people: People, person: Person, draft: Draft, kind: Modification): boolean {
  const nameField = (): 'given' | 'family' => (rng.chance(0.5) ? 'given' : 'family');
  switch (kind) {
    case 'nameTypo': {
      const field = nameField();
      const value = draft[field];
      if (value === null || value.length < 2) return false;
      draft[field] = typo(rng, value);
      return true;
    }
    case 'nameTransposition': {
      const field = nameField();
      const value = draft[field];
      const swapped = value === null ? null : transpose(rng, value);
      if (swapped === null) return false;
      draft[field] = swapped;
      return true;
    }
    case 'soundsAlike': {
      const field = nameField();
      const value = draft[field];
      const variant = value === null ? null : soundsAlike(rng, value);
      if (variant === null) return false;
      draft[field] = variant;
      return true;
    }
    case 'nickname': {
      const nick = draft.given === null ? undefined : NICKNAMES.get(draft.given.toLowerCase());
      if (nick === undefined) return false;
      draft.given = capitalise(nick);
      return true;
    }
    case 'nameSwap':
      if (draft.given === null || draft.family === null) return false;
      [draft.given, draft.family] = [draft.family, draft.given];
      return true;
    case 'missingGiven':
      if (draft.given === null || draft.family === null) return false;
      draft.given = null;
      return true;
    case 'marriedName':
      if (person.sex !== 'female' || person.birthDate > '2005-01-01' || draft.family === null) return false;
      draft.family = people.marriedFamily(draft.family);
      return true;
    case 'dayMonthSwap': {
      const swapped = draft.birthDate === null ? null : swapDayMonth(draft.birthDate);
      if (swapped === null) return false;
      draft.birthDate = swapped;
      return true;
    }
    case 'birthDateDigit': {
      const changed = draft.birthDate === null ? null : birthDateDigitError(rng, draft.birthDate, LATEST_BIRTH_DATE);
      if (changed === null) return false;
      draft.birthDate = changed;
      return true;
    }
    case 'birthYear':
      if (draft.birthDate === null) return false;
      draft.birthDate = shiftYears(draft.birthDate, rng.chance(0.5) ? 1 : -1);
      return true;
    case 'missingBirthDate':
      if (draft.birthDate === null || draft.given === null || draft.family === null) return false;
      draft.birthDate = null;
      return true;
    case 'addressTypo':
      if (draft.line === null) return false;
      draft.line = typo(rng, draft.line);
      return true;
    case 'missingAddress':
      if (draft.line === null) return false;
      draft.line = null;
      draft.city = null;
      draft.postalCode = null;
      return true;
    case 'postcodeDigit':
      if (draft.postalCode === null) return false;
      draft.postalCode = digitTypo(rng, draft.postalCode);
      return true;
    case 'phoneDigit':
      if (draft.phone === null) return false;
      draft.phone = digitTypo(rng, draft.phone);
      return true;
    case 'missingPhone':
      if (draft.phone === null) return false;
      draft.phone = null;
      return true;
    case 'identifierDigit':
      if (draft.identifier === null) return false;
      draft.identifier = digitTypo(rng, draft.identifier);
      return true;
    case 'missingIdentifier':
      if (draft.identifier === null) return false;
      draft.identifier = null;
      return true;
  }
}

function cleanDraft(person: Person, fields: ExtractOptions['fields']): Draft {
  const all = fields === 'all';
  return {
    given: person.given,
    family: person.family,
    birthDate: person.birthDate,
    sex: all ? person.sex : null,
    line: all ? person.line : null,
    city: all ? person.city : null,
    postalCode: all ? person.postalCode : null,
    phone: all ? person.phone : null,
    identifier: all ? person.identifier : null,
  };
}

function noisyDraft(rng: Rng, people: People, person: Person, options: ExtractOptions): Draft {
  const draft = cleanDraft(person, options.fields);
  const wanted = draw(rng, MODIFICATION_COUNTS[options.errors]);
  const table = WEIGHTS.filter(([, , scope]) => scope === 'names-dates' || options.fields === 'all').map(
    ([kind, weight]) => [kind, weight] as const,
  );
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  const perField = new Map<keyof Draft, number>();
  let applied = 0;
  for (let attempt = 0; applied < wanted && attempt < 50; attempt++) {
    const kind = draw(
      rng,
      table.map(([k, w]) => [k, w / total] as const),
    );
    const field = FIELD_OF[kind];
    if ((perField.get(field) ?? 0) >= 2) continue;
    if (!modify(rng, people, person, draft, kind)) continue;
    perField.set(field, (perField.get(field) ?? 0) + 1);
    applied++;
  }
  return draft;
}

function toPatient(draft: Draft, localId: string): Record<string, unknown> {
  const patient: Record<string, unknown> = { resourceType: 'Patient', id: localId };
  if (draft.identifier !== null)
    patient['identifier'] = [{ system: EXTRACT_IDENTIFIER_SYSTEM, value: draft.identifier }];
  const name: Record<string, unknown> = {};
  if (draft.family !== null) name['family'] = draft.family;
  if (draft.given !== null) name['given'] = [draft.given];
  patient['name'] = [name];
  if (draft.phone !== null)
    patient['telecom'] = [{ system: 'phone', value: canonicalPhone(draft.phone.padStart(10, '2').slice(-10)) }];
  if (draft.sex !== null) patient['gender'] = draft.sex;
  if (draft.birthDate !== null) patient['birthDate'] = draft.birthDate;
  if (draft.line !== null) {
    patient['address'] = [
      {
        line: [draft.line],
        ...(draft.city === null ? {} : { city: draft.city }),
        ...(draft.postalCode === null ? {} : { postalCode: draft.postalCode }),
      },
    ];
  }
  return patient;
}

/** A seeded extract; records are in a shuffled order (a duplicate never next to its original by construction). */
export function generateExtract(options: ExtractOptions): Extract {
  const { records, duplicateShare, seed } = options;
  if (!Number.isSafeInteger(records) || records < 2 || records > 2_000_000)
    throw validationError('records must be an integer from 2 to 2,000,000', [
      { path: 'records', message: 'out of range' },
    ]);
  if (!(duplicateShare >= 0 && duplicateShare <= 0.9))
    throw validationError('duplicateShare must be from 0 to 0.9', [
      { path: 'duplicateShare', message: 'out of range' },
    ]);
  const rng = createRng(deriveSeed(seed, 11));
  const people = new People(createRng(deriveSeed(seed, 12)), seed, COMMON_SHARES[options.commonNames ?? 'typical']);
  const originals = Math.max(1, Math.round(records * (1 - duplicateShare)));
  const persons: Person[] = [];
  while (persons.length < originals) {
    const last = persons.at(-1 - rng.int(Math.min(persons.length, 50)));
    persons.push(last !== undefined && rng.chance(RELATIVE_SHARE) ? people.relative(last) : people.stranger());
  }
  const drafts: { person: Person; draft: Draft }[] = persons.map((person) => ({
    person,
    draft: cleanDraft(person, options.fields),
  }));
  // Duplicates per person. Each person is drawn for duplicates once until every one has been; past that (a
  // duplicate share above about a half, since a draw gives at most 3) anyone drawn gets more, so every share up to
  // 0.9 ends (it looped for ever above about 0.55 until 2026-11-30; below, the draws are as they were).
  const perPerson = new Map<string, number>();
  let undrawn = persons.length;
  while (drafts.length < records) {
    const person = persons[rng.int(persons.length)] as Person;
    const before = perPerson.get(person.personId);
    if (before !== undefined && undrawn > 0) continue;
    if (before === undefined) undrawn--;
    const count = Math.min(draw(rng, DUPLICATES_PER_PERSON), records - drafts.length);
    perPerson.set(person.personId, (before ?? 0) + count);
    for (let i = 0; i < count; i++) drafts.push({ person, draft: noisyDraft(rng, people, person, options) });
  }
  // A person with n duplicates has n + 1 records: (n + 1) · n / 2 pairs of them.
  let truePairs = 0;
  for (const n of perPerson.values()) truePairs += ((n + 1) * n) / 2;
  // Fisher–Yates: the file's order says nothing about who is who.
  for (let i = drafts.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [drafts[i], drafts[j]] = [drafts[j] as (typeof drafts)[number], drafts[i] as (typeof drafts)[number]];
  }
  return {
    records: drafts.map(({ person, draft }, i) => {
      const localId = `r${String(i + 1).padStart(7, '0')}`;
      return { localId, personId: person.personId, patient: toPatient(draft, localId) };
    }),
    truePairs,
  };
}
