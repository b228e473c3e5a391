import type { MatchingProfile, SourceTrustEntry } from '../contract/profile.ts';
import { defaultModel } from '../scoring/default-model.ts';

/** Birth dates and codes compared in levels (comparators/birth-date-levels.ts, edit-levels.ts). */
export const DEFAULT_COMPARATOR_VERSION = 'comparators-2';

/**
 * The profile a new sandbox starts with. No nickname list is enabled by default (the spec's rule 2);
 * the demo en-US dictionary can be added with `profile apply`.
 *
 * Scoring: the default Fellegi-Sunter model (scoring/default-model.ts), so a disagreeing field counts
 * against a match. Thresholds on its match probability: Probable 0.5 (a pair more likely one person than two
 * goes to review) and Certain 0.97, the lowest Certain that kept automatic links at least 99.95% right on both
 * tuning sets (FEBRL 4 and the synthetic population of 10,000 people, where households and twins make the
 * wrong links): 0.99 left true pairs in review on every set (synthetic F1 0.9897, FEBRL 3 0.9894, scored
 * candidate by candidate), 0.97 linked them (0.9915, 0.9908) at the same precision (0.9995 against 0.9997, 8
 * wrong links in 17,320 against 5), and 0.95 doubled the wrong links (docs/matching.md, "Matching quality").
 *
 * Blocking: a true pair must share one key, so the rules pair fields whose errors are independent (a name
 * with a date, a postcode or a city; date with postcode; identifiers, phone and e-mail alone): with one
 * field wrong or missing, another rule still holds the pair.
 */
export function defaultProfile(sources: readonly SourceTrustEntry[]): MatchingProfile {
  return {
    Comparators: {
      Version: DEFAULT_COMPARATOR_VERSION,
      FamilyName: ['JaroWinkler', 'Phonetic'],
      GivenNames: ['JaroWinkler', 'Phonetic'],
      PhoneticMatchFloor: 0.88,
      NicknameMatchFloor: 0.9,
      NicknameDictionaries: [],
    },
    MatchingRules: {
      Thresholds: { Certain: 0.97, Probable: 0.5 },
      FellegiSunter: defaultModel(DEFAULT_COMPARATOR_VERSION),
    },
    Blocking: {
      Version: 1,
      ActiveKeyVersion: 'k1',
      Rules: [
        {
          Name: 'family-phonetic-birth-year',
          Parts: [
            { Field: 'familyName', Transform: 'Phonetic' },
            { Field: 'birthDate', Transform: 'Year' },
          ],
        },
        {
          Name: 'given-phonetic-birth-date',
          Parts: [
            { Field: 'givenName', Transform: 'Phonetic' },
            { Field: 'birthDate', Transform: 'Exact' },
          ],
        },
        {
          Name: 'birth-date-postcode',
          Parts: [
            { Field: 'birthDate', Transform: 'Exact' },
            { Field: 'postalCode', Transform: 'Exact' },
          ],
        },
        {
          Name: 'family-given-phonetic',
          Parts: [
            { Field: 'familyName', Transform: 'Phonetic' },
            { Field: 'givenName', Transform: 'Phonetic' },
          ],
          // Either order: a given and a family name written the wrong way round still meet (the comparators score
          // them crosswise), with no further tag per record.
          Unordered: true,
        },
        {
          Name: 'family-phonetic-postcode',
          Parts: [
            { Field: 'familyName', Transform: 'Phonetic' },
            { Field: 'postalCode', Transform: 'Exact' },
          ],
        },
        { Name: 'identifier', Parts: [{ Field: 'identifier', Transform: 'Exact' }] },
        { Name: 'phone', Parts: [{ Field: 'phone', Transform: 'Exact' }] },
        { Name: 'email', Parts: [{ Field: 'email', Transform: 'Exact' }] },
        { Name: 'birth-date', Parts: [{ Field: 'birthDate', Transform: 'Exact' }] },
        {
          Name: 'given-phonetic-postcode',
          Parts: [
            { Field: 'givenName', Transform: 'Phonetic' },
            { Field: 'postalCode', Transform: 'Exact' },
          ],
        },
        {
          Name: 'family-phonetic-city',
          Parts: [
            { Field: 'familyName', Transform: 'Phonetic' },
            { Field: 'city', Transform: 'Exact' },
          ],
        },
        {
          Name: 'given-phonetic-city',
          Parts: [
            { Field: 'givenName', Transform: 'Phonetic' },
            { Field: 'city', Transform: 'Exact' },
          ],
        },
        {
          Name: 'postcode-city',
          Parts: [
            { Field: 'postalCode', Transform: 'Exact' },
            { Field: 'city', Transform: 'Exact' },
          ],
        },
        {
          Name: 'family-phonetic-birth-month-day',
          Parts: [
            { Field: 'familyName', Transform: 'Phonetic' },
            { Field: 'birthDate', Transform: 'MonthDay' },
          ],
        },
        {
          Name: 'given-phonetic-birth-month-day',
          Parts: [
            { Field: 'givenName', Transform: 'Phonetic' },
            { Field: 'birthDate', Transform: 'MonthDay' },
          ],
        },
        {
          Name: 'given-prefix-birth-year',
          Parts: [
            { Field: 'givenName', Transform: 'Prefix3' },
            { Field: 'birthDate', Transform: 'Year' },
          ],
        },
      ],
    },
    SourceTrust: [...sources],
    TrustedIdentifierSystems: [],
    HardConflictRules: ['TrustedIdentifierMismatch'],
  };
}
