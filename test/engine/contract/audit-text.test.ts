/** What the audit says of a sample drawn from a sample of the identities, the same words on the page and in the CLI. */
import { describe, expect, it } from 'vitest';
import { auditSampleText } from '../../../engine/contract/audit.ts';

describe('the audit sample drawn from a sample of the identities', () => {
  it('says beneath a sample drawn from a sample of the identities that its counts are estimates, and of what', () => {
    expect(auditSampleText(50_000, 478_965)).toBe(
      "Estimated from a seeded sample of 50,000 of the 478,965 identities: each stratum's pairs met in it, scaled up to " +
        'the whole registry. The pairs to label are drawn among the pairs met, at random within each stratum, so the ' +
        'estimate describes the whole registry.',
    );
  });
});
