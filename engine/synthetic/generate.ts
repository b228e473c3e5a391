import { Faker, en, en_US } from '@faker-js/faker';
import { validationError } from '../contract/errors.ts';
import type { SyntheticErrorKind } from './errors.ts';
import { PersonFactory } from './person.ts';
import type { Person } from './person.ts';
import { createRng, deriveSeed } from './prng.ts';
import type { Rng } from './prng.ts';
import { cleanDraft, noisyDraft } from './record.ts';
import type { LaterLife, RecordDraft } from './record.ts';
import { shuffleApart } from './shuffle.ts';
import { toPatient } from './patient.ts';

/**
 * A seeded synthetic population for the demo: people, each with 1–4 R4 Patient records in
 * different sources, later records carrying realistic errors (see ERROR_RATES in errors.ts), plus
 * hard negatives (twins, households). Only synthetic people are ever used in the demo.
 * The same (people, seed) always gives the same records, byte for byte.
 */

import { MRN_PREFIXES, SYNTHETIC_SOURCES } from './sources.ts';

export { SYNTHETIC_SOURCES, type SyntheticSource } from './sources.ts';

// Defined in its own module so that patient.ts can use it without importing this one back.
export { NATIONAL_ID_SYSTEM } from './national-id.ts';

export interface SyntheticRecord {
  readonly sourceSystem: string;
  /** The record's local identifier value (its MRN), unique within the source. */
  readonly localId: string;
  readonly personId: string;
  /** An R4 Patient JSON object. */
  readonly patient: Record<string, unknown>;
  /** Ground truth for evaluation, never written out: 0 for the person's clean record, then 1, 2, 3. */
  readonly variant: number;
  /** Ground truth for evaluation, never written out: the errors injected into this record. */
  readonly errors: readonly SyntheticErrorKind[];
}

/** Two distinct people who look alike: the hard non-matches. */
export interface SyntheticRelation {
  readonly kind: 'twin' | 'household';
  readonly personIds: readonly [string, string];
}

export interface SyntheticPopulation {
  readonly records: SyntheticRecord[];
  readonly people: number;
  readonly seed: number;
  readonly relations: readonly SyntheticRelation[];
}

/** P(1..4 records): mean 0.25 + 0.8 + 0.75 + 0.4 = 2.2 records per person. */
const RECORD_COUNT_CUMULATIVE = [0.25, 0.65, 0.9, 1] as const;
/**
 * After each person who is not already the second of a pair, a twin follows with 0.01 and a household
 * member with 0.025: about 2% and 5% of people end up in such pairs.
 */
const TWIN_CHANCE = 0.01;
const HOUSEHOLD_CHANCE = 0.025;
/** Share of records from the first two sources that carry the national health identifier. */
const NATIONAL_ID_CHANCE = 0.6;
const NATIONAL_ID_SOURCES = 2;

/** Streams of the seed; see deriveSeed. */
const STREAM_PEOPLE = 1;
const STREAM_RECORDS = 2;
const STREAM_ORDER = 3;

/**
 * `people` distinct people (twins and household members count as people) with about 2.2 records
 * each, in a shuffled order in which no two records of one person are neighbours. `seed` is a 32-bit
 * unsigned integer; it seeds faker and, through deriveSeed, our own PRNG streams.
 */
export function generatePopulation(options: { people: number; seed: number }): SyntheticPopulation {
  const { people, seed } = options;
  if (!Number.isSafeInteger(people) || people < 0) {
    throw validationError('people must be a non-negative integer', [
      { path: 'people', message: 'expected an integer ≥ 0' },
    ]);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw validationError('seed must be an integer from 0 to 4294967295', [
      { path: 'seed', message: 'expected a 32-bit unsigned integer' },
    ]);
  }

  const faker = new Faker({ locale: [en_US, en] });
  faker.seed(seed);
  const factory = new PersonFactory(faker, createRng(deriveSeed(seed, STREAM_PEOPLE)));
  const rng = createRng(deriveSeed(seed, STREAM_RECORDS));
  const drafts: RecordDraft[] = [];
  const relations: SyntheticRelation[] = [];

  // Records are drafted right after their person, so faker is always consulted in the same order.
  while (factory.created < people) {
    const person = factory.create();
    draftRecords(rng, factory, person, drafts);
    if (factory.created >= people) break;
    const roll = rng.next();
    if (roll < TWIN_CHANCE + HOUSEHOLD_CHANCE) {
      const kind = roll < TWIN_CHANCE ? 'twin' : 'household';
      const other = kind === 'twin' ? factory.twinOf(person) : factory.householdMemberOf(person);
      draftRecords(rng, factory, other, drafts);
      relations.push({ kind, personIds: [person.personId, other.personId] });
    }
  }

  shuffleApart(drafts, (d) => d.person.index, createRng(deriveSeed(seed, STREAM_ORDER)));
  return { records: assignIdentifiers(drafts, rng), people, seed, relations };
}

function draftRecords(rng: Rng, factory: PersonFactory, person: Person, out: RecordDraft[]): void {
  const roll = rng.next();
  const count = 1 + RECORD_COUNT_CUMULATIVE.findIndex((p) => roll < p);
  // A partial Fisher–Yates picks `count` distinct sources in random order; the first gets the clean record.
  const sources = [0, 1, 2, 3];
  const later: LaterLife = {};
  for (let variant = 0; variant < count; variant++) {
    const pick = variant + rng.int(sources.length - variant);
    const sourceIndex = sources[pick] ?? 0;
    sources[pick] = sources[variant] ?? 0;
    sources[variant] = sourceIndex;
    const idChance = sourceIndex < NATIONAL_ID_SOURCES ? NATIONAL_ID_CHANCE : 0;
    out.push(
      variant === 0
        ? cleanDraft(rng, person, sourceIndex, idChance)
        : noisyDraft(rng, factory, later, person, sourceIndex, variant, idChance),
    );
  }
}

/**
 * Numbers records per source in output order, so that MRNs say nothing about which records belong
 * together. Each source's numbering starts at its own seeded offset.
 */
function assignIdentifiers(drafts: readonly RecordDraft[], rng: Rng): SyntheticRecord[] {
  const next = SYNTHETIC_SOURCES.map(() => 1000 + rng.int(9000));
  return drafts.map((draft) => {
    const source = SYNTHETIC_SOURCES[draft.sourceIndex];
    const number = next[draft.sourceIndex];
    if (source === undefined || number === undefined) throw new Error('unknown synthetic source');
    next[draft.sourceIndex] = number + 1;
    const digits = String(number).padStart(7, '0');
    const prefix = MRN_PREFIXES[draft.sourceIndex] ?? 'XX';
    const localId = `${prefix}${digits}`;
    return {
      sourceSystem: source.sourceSystem,
      localId,
      personId: draft.person.personId,
      patient: toPatient(draft, `${prefix.toLowerCase()}-${digits}`, source.localIdentifierSystem, localId),
      variant: draft.variant,
      errors: draft.errors,
    };
  });
}
