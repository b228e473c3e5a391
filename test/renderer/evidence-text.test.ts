import { describe, expect, it } from 'vitest';
import { evidenceText } from '../../renderer/pages/assurance/record-fields.ts';

describe("a field's evidence in the comparison viewer", () => {
  it('says which way a weight counts, so a band name such as Partial is not read as agreement', () => {
    expect(evidenceText({ logLikelihood: 5.1849 })).toBe('+5.18 for');
    expect(evidenceText({ logLikelihood: -2.5649 })).toBe('−2.56 against');
  });
  it('says nothing counts where the weight rounds to zero or the comparison is missing', () => {
    expect(evidenceText({ logLikelihood: 0 })).toBe('0');
    expect(evidenceText({ logLikelihood: -0.004 })).toBe('0');
    expect(evidenceText({})).toBe('—');
    expect(evidenceText(undefined)).toBe('—');
  });
  it('names household evidence that counts for nothing', () => {
    expect(evidenceText({ logLikelihood: 0, householdOnly: true })).toBe('0 (household)');
    expect(evidenceText({ logLikelihood: 0, impliedBy: 'addressLine' })).toBe('0 (with the address)');
  });
});
