import { describe, expect, it } from 'vitest';
import { candidatePopulationText } from '../../renderer/pages/assurance/labels-text.ts';

describe("the label sample's population sentence", () => {
  it('gives the counts as they are when every record was read', () => {
    expect(
      candidatePopulationText({ pairs: 12_000, truePairs: 480, matchShare: 0.04, records: 4_380, truncated: false }),
    ).toBe('Among 12,000 blocking candidates, 480 are true pairs: estimated prior');
  });

  it('says the counts are estimated from a seeded sample of a larger registry', () => {
    expect(
      candidatePopulationText({
        pairs: 60_799_047,
        truePairs: 762_307,
        matchShare: 0.0125,
        records: 1_000_000,
        sampledRecords: 100_000,
        truncated: false,
      }),
    ).toBe(
      'Among about 60,800,000 blocking candidates (estimated from a seeded sample of 100,000 of the 1,000,000 records), about 762,000 are true pairs: estimated prior',
    );
  });

  it('marks counts cut at the enumeration bound as lower bounds', () => {
    expect(
      candidatePopulationText({
        pairs: 5_000_000,
        truePairs: 109_112,
        matchShare: 0.02,
        records: 90_000,
        truncated: true,
      }),
    ).toBe('Among 5,000,000+ blocking candidates, 109,112+ are true pairs: estimated prior');
  });
});
