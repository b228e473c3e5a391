/**
 * The health figures as OpenTelemetry metrics (through the API: a no-op until the host registers a meter provider,
 * as engine/jobs/metrics.ts). Each health sample adds to counters and sets gauges; attributes carry the source
 * system, field, blocking rule, score band or job kind, never a tenant or a patient value.
 *
 *   service.health.records          {record}   records written, by origin, source and outcome (created, auto-linked, rejected)
 *   service.health.review_cases     {case}     review cases opened, by origin, source and what held them (hold)
 *   service.health.field_present    {record}   records created carrying a field, by source and field
 *   service.health.compared_pairs   {pair}     pairs compared in ingestion, by source and score band
 *   service.health.candidates       {identity} candidate identities a blocking rule found, by rule
 *   service.health.blocks_over_cap  {block}    blocks skipped as too common, by rule
 *   service.health.capped_records   {record}   records whose candidates were more than the cap, by source
 *   service.health.identities       {identity} gauge: identities by size (records per identity), at each job and daily sample
 *   service.health.duration         ms         histogram: ingest and job durations, by origin, job kind and status
 */
import type { Counter, Gauge, Histogram } from '@opentelemetry/api';
import { IDENTITY_SIZE_BINS, type HealthSample } from '../contract/health.ts';
import { scoreBandName } from '../contract/score-bands.ts';
import { instrumentsOf } from './instruments.ts';

interface Instruments {
  readonly records: Counter;
  readonly reviewCases: Counter;
  readonly fieldPresent: Counter;
  readonly comparedPairs: Counter;
  readonly candidates: Counter;
  readonly overCap: Counter;
  readonly capped: Counter;
  readonly identities: Gauge;
  readonly duration: Histogram;
}

const current = instrumentsOf((meter): Instruments => ({
  records: meter.createCounter('service.health.records', {
    description: 'Records written, by outcome',
    unit: '{record}',
  }),
  reviewCases: meter.createCounter('service.health.review_cases', {
    description: 'Review cases opened',
    unit: '{case}',
  }),
  fieldPresent: meter.createCounter('service.health.field_present', {
    description: 'Records created carrying a matching field',
    unit: '{record}',
  }),
  comparedPairs: meter.createCounter('service.health.compared_pairs', {
    description: 'Pairs compared in ingestion, by score band',
    unit: '{pair}',
  }),
  candidates: meter.createCounter('service.health.candidates', {
    description: 'Candidate identities a blocking rule found',
    unit: '{identity}',
  }),
  overCap: meter.createCounter('service.health.blocks_over_cap', {
    description: 'Blocks skipped as too common to use',
    unit: '{block}',
  }),
  capped: meter.createCounter('service.health.capped_records', {
    description: 'Records whose candidates were more than the cap',
    unit: '{record}',
  }),
  identities: meter.createGauge('service.health.identities', {
    description: 'Identities by their number of records',
    unit: '{identity}',
  }),
  duration: meter.createHistogram('service.health.duration', { description: 'Ingest and job durations', unit: 'ms' }),
}));

export function emitHealthMetrics(sample: HealthSample): void {
  const m = current();
  const source = sample.sourceSystem ?? 'none';
  if (sample.origin !== 'daily') {
    const by = { origin: sample.origin, source };
    m.records.add(sample.created - sample.autoLinked, { ...by, outcome: 'created' });
    m.records.add(sample.autoLinked, { ...by, outcome: 'auto-linked' });
    m.records.add(sample.rejected, { ...by, outcome: 'rejected' });
    const holds = Object.entries(sample.reviewHolds ?? {});
    // By what held them where the sample says (their sum is the sample's count); the count alone on older samples.
    if (holds.length === 0) m.reviewCases.add(sample.reviewCases, by);
    for (const [hold, cases] of holds) m.reviewCases.add(cases, { ...by, hold });
    m.duration.record(sample.durationMs, {
      origin: sample.origin,
      job_kind: sample.jobKind ?? 'none',
      status: sample.jobStatus ?? 'completed',
    });
  }
  for (const [field, count] of Object.entries(sample.fieldPresent)) m.fieldPresent.add(count, { source, field });
  if (sample.matching !== null) {
    sample.matching.scoreBands.forEach((count, band) => {
      m.comparedPairs.add(count, { source, score_band: scoreBandName(band) });
    });
    m.capped.add(sample.matching.capped, { source });
    for (const [rule, figures] of Object.entries(sample.matching.rules)) {
      m.candidates.add(figures.candidates, { rule });
      m.overCap.add(figures.overCap, { rule });
    }
  }
  sample.identitySizes?.forEach((count, i) => {
    m.identities.record(count, { size: IDENTITY_SIZE_BINS[i] ?? String(i) });
  });
}
