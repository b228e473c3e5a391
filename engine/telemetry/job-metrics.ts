/**
 * Progress metrics through the OpenTelemetry metrics API (a no-op until the host registers a meter
 * provider): `service.maintenance.jobs` counts jobs entering a status, by kind and status;
 * `service.maintenance.items` counts work items by kind, phase and outcome (the job counters, plus
 * `conflict-retry` for a batch retried after a concurrent update). Attributes carry no tenant or patient data.
 */
import type { Counter } from '@opentelemetry/api';
import type { JobCounters, JobKind, JobStatus, PhaseName } from '../contract/maintenance.ts';
import { COUNTER_NAMES } from '../contract/maintenance.ts';
import { instrumentsOf } from './instruments.ts';

const current = instrumentsOf((meter): { readonly jobs: Counter; readonly items: Counter } => ({
  jobs: meter.createCounter('service.maintenance.jobs', {
    description: 'Maintenance jobs entering a status',
    unit: '{job}',
  }),
  items: meter.createCounter('service.maintenance.items', {
    description: 'Maintenance work items by phase and outcome',
    unit: '{item}',
  }),
}));

const OUTCOME_OF: { readonly [C in keyof JobCounters]: string } = {
  validated: 'validated',
  scanned: 'scanned',
  imported: 'imported',
  updated: 'updated',
  unchanged: 'unchanged',
  reviewCreated: 'review-created',
  warning: 'warning',
  failure: 'failure',
};

export function recordJobStatus(kind: JobKind, status: JobStatus): void {
  current().jobs.add(1, { kind, status });
}

export function recordItems(kind: JobKind, phase: PhaseName, counters: Partial<JobCounters>): void {
  const { items } = current();
  for (const name of COUNTER_NAMES) {
    const value = counters[name] ?? 0;
    if (value > 0) items.add(value, { kind, phase, outcome: OUTCOME_OF[name] });
  }
}

export function recordConflictRetry(kind: JobKind, phase: PhaseName): void {
  current().items.add(1, { kind, phase, outcome: 'conflict-retry' });
}
