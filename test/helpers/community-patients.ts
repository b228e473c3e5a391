/**
 * A community registered at one hospital, as NDJSON lines: `count` different people (no two records are one person)
 * whose given and family names come from a few common ones, born 1980 to 2000, living on `streets` streets of one
 * town, each at a house number, postcode and phone drawn at random (a few share one by chance). A share of them
 * (`firstOfJanuary`) is registered on 1 January of their year of birth, as refugees and migrants registered from
 * documents that give a year are. Seeded: the same lines for the same options.
 */
import { createRng } from '../../engine/synthetic/prng.ts';

const MALE = [
  'Mohammad',
  'Ahmad',
  'Abdul',
  'Ali',
  'Hassan',
  'Hussain',
  'Omar',
  'Khalid',
  'Yusuf',
  'Rahim',
  'Karim',
  'Jawad',
];
const FEMALE = ['Fatima', 'Maryam', 'Zahra', 'Aisha', 'Khadija', 'Shabnam', 'Nargis', 'Parwana', 'Laila', 'Soraya'];
const FAMILY = ['Ahmadi', 'Mohammadi', 'Hakimi', 'Rahimi', 'Karimi', 'Hashimi', 'Noori', 'Sultani', 'Azizi', 'Habibi'];
const STREETS = [
  'Harbour Street',
  'Maple Avenue',
  'Oak Road',
  'Pine Crescent',
  'Elm Street',
  'Cedar Lane',
  'Mill Lane',
];
const EXCHANGES = ['231', '284', '339', '475', '555'];

export interface CommunityOptions {
  readonly count: number;
  /** The share of people registered on 1 January. */
  readonly firstOfJanuary: number;
  /** How many streets they live on (at most 7). */
  readonly streets: number;
  readonly seed: number;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export function communityPatients({ count, firstOfJanuary, streets, seed }: CommunityOptions): string {
  const rng = createRng(seed);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const male = rng.chance(0.5);
    const year = 1980 + rng.int(21);
    const birthDate = rng.chance(firstOfJanuary)
      ? `${String(year)}-01-01`
      : `${String(year)}-${pad(1 + rng.int(12), 2)}-${pad(1 + rng.int(28), 2)}`;
    lines.push(
      JSON.stringify({
        resourceType: 'Patient',
        id: `community-${String(i)}`,
        identifier: [{ system: 'urn:mpi-demo:st-marys-hospital:mrn', value: `CMM${pad(i, 5)}` }],
        name: [{ use: 'official', family: rng.pick(FAMILY), given: [rng.pick(male ? MALE : FEMALE)] }],
        gender: male ? 'male' : 'female',
        birthDate,
        telecom: [{ system: 'phone', value: `(204) ${rng.pick(EXCHANGES)}-${pad(rng.int(10_000), 4)}` }],
        address: [
          {
            use: 'home',
            line: [`${String(1 + rng.int(300))} ${rng.pick(STREETS.slice(0, streets))}`],
            city: 'Springfield',
            state: 'ND',
            postalCode: `72${pad(rng.int(100), 3)}`,
          },
        ],
      }),
    );
  }
  return lines.join('\n') + '\n';
}
