import { describe, expect, it } from 'vitest';
import { holdBars, holdKeyName, metricValue, seriesOf } from '../../renderer/pages/health/health-series.ts';
import {
  latestIngestOpenedAfter,
  REVIEW_HOLD_KEYS,
  reviewHoldKey,
  type HealthSample,
} from '../../engine/contract/health.ts';
import { ScoreLimitSchema } from '../../engine/contract/matching.ts';

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

describe('what held the review cases', () => {
  it('gives a bar per ingest or job that opened cases and kept what held them, with only the holds met', () => {
    const bars = holdBars([
      { ...base, reviewHolds: { PossibleTwin: 3, none: 1 } },
      // Recorded before holds were kept, a daily sample, an ingest that opened none: no bar.
      { ...base, reviewHolds: undefined },
      { ...base, origin: 'daily', reviewCases: 0, reviewHolds: null },
      { ...base, reviewCases: 0, reviewHolds: {} },
      {
        ...base,
        origin: 'job',
        sourceSystem: null,
        jobKind: 'reconciliation',
        jobStatus: 'completed',
        reviewCases: 5,
        reviewHolds: { 'link-quality': 1, NamesOnly: 4 },
      },
    ]);
    // In the order the chart stacks them, not the order a sample lists them.
    expect(bars.holds).toEqual(['none', 'NamesOnly', 'PossibleTwin', 'link-quality']);
    expect(bars.bars).toEqual([
      {
        n: 1,
        tick: '1',
        what: 'Ingest from a',
        at: base.at,
        cases: 4,
        none: 1,
        NamesOnly: 0,
        PossibleTwin: 3,
        'link-quality': 0,
      },
      {
        n: 2,
        tick: 'job',
        what: 'reconciliation completed',
        at: base.at,
        cases: 5,
        none: 0,
        NamesOnly: 4,
        PossibleTwin: 0,
        'link-quality': 1,
      },
    ]);
    // The last ones when there are more than the chart shows, numbered from the first shown.
    const many = holdBars(
      Array.from({ length: 5 }, (_, i) => ({ ...base, reviewCases: i + 1, reviewHolds: { none: i + 1 } })),
      2,
    );
    // Each ingest keeps its number among all the ingests, as the charts over ingests count them.
    expect(many.bars.map((b) => [b.n, b.tick, b.cases])).toEqual([
      [1, '4', 4],
      [2, '5', 5],
    ]);
  });

  it('names every hold a case can have, and counts a case under one', () => {
    for (const limit of ScoreLimitSchema.options) expect(REVIEW_HOLD_KEYS).toContain(limit);
    expect(REVIEW_HOLD_KEYS.map(holdKeyName)).toEqual([
      'No rule',
      'Names only',
      'Possible twin',
      'No name evidence',
      'Birth dates disagree',
      'Middle names disagree',
      'Shared number',
      'Record without a name part or birth date',
      'Fits two people',
      'Link quality',
    ]);
    expect(reviewHoldKey('IngestionMatch', null)).toBe('none');
    expect(reviewHoldKey('PopulationReconciliation', 'NamesOnly')).toBe('NamesOnly');
    expect(reviewHoldKey('LinkQuality', null)).toBe('link-quality');
  });
});

describe("a flagged source's latest ingest", () => {
  it('is the cases opened after the ingest of that source before it, as one instant however written', () => {
    const samples: HealthSample[] = [
      { ...base, at: '2026-11-01T09:00:00Z' },
      { ...base, sourceSystem: 'b', at: '2026-11-02T09:00:00Z' },
      { ...base, origin: 'job', sourceSystem: null, at: '2026-11-03T09:00:00Z' },
      { ...base, at: '2026-11-04T10:30:00+01:00' },
      { ...base, sourceSystem: 'b', at: '2026-11-05T09:00:00Z' },
      { ...base, at: '2026-11-06T09:00:00Z' },
    ];
    expect(latestIngestOpenedAfter(samples, 'a')).toBe('2026-11-04T09:30:00.000Z');
    expect(latestIngestOpenedAfter(samples, 'b')).toBe('2026-11-02T09:00:00.000Z');
    // One ingest of the source among the samples: its cases are all the source's, as far as they can tell.
    expect(latestIngestOpenedAfter(samples.slice(0, 2), 'a')).toBeNull();
    expect(latestIngestOpenedAfter(samples, 'c')).toBeNull();
  });
});
