/** The review list's "Held by" filter: its choices, the request each stands for, and a kept view read again. */
import { describe, expect, it } from 'vitest';
import { ScoreLimitSchema, TwinReasonSchema } from '../../engine/contract/matching.ts';
import { ReviewListInputSchema } from '../../engine/contract/reviews.ts';
import {
  HELD_VALUES,
  HeldSchema,
  heldInput,
  heldOptions,
  heldText,
  heldValue,
} from '../../renderer/pages/reviews/held-filter.ts';

describe('the review list’s Held by filter', () => {
  it('offers every rule, each twin case under the twin rule, and every choice once', () => {
    const options = heldOptions();
    expect(options.map((o) => o.value)).toEqual(expect.arrayContaining([...HELD_VALUES]));
    expect(new Set(options.map((o) => o.value)).size).toBe(options.length);
    expect(new Set(options.map((o) => o.label)).size).toBe(options.length);
    expect(options).toHaveLength(2 + ScoreLimitSchema.options.length + TwinReasonSchema.options.length);
    const labels = options.map((o) => o.label);
    expect(labels.indexOf('Possible twin, any case')).toBe(labels.indexOf('Possible twin, names alike') - 5);
    expect(labels.slice(0, 2)).toEqual(['Any, held or not', 'No rule']);
  });

  it('counts each choice from the list’s counts and leaves out those that would list none, but the one chosen', () => {
    const holds = [
      { limitedBy: 'PossibleTwin' as const, twinReason: 'names-alike' as const, cases: 3 },
      { limitedBy: 'PossibleTwin' as const, twinReason: 'another-given-name' as const, cases: 8 },
      { limitedBy: 'PossibleTwin' as const, twinReason: null, cases: 1 },
      { limitedBy: 'NamesOnly' as const, twinReason: null, cases: 1_200 },
      { limitedBy: null, twinReason: null, cases: 2 },
    ];
    expect(heldOptions(holds)).toEqual([
      { value: 'any', label: 'Any, held or not (1,214)' },
      { value: 'none', label: 'No rule (2)' },
      { value: 'PossibleTwin', label: 'Possible twin, any case (12)' },
      { value: 'PossibleTwin:names-alike', label: 'Possible twin, names alike (3)' },
      { value: 'PossibleTwin:another-given-name', label: 'Possible twin, another given name (8)' },
      { value: 'NamesOnly', label: 'Names only (1,200)' },
    ]);
    expect(heldOptions(holds, 'BareRecord').map((o) => o.label)).toContain(
      'Record without a name part or birth date (0)',
    );
    expect(heldOptions([]).map((o) => o.label)).toEqual(['Any, held or not (0)']);
  });

  it('stands for the request the list sends, which the contract accepts', () => {
    expect(heldInput('any')).toEqual({});
    expect(heldInput('none')).toEqual({ limitedBy: 'none' });
    expect(heldInput('NamesOnly')).toEqual({ limitedBy: 'NamesOnly' });
    expect(heldInput('PossibleTwin:initial-alone')).toEqual({ limitedBy: 'PossibleTwin', twinReason: 'initial-alone' });
    expect(heldInput('PossibleTwin:no-such-case')).toEqual({});
    for (const value of HELD_VALUES) expect(ReviewListInputSchema.safeParse(heldInput(value)).success).toBe(true);
  });

  it('lists one hold’s cases from its counted row: the choice stands for that row’s rule and twin case', () => {
    expect(heldInput(heldValue(null, null))).toEqual({ limitedBy: 'none' });
    for (const limit of ScoreLimitSchema.options) {
      expect(HELD_VALUES).toContain(heldValue(limit, null));
      expect(heldInput(heldValue(limit, null))).toEqual({ limitedBy: limit });
    }
    for (const reason of TwinReasonSchema.options)
      expect(heldInput(heldValue('PossibleTwin', reason))).toEqual({ limitedBy: 'PossibleTwin', twinReason: reason });
  });

  it('reads a view kept before the filter existed as every case, and refuses a value it does not know', () => {
    expect(HeldSchema.parse(undefined)).toBe('any');
    expect(HeldSchema.safeParse('Sometimes').success).toBe(false);
    expect(heldText('any')).toBeNull();
    expect(heldText('MiddleNameConflict')).toBe('held: middle names disagree');
  });
});
