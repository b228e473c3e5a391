import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../../engine/profile/default-profile.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { TwinReason } from '../../../engine/contract/matching.ts';
import { scoreRuleText, TWIN_REASON_TEXT } from '../../../engine/contract/score-explanation.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';

/**
 * Which case of the twin rule held a pair (MatchResult.twinReason, scoring/possible-twin.ts): the console and the CLI
 * say that case, not the rule's every case. One family, birth date and home throughout.
 */
const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
const explain = (a: Partial<MatchFields>, b: Partial<MatchFields>) =>
  scorer.explain(scorer.prepare({ ...SAMPLE_FIELDS, ...a }), scorer.prepare({ ...SAMPLE_FIELDS, ...b }));

describe('twinReason', () => {
  it('names the case of the twin rule that held the pair', () => {
    const cases: [TwinReason, Partial<MatchFields>, Partial<MatchFields>][] = [
      ['another-given-name', { givenName: 'annabel' }, { givenName: 'beatrice' }],
      ['given-name-missing', { givenName: 'annabel' }, { givenName: null }],
      ['initial-alone', { givenName: 'annabel' }, { givenName: 'a' }],
      ['initial-alone', { givenName: 'annabel', sex: null }, { givenName: 'a', sex: null }],
      ['names-alike', { givenName: 'emma' }, { givenName: 'gemma' }],
      ['another-sex', { givenName: 'daniel', sex: 'male' }, { givenName: 'danielle', sex: 'female' }],
      ['names-of-two-sexes', { givenName: 'daniel', sex: null }, { givenName: 'danielle', sex: null }],
      ['newborn-placeholder', { givenName: 'baby', middleNames: 'boy a' }, { givenName: 'baby', middleNames: 'boy b' }],
      ['multiple-birth', { givenName: 'jayden', multipleBirth: true }, { givenName: 'jaydon', multipleBirth: true }],
      ['middle-names', { middleNames: 'fernanda' }, { middleNames: 'jose' }],
    ];
    for (const [reason, a, b] of cases) {
      expect(explain(a, b), reason).toMatchObject({ limitedBy: 'PossibleTwin', twinReason: reason });
    }
  });

  it('holds middle names that name two people with birth dates a keying error apart, whatever the given names', () => {
    // Danielle Inez and Darlene Lauren of one home and phone, born 1984-03-17 and 1984-05-17: twins, one date mistyped.
    const twins = [
      { givenName: 'danielle', middleNames: 'inez' },
      { givenName: 'darlene', middleNames: 'lauren', birthDate: '1984-05-17' },
    ] as const;
    const held = explain(...twins);
    expect(held).toMatchObject({ limitedBy: 'PossibleTwin', twinReason: 'middle-names', decision: 'probable' });
    expect(held.heldFrom).toBeGreaterThan(0.97);
    // The same given name beside the middle names, too (Maria Fernanda and Maria José, one date mistyped).
    expect(explain({ middleNames: 'fernanda' }, { middleNames: 'jose', birthDate: '1984-03-18' }).twinReason).toBe(
      'middle-names',
    );
    // One middle name on both records: one person whose given name and birth date were each mistyped, linked as before.
    const one = explain({ ...twins[0] }, { ...twins[1], middleNames: 'inez' });
    expect([one.decision, one.limitedBy]).toEqual(['certain', undefined]);
  });

  it('is absent when the twin rule did not hold the pair', () => {
    const linked = explain({}, {});
    expect(linked.decision).toBe('certain');
    expect(linked.twinReason).toBeUndefined();
    const names = explain({ birthDate: null, addressLine: null, postalCode: null, phone: null, city: null }, {});
    expect(names.limitedBy).not.toBe('PossibleTwin');
    expect(names.twinReason).toBeUndefined();
  });

  it("is said in the pair's own words in place of the rule's every case", () => {
    const held = explain({ givenName: 'daniel', sex: null }, { givenName: 'danielle', sex: null });
    const text = scoreRuleText(held, 0.5) ?? '';
    expect(text).toContain(TWIN_REASON_TEXT['names-of-two-sexes']);
    expect(text).toMatch(/so the score is held to the Probable threshold \(0\.5\)/);
    // The rule's general text lists every case (Jayden and Jaydon among them); the pair's says one.
    expect(text).not.toContain('Jayden');
    expect(scoreRuleText({ ...held, twinReason: undefined }, 0.5)).toContain('Jayden and Jaydon');
  });
});
