import { describe, expect, it } from 'vitest';
import { reviewRate, reviewRateText } from '../../../engine/contract/ingest.ts';

describe('reviewRateText', () => {
  it('says the rate per 1,000 matched with the counts behind it, grouped as the pages group counts', () => {
    expect(reviewRateText(reviewRate(12, 5000))).toBe('2.4 per 1,000 matched (12 cases, 5,000 matched)');
    expect(reviewRateText(reviewRate(1, 1025))).toBe('1.0 per 1,000 matched (1 case, 1,025 matched)');
    expect(reviewRateText(reviewRate(3, 0))).toBe('— (nothing matched; 3 cases)');
    expect(reviewRateText(undefined)).toBe('— (not reported)');
  });
});
