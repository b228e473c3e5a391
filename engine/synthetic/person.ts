import type { Faker } from '@faker-js/faker';
import {
  ACCENTED_FAMILY,
  ACCENTED_GIVEN_FEMALE,
  ACCENTED_GIVEN_MALE,
  FORMAL_FEMALE,
  FORMAL_MALE,
  capitalise,
  stripDiacritics,
} from './names.ts';
import type { Rng } from './prng.ts';

/** Ages are measured at this fixed date, never "today", so that output does not depend on the clock. */
export const REFERENCE_DATE = '2026-01-01';
/** Born before this date → 18 or older at REFERENCE_DATE. */
export const ADULT_BORN_BEFORE = '2008-01-01';
const DAY_MS = 86_400_000;
const OLDEST_MS = Date.UTC(1926, 0, 1);
const REFERENCE_MS = Date.UTC(2026, 0, 1);

/**
 * Person-level probabilities (the truth before any record is written):
 * given name from the nickname map's formal names 0.25 (so nickname substitution has material),
 * with diacritics 0.03; a middle name 0.35; family name with diacritics 0.03; a second address line
 * 0.15; a phone 0.84 (mobile 0.6 of those); an email 0.42. Phone and email rates are set a little
 * above the wanted record-level 80% and 40% because later records sometimes drop them.
 */
const EMAIL_SEPARATORS: readonly string[] = ['.', '_', ''];
const EMAIL_DOMAINS: readonly string[] = ['example.com', 'example.net', 'example.org'];

const P = {
  formalGiven: 0.25,
  accentedGiven: 0.03,
  middleName: 0.35,
  accentedFamily: 0.03,
  secondLine: 0.15,
  phone: 0.84,
  mobile: 0.6,
  email: 0.42,
  twinOppositeSex: 0.7,
  householdSharesFamily: 0.5,
  householdSharesPhone: 0.5,
  localMove: 0.5,
} as const;

export type Sex = 'male' | 'female';

export interface Address {
  readonly line: readonly string[];
  readonly city: string;
  readonly state: string;
  readonly postalCode: string;
}

export interface Person {
  /** Position in generation order; 0-based. */
  readonly index: number;
  readonly personId: string;
  readonly sex: Sex;
  /** First given name, then an optional middle name. */
  readonly given: readonly string[];
  readonly family: string;
  readonly birthDate: string;
  readonly address: Address;
  /** Ten digits (US national number), or null when the person gave no phone. */
  readonly phone: string | null;
  readonly phoneUse: 'home' | 'mobile';
  readonly email: string | null;
  /** Ten digits; unique per person. */
  readonly nationalId: string;
}

/** A phone number and, when it is shared with another person, its use (null: draw one). */
interface PhoneChoice {
  readonly phone: string | null;
  readonly use: 'home' | 'mobile' | null;
}

/** Makes people: faker supplies the vocabulary, our own PRNG makes every yes/no decision. */
export class PersonFactory {
  private readonly usedNationalIds = new Set<number>();
  /** How many people this factory has made; the next person's index. */
  created = 0;

  constructor(
    private readonly faker: Faker,
    private readonly rng: Rng,
  ) {}

  create(): Person {
    const sex: Sex = this.rng.chance(0.5) ? 'female' : 'male';
    const family = this.rng.chance(P.accentedFamily) ? this.rng.pick(ACCENTED_FAMILY) : this.faker.person.lastName();
    const phone = this.rng.chance(P.phone) ? this.phoneDigits() : null;
    return this.complete(sex, family, this.birthDate(), this.address(), { phone, use: null }, '');
  }

  /** A twin: same family, birth date, address and phone; another given name, usually the other sex. */
  twinOf(sibling: Person): Person {
    const sex = this.rng.chance(P.twinOppositeSex) ? otherSex(sibling.sex) : sibling.sex;
    const phone = { phone: sibling.phone, use: sibling.phoneUse };
    return this.complete(sex, sibling.family, sibling.birthDate, sibling.address, phone, sibling.given[0] ?? '');
  }

  /** Someone else at the same address, of a different age; sometimes the same family name and home phone. */
  householdMemberOf(resident: Person): Person {
    const sex: Sex = this.rng.chance(0.5) ? 'female' : 'male';
    const family = this.rng.chance(P.householdSharesFamily) ? resident.family : this.faker.person.lastName();
    const phone: PhoneChoice = this.rng.chance(P.householdSharesPhone)
      ? { phone: resident.phone, use: resident.phoneUse }
      : { phone: this.rng.chance(P.phone) ? this.phoneDigits() : null, use: null };
    let birthDate = this.birthDate();
    // At least two calendar years apart, so a household member never looks like a twin.
    while (Math.abs(Number(birthDate.slice(0, 4)) - Number(resident.birthDate.slice(0, 4))) < 2) {
      birthDate = this.birthDate();
    }
    return this.complete(sex, family, birthDate, resident.address, phone, resident.given[0] ?? '');
  }

  /** The address a person moved to; half the moves stay in the same city. */
  movedFrom(address: Address): Address {
    const fresh = this.address();
    if (!this.rng.chance(P.localMove)) return fresh;
    return { line: fresh.line, city: address.city, state: address.state, postalCode: address.postalCode };
  }

  /** A family name taken on marriage, different from the current one. */
  marriedFamily(current: string): string {
    let family = this.faker.person.lastName();
    while (family === current) family = this.faker.person.lastName();
    return family;
  }

  private complete(
    sex: Sex,
    family: string,
    birthDate: string,
    address: Address,
    phone: PhoneChoice,
    avoidGiven: string,
  ): Person {
    let first = this.givenName(sex);
    while (first === avoidGiven) first = this.givenName(sex);
    const given = [first];
    if (this.rng.chance(P.middleName)) {
      let middle = this.faker.person.firstName(sex);
      while (middle === first) middle = this.faker.person.firstName(sex);
      given.push(middle);
    }
    const email = this.rng.chance(P.email) ? this.email(first, family) : null;
    const index = this.created++;
    return {
      index,
      personId: `person-${String(index + 1).padStart(6, '0')}`,
      sex,
      given,
      family,
      birthDate,
      address,
      phone: phone.phone,
      phoneUse: phone.use ?? (this.rng.chance(P.mobile) ? 'mobile' : 'home'),
      email,
      nationalId: this.nationalId(),
    };
  }

  private givenName(sex: Sex): string {
    const roll = this.rng.next();
    if (roll < P.formalGiven) return capitalise(this.rng.pick(sex === 'male' ? FORMAL_MALE : FORMAL_FEMALE));
    if (roll < P.formalGiven + P.accentedGiven) {
      return this.rng.pick(sex === 'male' ? ACCENTED_GIVEN_MALE : ACCENTED_GIVEN_FEMALE);
    }
    return this.faker.person.firstName(sex);
  }

  /** Uniform over ages 0–100 at REFERENCE_DATE. */
  private birthDate(): string {
    const days = (REFERENCE_MS - OLDEST_MS) / DAY_MS;
    return new Date(OLDEST_MS + this.rng.int(days) * DAY_MS).toISOString().slice(0, 10);
  }

  /**
   * Built here rather than by faker.internet.email: only the reserved example domains (RFC 2606),
   * so that no generated address can reach a real mailbox, and it is several times faster.
   */
  private email(given: string, family: string): string {
    const first = stripDiacritics(given)
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    const last = stripDiacritics(family)
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    const separator = this.rng.pick(EMAIL_SEPARATORS);
    const suffix = this.rng.chance(0.5) ? String(this.rng.int(100)) : '';
    return `${first}${separator}${last}${suffix}@${this.rng.pick(EMAIL_DOMAINS)}`;
  }

  private address(): Address {
    // Building numbers come from our PRNG: faker's streetAddress template is several times slower.
    const line = [`${String(1 + this.rng.int(this.rng.chance(0.5) ? 999 : 99_999))} ${this.faker.location.street()}`];
    if (this.rng.chance(P.secondLine)) line.push(this.faker.location.secondaryAddress());
    return {
      line,
      city: this.faker.location.city(),
      state: this.faker.location.state({ abbreviated: true }),
      postalCode: this.faker.location.zipCode('#####'),
    };
  }

  private phoneDigits(): string {
    const digits = this.faker.phone.number({ style: 'national' }).replace(/\D/g, '');
    // en_US national numbers are 10 digits; keep the last 10 should a format ever carry a prefix.
    return digits.slice(-10).padStart(10, '5');
  }

  /** Ten digits, no leading zero, unique per person. */
  private nationalId(): string {
    let id = 0;
    do {
      id = 1_000_000_000 + this.rng.int(9_000_000_000);
    } while (this.usedNationalIds.has(id));
    this.usedNationalIds.add(id);
    return String(id);
  }
}

function otherSex(sex: Sex): Sex {
  return sex === 'male' ? 'female' : 'male';
}
