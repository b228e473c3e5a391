/**
 * The daily health sample: a registry that ingests nothing and runs no job for days still gets a point a day (its
 * records, its identities by size, the profile version in force), so the Health page shows it alive and a shift
 * in identity sizes is seen. Taken by the worker when the tenant's last daily sample is a day old or absent.
 */
import { emitHealthMetrics } from '../telemetry/health-metrics.ts';
import type { HealthSample } from '../contract/health.ts';
import type { Store } from '../store/store.ts';
import { identitySizes, lastDailySample, recordHealthSample } from '../store/health.ts';
import { countRecords } from '../store/records.ts';
import { activeProfile } from '../store/profiles.ts';

export const DAILY_MS = 24 * 60 * 60 * 1000;

export function dailySampleDue(store: Store, tenantId: string, now: Date): boolean {
  const last = lastDailySample(store, tenantId);
  return last === undefined || now.getTime() - Date.parse(last) >= DAILY_MS;
}

/** Records the daily sample, in the caller's write transaction. */
export function recordDailySample(store: Store, tenantId: string, now: Date): void {
  const started = performance.now();
  const records = countRecords(store, tenantId);
  const sizes = identitySizes(store, tenantId);
  const sample: HealthSample = {
    at: now.toISOString(),
    origin: 'daily',
    sourceSystem: null,
    jobId: null,
    jobKind: null,
    jobStatus: null,
    profileVersion: activeProfile(store, tenantId).version,
    records,
    created: 0,
    autoLinked: 0,
    reviewCases: 0,
    rejected: 0,
    fieldPresent: {},
    durationMs: performance.now() - started,
    matching: null,
    identitySizes: sizes,
    reviewHolds: null,
  };
  recordHealthSample(store, tenantId, sample);
  emitHealthMetrics(sample);
}
