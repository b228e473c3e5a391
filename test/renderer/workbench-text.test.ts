import { describe, expect, it } from 'vitest';
import { drawPopulationText, nothingToShowText } from '../../renderer/pages/assurance/workbench-text.ts';

const population = { records: 4_380, candidatePairs: 4_836, truncated: false, scoredPairs: 4_836, inRange: 312 };

describe("the workbench's population sentence", () => {
  it('names every record read when the draw read them all', () => {
    expect(drawPopulationText(population, 50)).toBe(
      '312 of 4,836 scored candidate pairs lie in the band (4,836 candidates among 4,380 records); 50 drawn from it so far.',
    );
  });

  it('says the draw read a seeded sample of a larger registry, and a capped count is a lower bound', () => {
    expect(
      drawPopulationText(
        {
          records: 1_000_000,
          sampledRecords: 100_000,
          candidatePairs: 1_000_000,
          truncated: true,
          scoredPairs: 20_000,
          inRange: 20_000,
        },
        0,
      ),
    ).toBe(
      '20,000 of 20,000 scored candidate pairs lie in the band (1,000,000+ candidates among a seeded sample of 100,000 of the 1,000,000 records); 0 drawn from it so far.',
    );
  });
});

describe('the workbench with no pair left to show', () => {
  it('counts the pairs skipped in words that agree with the count', () => {
    expect(nothingToShowText(0, 0, 50)).toBe('Load pairs to go on.');
    expect(nothingToShowText(0, 1, 50)).toBe('Load pairs to go on; the pair already given a verdict is skipped.');
    expect(nothingToShowText(0, 1_204, 50)).toBe(
      'Load pairs to go on; the 1,204 pairs already given a verdict are skipped.',
    );
    expect(nothingToShowText(50, 50, 50)).toBe(
      'Every pair drawn so far is labelled. Export them, use them, or load 50 more.',
    );
  });
});
