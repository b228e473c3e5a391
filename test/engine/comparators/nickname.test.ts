import { describe, it, expect } from 'vitest';
import { buildNicknameIndex, nicknameGroup, nicknameSimilarity } from '../../../engine/comparators/nickname.ts';
import { demoNicknameDictionary } from '../../../engine/comparators/dictionaries/index.ts';
import { comparatorProfileIssues } from '../../../engine/profile/validate-comparators.ts';
import type { ComparatorProfile, NicknameDictionary } from '../../../engine/contract/profile.ts';

const british: NicknameDictionary = {
  Version: 'en-GB-test-3',
  Culture: 'en-GB',
  Entries: { archibald: ['archie', 'baldie'], ' Hamish ': ['James-Scots'] },
};

describe('nickname groups', () => {
  // Reference: the project's en-US demo dictionary, whose groups follow the common English
  // hypocoristics (William: Bill, Will, Billy, Liam; Elizabeth: Liz, Beth, Betty, Eliza, Lizzie;
  // Robert: Bob, Rob, Bobby, Robbie; Margaret: Maggie, Peggy, Meg).
  const demo = demoNicknameDictionary();
  const index = buildNicknameIndex([demo, british]);

  it('places a canonical name and its aliases in one group', () => {
    const william = nicknameGroup(index, 'william');
    expect(william).toBeDefined();
    for (const alias of ['bill', 'will', 'billy', 'liam'])
      expect(nicknameGroup(index, alias)?.group).toBe(william?.group);
    for (const alias of ['liz', 'beth', 'betty', 'eliza', 'lizzie']) {
      expect(nicknameGroup(index, alias)?.group).toBe(nicknameGroup(index, 'elizabeth')?.group);
    }
    expect(nicknameGroup(index, 'bob')?.group).toBe(nicknameGroup(index, 'robert')?.group);
    expect(nicknameGroup(index, 'peggy')?.group).toBe(nicknameGroup(index, 'margaret')?.group);
    expect(nicknameGroup(index, 'bob')?.group).not.toBe(william?.group);
  });

  it('looks names up trimmed and in lower case', () => {
    expect(nicknameGroup(index, '  BILL ')?.group).toBe(nicknameGroup(index, 'william')?.group);
    expect(nicknameGroup(index, 'hamish')?.dictionaryVersion).toBe('en-GB-test-3');
    expect(nicknameGroup(index, 'james-scots')?.group).toBe(nicknameGroup(index, 'hamish')?.group);
    expect(nicknameGroup(index, 'zebedee')).toBeUndefined();
  });

  it('records the culture and dictionary version of the group', () => {
    expect(nicknameGroup(index, 'archie')).toMatchObject({ culture: 'en-GB', dictionaryVersion: 'en-GB-test-3' });
    expect(nicknameGroup(index, 'bill')).toMatchObject({ culture: 'en-US', dictionaryVersion: 'en-US-demo-1' });
  });
});

describe('nicknameSimilarity', () => {
  const index = buildNicknameIndex([demoNicknameDictionary(), british]);

  it('gives the floor with culture and version for two names of one group', () => {
    expect(nicknameSimilarity('william', 'bill', index, 0.85)).toEqual({
      similarity: 0.85,
      culture: 'en-US',
      dictionaryVersion: 'en-US-demo-1',
    });
    expect(nicknameSimilarity('bill', 'liam', index, 0.85).similarity).toBe(0.85);
    expect(nicknameSimilarity('archie', 'archibald', index, 0.9)).toEqual({
      similarity: 0.9,
      culture: 'en-GB',
      dictionaryVersion: 'en-GB-test-3',
    });
  });

  it('gives 1 for equal names and 0 otherwise', () => {
    expect(nicknameSimilarity('zebedee', 'zebedee', index, 0.85)).toEqual({ similarity: 1 });
    expect(nicknameSimilarity('bill', 'bob', index, 0.85)).toEqual({ similarity: 0 });
    expect(nicknameSimilarity('bill', 'zebedee', index, 0.85)).toEqual({ similarity: 0 });
    expect(nicknameSimilarity('zebedee', 'bill', index, 0.85)).toEqual({ similarity: 0 });
  });

  it('scores nothing with an empty index', () => {
    const empty = buildNicknameIndex([]);
    expect(nicknameSimilarity('william', 'bill', empty, 0.85)).toEqual({ similarity: 0 });
  });
});

describe('the en-US demo dictionary', () => {
  it('passes the comparator profile validator with zero issues', () => {
    const demo = demoNicknameDictionary();
    const profile: ComparatorProfile = {
      Version: 'comparators-1',
      FamilyName: ['JaroWinkler', 'Phonetic'],
      GivenNames: ['JaroWinkler', 'Nickname'],
      PhoneticMatchFloor: 0.8,
      NicknameMatchFloor: 0.85,
      NicknameDictionaries: [demo],
    };
    expect(comparatorProfileIssues(profile)).toEqual([]);
    expect(demo.Version).toBe('en-US-demo-1');
    expect(demo.Culture).toBe('en-US');
    const groups = Object.keys(demo.Entries).length;
    expect(groups).toBeGreaterThanOrEqual(60);
    expect(groups).toBeLessThanOrEqual(100);
  });

  it('is all lower case', () => {
    for (const [canonical, aliases] of Object.entries(demoNicknameDictionary().Entries)) {
      for (const name of [canonical, ...aliases]) expect(name).toBe(name.trim().toLowerCase());
    }
  });
});
