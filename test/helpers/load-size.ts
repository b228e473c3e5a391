/**
 * What the load-size tests share (engine/ingest/load-size.ts): registry-prior.test.ts's namesakes of one given name
 * and birth date, whom a small registry links and a large one sends to review; people who are nobody else in a load;
 * a registry of some size, as its name counts say, under a model whose prior was set for that size.
 */
import type { LocalEngine } from '../../engine/local-engine.ts';
import type { MatchingProfile } from '../../engine/contract/profile.ts';

/** "guillermo halvorson" and "guillermo hyatt", one birth date and sex; `identify` adds each record's identifiers. */
export function namesakes(identify: (index: 1 | 2) => Record<string, unknown>): Record<string, unknown>[] {
  return [
    {
      resourceType: 'Patient',
      ...identify(1),
      name: [{ family: 'Halvorson', given: ['Guillermo'] }],
      gender: 'male',
      birthDate: '1983-08-27',
      telecom: [{ system: 'email', value: 'guillermo_halvorson@example.net' }],
    },
    {
      resourceType: 'Patient',
      ...identify(2),
      name: [{ family: 'Hyatt', given: ['Guillermo'] }],
      gender: 'male',
      birthDate: '1983-08-27',
      address: [{ line: ['296 Bernier Island'], city: 'Gloverchester', state: 'RI', postalCode: '71390' }],
    },
  ];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A name of letters only, one for each index. */
function nameOf(index: number): string {
  let name = '';
  for (let rest = index + 26 * 26; rest > 0; rest = Math.floor(rest / 26)) name = (LETTERS[rest % 26] ?? '') + name;
  return name;
}

/** People who are nobody else in the load: names of their own, birth dates 29 days apart from 1950. */
export function strangers(
  count: number,
  identify: (index: number) => Record<string, unknown>,
): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    resourceType: 'Patient',
    ...identify(i),
    name: [{ family: `Q${nameOf(i)}`, given: [`Z${nameOf(i * 7 + 3)}`] }],
    gender: i % 2 === 0 ? 'female' : 'male',
    birthDate: new Date(Date.UTC(1950, 0, 1) + i * 29 * 86_400_000).toISOString().slice(0, 10),
  }));
}

/** The profile with its model's prior set for a registry of `records` records. */
export function priorSetFor(profile: MatchingProfile, records: number): MatchingProfile {
  const model = profile.MatchingRules.FellegiSunter;
  if (model === null) throw new Error('the profile has a model');
  return {
    ...profile,
    MatchingRules: { ...profile.MatchingRules, FellegiSunter: { ...model, priorRecords: records } },
  };
}

/** A registry of `records` records as its name counts say (each field's values as common as one another). */
export function countsOfRegistry(engine: LocalEngine, tenantId: string, records: number): void {
  const { store } = engine.env;
  store.write(() => {
    for (const field of ['familyName', 'givenName'])
      store
        .statement('INSERT INTO term_frequency_total (tenant_id, field, total, sum_squares) VALUES (?, ?, ?, ?)')
        .run(tenantId, field, records, records);
  });
}
