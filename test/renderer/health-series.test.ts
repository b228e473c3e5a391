import { describe, expect, it } from 'vitest';
import { metricValue, seriesOf } from '../../renderer/pages/health/health-series.ts';
import type { HealthSample } from '../../engine/contract/health.ts';

const base: HealthSample = {
  at: '2026-11-01T00:00:00Z',
  origin: 'ingest',
  sourceSystem: 'a',
  jobId: null,
  jobKind: null,
  jobStatus: null,
  profileVersion: 1,
  records: 200,
  created: 200,
  autoLinked: 50,
  reviewCases: 4,
  rejected: 0,
  fieldPresent: { birthDate: 150 },
  durationMs: 10,
  matching: null,
  identitySizes: null,
};

describe('health chart data', () => {
  it('turns samples into shares and marks profile version changes', () => {
    expect(metricValue(base, 'review-rate')).toBe(20);
    expect(metricValue(base, 'auto-link-rate')).toBe(25);
    expect(metricValue(base, 'completeness:birthDate')).toBe(75);
    expect(metricValue({ ...base, created: 0 }, 'review-rate')).toBeNull();
    const series = seriesOf(
      [
        base,
        { ...base, sourceSystem: 'b' },
        { ...base, origin: 'job', profileVersion: 2 },
        { ...base, profileVersion: 2, reviewCases: 8 },
      ],
      'review-rate',
    );
    expect(series.sources).toEqual(['a', 'b']);
    expect(series.points.map((p) => [p.index, p['a'] ?? null, p['b'] ?? null])).toEqual([
      [0, 20, null],
      [1, null, 20],
      [2, 40, null],
    ]);
    expect(series.versionChanges).toEqual([{ index: 2, version: 2 }]);
  });
});
