import type { MatchingProfile, SourceTrustEntry } from '../contract/profile.ts';

/**
 * The profile a new sandbox starts with. No nickname list is enabled by default (the spec's rule 2);
 * the demo en-US dictionary can be added with `profile apply`.
 */
export function defaultProfile(sources: readonly SourceTrustEntry[]): MatchingProfile {
  return {
    Comparators: {
      Version: 'comparators-1',
      FamilyName: ['JaroWinkler', 'Phonetic'],
      GivenNames: ['JaroWinkler', 'Phonetic'],
      PhoneticMatchFloor: 0.88,
      NicknameMatchFloor: 0.9,
      NicknameDictionaries: [],
    },
    MatchingRules: {
      Thresholds: { Certain: 0.92, Probable: 0.75 },
      FellegiSunter: null,
    },
    Blocking: {
      Version: 1,
      ActiveKeyVersion: 'k1',
      Rules: [
        { Name: 'family-phonetic-birth-year', Parts: [{ Field: 'familyName', Transform: 'Phonetic' }, { Field: 'birthDate', Transform: 'Year' }] },
        { Name: 'given-phonetic-birth-date', Parts: [{ Field: 'givenName', Transform: 'Phonetic' }, { Field: 'birthDate', Transform: 'Exact' }] },
        { Name: 'birth-date-postcode', Parts: [{ Field: 'birthDate', Transform: 'Exact' }, { Field: 'postalCode', Transform: 'Exact' }] },
        { Name: 'family-given-phonetic', Parts: [{ Field: 'familyName', Transform: 'Phonetic' }, { Field: 'givenName', Transform: 'Phonetic' }] },
        { Name: 'family-phonetic-postcode', Parts: [{ Field: 'familyName', Transform: 'Phonetic' }, { Field: 'postalCode', Transform: 'Exact' }] },
        { Name: 'identifier', Parts: [{ Field: 'identifier', Transform: 'Exact' }] },
        { Name: 'phone', Parts: [{ Field: 'phone', Transform: 'Exact' }] },
      ],
    },
    SourceTrust: [...sources],
    TrustedIdentifierSystems: [],
    HardConflictRules: ['TrustedIdentifierMismatch'],
  };
}
