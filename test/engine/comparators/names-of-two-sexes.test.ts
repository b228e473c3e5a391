import { describe, expect, it } from 'vitest';
import { namesOfTwoSexes, oneNamesForms } from '../../../engine/comparators/names-of-two-sexes.ts';

describe('namesOfTwoSexes', () => {
  it("says so for a boy's and a girl's form of one name, in either order", () => {
    for (const [a, b] of [
      ['daniel', 'danielle'],
      ['paul', 'paula'],
      ['louis', 'louise'],
      ['jean', 'jeanne'],
      ['antonio', 'antonia'],
      ['giovanni', 'giovanna'],
      ['francis', 'frances'],
      ['alexander', 'alexandra'],
      ['julius', 'julia'],
      ['christian', 'christina'],
      ['patrick', 'patricia'],
      ['stephen', 'stephanie'],
      ['victor', 'victoria'],
      ['michael', 'michaela'],
    ] as const) {
      expect(namesOfTwoSexes(a, b), `${a} ${b}`).toBe(true);
      expect(namesOfTwoSexes(b, a), `${b} ${a}`).toBe(true);
    }
  });

  it('says not for a dropped last letter, two spellings of one name, or one name', () => {
    // The form is there (a stem and a girl's ending), but the list of names by sex knows "sophi" as a girl's name or
    // not at all, and calls both spellings a girl's.
    for (const [a, b] of [
      ['sophie', 'sophi'],
      ['rebecca', 'rebecc'],
      ['emma', 'emm'],
      ['isabel', 'isabelle'],
      ['ann', 'anna'],
      ['clair', 'claire'],
      ['daniel', 'daniel'],
    ] as const) {
      expect(namesOfTwoSexes(a, b), `${a} ${b}`).toBe(false);
    }
    expect(oneNamesForms('sophie', 'sophi')).toBe(true);
    expect(oneNamesForms('isabel', 'isabelle')).toBe(true);
  });

  it('says not for names of two sexes that are not one name, or whose stem is under three letters', () => {
    // Two names (Mark and Mary agree Strong), a keyed letter (Daniel and Danial), and Jo and Joe (a stem of two).
    for (const [a, b] of [
      ['mark', 'mary'],
      ['daniel', 'danial'],
      ['jo', 'joe'],
      ['adam', 'ada'],
    ] as const) {
      expect(oneNamesForms(a, b), `${a} ${b}`).toBe(false);
      expect(namesOfTwoSexes(a, b), `${a} ${b}`).toBe(false);
    }
  });
});
