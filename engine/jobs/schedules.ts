/**
 * Scheduled reconciliations. Time is cut into buckets of IntervalMinutes (bucket = floor(now / interval));
 * a schedule's job for a bucket has an ID derived from the tenant, the schedule key and the bucket, and the
 * job table is unique on (tenant, schedule key, bucket), so workers racing to enqueue the same bucket create
 * one job. A schedule starts with the bucket current when the worker starts if RunOnStartup is set, else
 * with the next one.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { ReconciliationSchedule } from '../config/maintenance.ts';
import { tenantExists } from '../store/tenants.ts';
import { enqueueJob } from './lifecycle.ts';

export function scheduleBucket(schedule: Pick<ReconciliationSchedule, 'IntervalMinutes'>, nowMs: number): number {
  return Math.floor(nowMs / (schedule.IntervalMinutes * 60_000));
}

export function scheduledJobId(tenantId: string, scheduleKey: string, bucket: number): string {
  const digest = createHash('sha256')
    .update([tenantId, scheduleKey, String(bucket)].join('\u001f'))
    .digest('hex');
  return `sched-${digest.slice(0, 32)}`;
}

/** Queues the schedule's job for the bucket unless it exists; undefined when the tenant is not registered. */
export function enqueueScheduled(
  store: Store,
  schedule: ReconciliationSchedule,
  bucket: number,
): { jobId: string; created: boolean } | undefined {
  if (!tenantExists(store, schedule.TenantId)) return undefined;
  return enqueueJob(store, schedule.TenantId, {
    kind: 'reconciliation',
    reason: `scheduled reconciliation "${schedule.Key}" (every ${String(schedule.IntervalMinutes)} minutes)`,
    batchSize: schedule.BatchSize,
    requestedBy: `schedule:${schedule.Key}`,
    schedule: { key: schedule.Key, bucket },
    ...(schedule.SourceSystem === undefined ? {} : { externalSourceSystem: schedule.SourceSystem }),
    jobId: scheduledJobId(schedule.TenantId, schedule.Key, bucket),
  });
}

/** Tracks which buckets this worker has already enqueued, so it touches the database once per bucket. */
export class ScheduleClock {
  private readonly startBuckets = new Map<string, number>();
  private readonly enqueued = new Map<string, number>();

  constructor(
    private readonly schedules: readonly ReconciliationSchedule[],
    startMs: number,
  ) {
    for (const schedule of schedules) this.startBuckets.set(this.key(schedule), scheduleBucket(schedule, startMs));
  }

  private key(schedule: ReconciliationSchedule): string {
    return `${schedule.TenantId}\u001f${schedule.Key}`;
  }

  /** The schedules due at nowMs with their bucket (each bucket once). */
  due(nowMs: number): { schedule: ReconciliationSchedule; bucket: number }[] {
    const out: { schedule: ReconciliationSchedule; bucket: number }[] = [];
    for (const schedule of this.schedules) {
      const key = this.key(schedule);
      const bucket = scheduleBucket(schedule, nowMs);
      const start = this.startBuckets.get(key) ?? bucket;
      if (bucket < start || (bucket === start && !schedule.RunOnStartup)) continue;
      if (this.enqueued.get(key) === bucket) continue;
      this.enqueued.set(key, bucket);
      out.push({ schedule, bucket });
    }
    return out;
  }
}
