/**
 * Patients one source sends again and again, as NDJSON lines, each with a new medical record number.
 *
 * `repeatedPatient`: one person registered afresh at every visit (Maria Garcia, born 1975-03-14, one address and
 * phone): the model links them all into one identity, which the link-quality scan flags as too large and as one
 * source twice.
 *
 * `placeholderPatients`: the registry's unidentified patients as an emergency department registers them ("Unknown
 * Patient" and "John Doe" in turn, born 1900-01-01, the hospital's own address): different people whose every value
 * is a placeholder or the hospital's, which must never be linked together.
 */
function repeated(count: number, patient: (i: number) => Record<string, unknown>): string {
  return (
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        resourceType: 'Patient',
        id: `repeat-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `RPT${String(i).padStart(5, '0')}` }],
        ...patient(i),
      }),
    ).join('\n') + '\n'
  );
}

export function repeatedPatient(count: number): string {
  return repeated(count, () => ({
    name: [{ use: 'official', family: 'Garcia', given: ['Maria'] }],
    gender: 'female',
    birthDate: '1975-03-14',
    telecom: [{ system: 'phone', value: '(204) 555-0142' }],
    address: [{ use: 'home', line: ['27 Alder Road'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
  }));
}

/** How an emergency department names an unidentified man. */
const UNIDENTIFIED_NAMES = [
  { use: 'official', family: 'Unknown', given: ['Patient'] },
  { family: 'Doe', given: ['John'] },
  { use: 'official', family: 'Unknown', given: ['Male'] },
  { family: 'Unidentified', given: ['M', '7'] },
];

export function placeholderPatients(count: number): string {
  return repeated(count, (i) => ({
    name: [UNIDENTIFIED_NAMES[i % UNIDENTIFIED_NAMES.length]],
    gender: 'male',
    birthDate: '1900-01-01',
    address: [{ use: 'home', line: ['1 Main Street'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
  }));
}

/** How an emergency department names a trauma patient brought in unable to give a name, its list used again. */
const TRAUMA_ALIASES = [
  { use: 'official', family: 'Trauma', given: ['Alpha'] },
  { use: 'official', family: 'ZZTrauma', given: ['Bravo'] },
  { family: 'Trauma', given: ['Charlie', '12'] },
  { use: 'official', family: 'Zulu', given: ['Trauma'] },
];

/**
 * `traumaAliasPatients`: trauma patients registered under aliases from a list that comes round again, each born (as
 * registered) on the day of arrival, at the hospital's address: the records i and i + 4 of a day's eight share an
 * alias, a sex and a birth date. Different people all.
 */
export function traumaAliasPatients(count: number): string {
  return repeated(count, (i) => ({
    name: [TRAUMA_ALIASES[i % TRAUMA_ALIASES.length]],
    gender: i % 2 === 0 ? 'male' : 'female',
    birthDate: `2026-11-${String(1 + Math.floor(i / 8)).padStart(2, '0')}`,
    address: [{ use: 'home', line: ['1 Main Street'], city: 'Springfield', state: 'ND', postalCode: '72419' }],
  }));
}

/**
 * `newbornTwins`: pairs of twins as a maternity ward registers them before they are named ("Baby Boy A" and "Baby Boy
 * B", "Baby Boy" and "Baby Girl", or twin girls both "Baby Girl" and the mother's first name, under the mother's
 * family name), each pair born on its own day at its own address and phone. No two records are one person.
 */
export function newbornTwins(pairs: number): string {
  const FAMILIES = ['Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka', 'Brennan', 'Kowalski', 'Ferreira'];
  const MOTHERS = ['Ngozi', 'Ingrid', 'Leila', 'Maria', 'Yuki'];
  return (
    Array.from({ length: pairs * 2 }, (_, i) => {
      const pair = Math.floor(i / 2);
      const second = i % 2 === 1;
      const mixed = pair % 3 === 1;
      const mothers = pair % 3 === 2;
      const given = mixed
        ? ['Baby', second ? 'Girl' : 'Boy']
        : mothers
          ? ['Baby Girl', MOTHERS[pair % MOTHERS.length] ?? 'Maria']
          : ['Baby', 'Boy', second ? 'B' : 'A'];
      return JSON.stringify({
        resourceType: 'Patient',
        id: `nb-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `NB${String(i).padStart(5, '0')}` }],
        name: [{ use: 'official', family: FAMILIES[pair % FAMILIES.length], given }],
        gender: (mixed && second) || mothers ? 'female' : 'male',
        birthDate: `2026-${String(1 + (pair % 11)).padStart(2, '0')}-${String(1 + (pair % 27)).padStart(2, '0')}`,
        telecom: [{ system: 'phone', value: `(204) 555-${String(1000 + pair)}` }],
        address: [
          {
            use: 'home',
            line: [`${String(10 + pair)} Birch Lane`],
            city: 'Springfield',
            state: 'ND',
            postalCode: '72419',
          },
        ],
      });
    }).join('\n') + '\n'
  );
}

/** Twins' given names and sex (null: the source sends none). */
type TwinNames = readonly (readonly [string, string, 'male' | 'female' | null])[];

/** Same-sex twins named a letter apart. */
export const LETTER_APART_TWINS: TwinNames = [
  ['Jayden', 'Jaydon', 'male'],
  ['Caitlin', 'Caitlyn', 'female'],
  ['Aidan', 'Aiden', 'male'],
  ['Madeline', 'Madelyn', 'female'],
  ['Brayden', 'Braydon', 'male'],
  ['Kristen', 'Kirsten', 'female'],
];

/** Same-sex twins named alike but for their first sound (comparators/first-sound.ts). */
export const RHYMING_TWINS: TwinNames = [
  ['Emma', 'Gemma', 'female'],
  ['Mason', 'Jason', 'male'],
  ['Ella', 'Bella', 'female'],
  ['Ryan', 'Bryan', 'male'],
  ['Anna', 'Hanna', 'female'],
  ['Madison', 'Addison', 'female'],
];

/**
 * Twins of opposite sex named by one name's forms for a boy and a girl (comparators/names-of-two-sexes.ts), from a
 * source that sends no sex.
 */
export const BOY_AND_GIRL_TWINS: TwinNames = [
  ['Daniel', 'Danielle', null],
  ['Paul', 'Paula', null],
  ['Antonio', 'Antonia', null],
  ['Francis', 'Frances', null],
  ['Louis', 'Louise', null],
  ['Alexander', 'Alexandra', null],
];

/**
 * `namedTwins`: pairs of twins of the given names and sex (by default same-sex twins named a letter apart, Jayden and
 * Jaydon; no `gender` where the names give none), each pair born on its own day at its own address and phone, with
 * their birth orders (multipleBirthInteger 1 and 2) when `orders`; the second twin born after midnight, on the next
 * day, when `acrossMidnight`. No two records are one person.
 */
export function namedTwins(
  pairs: number,
  orders: boolean,
  names: TwinNames = LETTER_APART_TWINS,
  acrossMidnight = false,
): string {
  const FAMILIES = ['Okonkwo', 'Lindgren', 'Halloran', 'Desrosiers', 'Yamamoto', 'Petrakis', 'Ferreira', 'Novak'];
  return (
    Array.from({ length: pairs * 2 }, (_, i) => {
      const pair = Math.floor(i / 2);
      const second = i % 2;
      const [first, other, gender] = names[pair % names.length] ?? ['Jayden', 'Jaydon', 'male'];
      return JSON.stringify({
        resourceType: 'Patient',
        id: `tw-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `TW${String(i).padStart(5, '0')}` }],
        name: [{ use: 'official', family: FAMILIES[pair % FAMILIES.length], given: [second === 0 ? first : other] }],
        ...(gender === null ? {} : { gender }),
        birthDate: `2018-${String(1 + (pair % 11)).padStart(2, '0')}-${String(1 + (pair % 27) + (acrossMidnight ? second : 0)).padStart(2, '0')}`,
        ...(orders ? { multipleBirthInteger: 1 + second } : {}),
        telecom: [{ system: 'phone', value: `(204) 555-${String(2000 + pair)}` }],
        address: [
          {
            use: 'home',
            line: [`${String(10 + pair)} Cedar Court`],
            city: 'Springfield',
            state: 'ND',
            postalCode: '72419',
          },
        ],
      });
    }).join('\n') + '\n'
  );
}

/** What registration staff type for a national number the patient does not have or know, in the forms seen. */
export const PLACEHOLDER_NUMBERS = ['999-99-9999', '000000000', '123-45-6789', 'UNKNOWN', '***-**-1234', '111111111'];

/**
 * `placeholderNumberPatients`: different people (each their own name, sex, birth date and home) whom a source
 * registered with a placeholder national number (PLACEHOLDER_NUMBERS in turn) and placeholder phone and e-mail; every
 * fourth of them homeless ("Homeless" as the address line).
 */
export function placeholderNumberPatients(count: number, nationalIdSystem: string): string {
  const FAMILIES = ['Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka', 'Brennan', 'Kowalski', 'Ferreira', 'Novak'];
  const GIVEN = ['Amara', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kalani'];
  return repeated(count, (i) => ({
    identifier: [
      { system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `PHN${String(i).padStart(5, '0')}` },
      { system: nationalIdSystem, value: PLACEHOLDER_NUMBERS[i % PLACEHOLDER_NUMBERS.length] },
    ],
    name: [{ use: 'official', family: FAMILIES[i % FAMILIES.length], given: [GIVEN[i % GIVEN.length]] }],
    gender: i % 2 === 0 ? 'female' : 'male',
    birthDate: `${String(1940 + (i % 60))}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    telecom: [
      { system: 'phone', value: '000-000-0000' },
      { system: 'email', value: 'noemail@noemail.com' },
    ],
    address: [
      { use: 'home', line: [i % 4 === 3 ? 'Homeless' : `${String(i + 1)} Harbour Street`], city: 'Springfield' },
    ],
  }));
}

/** A compound family name and the one of its names a second clerk kept, a given name and a sex. */
const COMPOUND_FAMILIES = [
  ['García López', 'López', 'Lucía', 'female'],
  ['Pereira dos Santos', 'Santos', 'João', 'male'],
  ['Smith-Jones', 'Jones', 'Harriet', 'female'],
  ['Martínez Ruiz', 'Ruiz', 'Alejandro', 'male'],
  ['Fernández-Castro', 'Castro', 'Valentina', 'female'],
  ['Hughes-Whitaker', 'Whitaker', 'Ophelia', 'female'],
] as const;

/** Given and middle names, the middle name the person goes by, a family name and a sex. */
const MIDDLE_NAMES_GONE_BY = [
  [['José', 'Luis'], 'Luis', 'Ramírez', 'male'],
  [['Anne-Marie'], 'Marie', 'Leclerc', 'female'],
  [['John', 'Michael'], 'Michael', 'Brennan', 'male'],
  [['María', 'Fernanda'], 'Fernanda', 'Ortega', 'female'],
] as const;

/** A registration's name and sex, and its birth date when not the person's own (registeredTwice). */
type Registration = readonly [{ family: string; given: readonly string[] }, 'male' | 'female', string?];

/**
 * People each registered twice (`names` gives both registrations' names and the sex, and a birth date when it is not
 * the person's own), with one birth date, never a 1 January (which names alone cannot confirm: first-of-january.ts).
 * Moved: at two homes with two phones of two area codes; else both at the person's first home and phone. Local
 * identifiers `<prefix>00000` on; every two records in turn are one person.
 */
function registeredTwice(
  people: number,
  prefix: string,
  names: (person: number, second: boolean) => Registration,
  moved = true,
): string {
  return (
    Array.from({ length: people * 2 }, (_, i) => {
      const person = Math.floor(i / 2);
      const second = i % 2 === 1;
      const elsewhere = second && moved;
      const [name, gender, birthDate] = names(person, second);
      return JSON.stringify({
        resourceType: 'Patient',
        id: `${prefix.toLowerCase()}-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `${prefix}${String(i).padStart(5, '0')}` }],
        name: [{ use: 'official', ...name }],
        gender,
        birthDate:
          birthDate ??
          `19${String(60 + person)}-${String(1 + (person % 12)).padStart(2, '0')}-${String(2 + (person % 27)).padStart(2, '0')}`,
        telecom: [
          {
            system: 'phone',
            value: elsewhere ? `(701) 555-${String(7100 + person)}` : `(204) 555-${String(3000 + person)}`,
          },
        ],
        address: [
          {
            use: 'home',
            line: [`${String(10 + (moved ? i : 2 * person))} ${elsewhere ? 'Birch Lane' : 'Calle Mayor'}`],
            city: elsewhere ? 'Fargo' : 'Springfield',
            state: 'ND',
            postalCode: elsewhere ? '58102' : '72419',
          },
        ],
      });
    }).join('\n') + '\n'
  );
}

/**
 * `compoundNamePatients`: people registered under a compound family name (García López, Smith-Jones) and under its
 * second name alone (López, Jones), at two homes (registeredTwice), local identifiers CF00000 on.
 */
export function compoundNamePatients(people: number): string {
  return registeredTwice(people, 'CF', (person, second) => {
    const [compound, alone, given, gender] = COMPOUND_FAMILIES[person % COMPOUND_FAMILIES.length] ?? [];
    return [{ family: (second ? alone : compound) ?? '', given: [given ?? ''] }, gender ?? 'female'];
  });
}

/**
 * `middleNameGivenPatients`: people registered under their given and middle names (José Luis, Anne-Marie) and under
 * the middle name they go by alone (Luis, Marie), at two homes (registeredTwice), local identifiers MG00000 on.
 */
export function middleNameGivenPatients(people: number): string {
  return registeredTwice(people, 'MG', (person, second) => {
    const [full, goneBy, family, gender] = MIDDLE_NAMES_GONE_BY[person % MIDDLE_NAMES_GONE_BY.length] ?? [];
    return [{ family: family ?? '', given: second ? [goneBy ?? ''] : [...(full ?? [])] }, gender ?? 'male'];
  });
}

/** Given names registered in one order and then the other: the names and a family name, and a sex. */
const REORDERED_GIVEN_NAMES = [
  [['María', 'Fernanda'], 'Ortega', 'female'],
  [['Juan', 'Carlos'], 'Ramírez', 'male'],
  [['Ana', 'Lucía'], 'Castillo', 'female'],
  [['Jean', 'Paul'], 'Leclerc', 'male'],
] as const;

/**
 * `reorderedGivenNamesPatients`: people registered under their two given names (María Fernanda) and under the same
 * names in another order (Fernanda María), at two homes (registeredTwice), local identifiers RG00000 on.
 */
export function reorderedGivenNamesPatients(people: number): string {
  return registeredTwice(people, 'RG', (person, second) => {
    const [names, family, gender] = REORDERED_GIVEN_NAMES[person % REORDERED_GIVEN_NAMES.length] ?? [];
    const given = [...(names ?? [])];
    return [{ family: family ?? '', given: second ? given.reverse() : given }, gender ?? 'female'];
  });
}

/**
 * `yearOnlyFathers`: fathers and sons of one name at one home and phone, the father's record giving his year of birth
 * only (1950 on), the son's a full date thirty years later; local identifiers YF00000 on. At most eight pairs, each
 * its own name. No two records are one person.
 */
export function yearOnlyFathers(pairs: number): string {
  const FAMILIES = ['Okonkwo', 'Lindgren', 'Halloran', 'Desrosiers', 'Yamamoto', 'Petrakis', 'Ferreira', 'Novak'];
  const GIVEN = ['Robert', 'Tobias', 'Emeka', 'Henrik', 'Dmitri', 'Kenji', 'Marco', 'Pavel'];
  return (
    Array.from({ length: pairs * 2 }, (_, i) => {
      const pair = Math.floor(i / 2);
      const son = i % 2 === 1;
      const year = 1950 + pair;
      return JSON.stringify({
        resourceType: 'Patient',
        id: `yf-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `YF${String(i).padStart(5, '0')}` }],
        name: [{ use: 'official', family: FAMILIES[pair % FAMILIES.length], given: [GIVEN[pair % GIVEN.length]] }],
        gender: 'male',
        birthDate: son ? `${String(year + 30)}-${String(1 + (pair % 12)).padStart(2, '0')}-14` : String(year),
        // Each home's phone differs from every other's in all four last digits.
        telecom: [{ system: 'phone', value: `(204) 555-${String(1000 + (pair % 8) * 1111)}` }],
        address: [
          {
            use: 'home',
            line: [`${String(10 + pair)} Linden Row`],
            city: 'Springfield',
            state: 'ND',
            postalCode: '72419',
          },
        ],
      });
    }).join('\n') + '\n'
  );
}

/** Birth dates whose day before changes more than one digit: the 10th, 20th and 30th, and the first of a month. */
const CARRYING_DATES = ['1961-03-10', '1964-07-20', '1967-04-30', '1970-05-01', '1972-03-01', '1975-11-20'] as const;
const SHIFTED_PEOPLE = [
  ['Okonkwo', 'Adaeze', 'female'],
  ['Lindgren', 'Tobias', 'male'],
  ['Halloran', 'Siobhan', 'female'],
  ['Desrosiers', 'Mathieu', 'male'],
  ['Yamamoto', 'Haruka', 'female'],
  ['Petrakis', 'Nikos', 'male'],
] as const;

/** The date a day before an ISO date. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * `dayShiftedPatients`: people each registered by two sources, the second of which sends every birth date a day early
 * (it stores a date as midnight and reads it back in a time zone west of it), on days where that changes two digits
 * or more (the 10th becomes the 9th, 1 May the 30 April, 1 March 1972 the 29 February). Moved: at two homes and phones;
 * else both at one. Local identifiers DS00000 (moved) or DH00000 on; at most six people, each their own name.
 */
export function dayShiftedPatients(people: number, moved: boolean): string {
  return registeredTwice(
    people,
    moved ? 'DS' : 'DH',
    (person, second) => {
      const [family, given, gender] = SHIFTED_PEOPLE[person % SHIFTED_PEOPLE.length] ?? [];
      const date = CARRYING_DATES[person % CARRYING_DATES.length] ?? '1961-03-10';
      return [{ family: family ?? '', given: [given ?? ''] }, gender ?? 'female', second ? dayBefore(date) : date];
    },
    moved,
  );
}
