/** The review list's "Held by" filter: its choices, the request each stands for, and a kept view read again. */
import { describe, expect, it } from 'vitest';
import { ScoreLimitSchema, TwinReasonSchema } from '../../engine/contract/matching.ts';
import { ReviewListInputSchema } from '../../engine/contract/reviews.ts';
import { HELD_VALUES, HeldSchema, heldInput, heldOptions, heldText } from '../../renderer/pages/reviews/held-filter.ts';

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

  it('stands for the request the list sends, which the contract accepts', () => {
    expect(heldInput('any')).toEqual({});
    expect(heldInput('none')).toEqual({ limitedBy: 'none' });
    expect(heldInput('NamesOnly')).toEqual({ limitedBy: 'NamesOnly' });
    expect(heldInput('PossibleTwin:initial-alone')).toEqual({ limitedBy: 'PossibleTwin', twinReason: 'initial-alone' });
    expect(heldInput('PossibleTwin:no-such-case')).toEqual({});
    for (const value of HELD_VALUES) expect(ReviewListInputSchema.safeParse(heldInput(value)).success).toBe(true);
  });

  it('reads a view kept before the filter existed as every case, and refuses a value it does not know', () => {
    expect(HeldSchema.parse(undefined)).toBe('any');
    expect(HeldSchema.safeParse('Sometimes').success).toBe(false);
    expect(heldText('any')).toBeNull();
    expect(heldText('MiddleNameConflict')).toBe('held: middle names disagree');
  });
});
