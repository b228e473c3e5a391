/**
 * The background worker: takes the daily health sample (daily-health.ts), enqueues due scheduled reconciliations,
 * claims the oldest claimable job of the tenants it serves (queued, or running with an expired lease: a crashed
 * worker's job resumes from its stored cursors), runs it, and polls every PollIntervalSeconds when idle. `once` drains
 * the queue and returns. Aborting the signal stops it after the batch in progress, releasing the lease for another
 * worker. A database that stays locked past the busy timeout is reported (event `busy`) and waited out: a long-running
 * worker never exits because another process held the write lock for a while.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EngineEnv } from '../env.ts';
import type { JobKind } from '../contract/maintenance.ts';
import { isBusy, validationError } from '../contract/errors.ts';
import { maintenanceSettings, type MaintenanceSettings } from '../config/maintenance.ts';
import { claimNextJob, listTenantIds } from './job-store.ts';
import { runJob, type RunHooks, type RunResult } from './runner.ts';
import { withTenant } from '../store/tenant-scope.ts';
import { enqueueScheduled, ScheduleClock } from './schedules.ts';
import { dailySampleDue, recordDailySample } from './daily-health.ts';
import type { RetryPolicy } from '../fhir-source/retry.ts';

export type WorkerEvent =
  | { readonly type: 'started'; readonly owner: string; readonly tenants: readonly string[] | 'all' }
  | {
      readonly type: 'scheduled';
      readonly tenantId: string;
      readonly jobId: string;
      readonly scheduleKey: string;
      readonly created: boolean;
    }
  | {
      readonly type: 'claimed';
      readonly tenantId: string;
      readonly jobId: string;
      readonly kind: JobKind;
      readonly resumed: boolean;
    }
  | {
      readonly type: 'finished';
      readonly tenantId: string;
      readonly jobId: string;
      readonly outcome: RunResult['outcome'];
    }
  | { readonly type: 'busy'; readonly during: string }
  | { readonly type: 'stopped'; readonly jobsRun: number };

export interface WorkerOptions {
  /** The tenants served; 'all' serves every registered tenant (re-read at each poll). */
  readonly tenants: readonly string[] | 'all';
  readonly once?: boolean;
  readonly signal?: AbortSignal;
  /** Defaults to the configuration file's Maintenance section. */
  readonly maintenance?: MaintenanceSettings;
  readonly owner?: string;
  readonly onEvent?: (event: WorkerEvent) => void;
  readonly hooks?: RunHooks;
  /** The backoff of an external source's transient failures (tests shorten it). */
  readonly importRetry?: RetryPolicy;
  /**
   * How the worker waits between polls when idle (default: PollIntervalSeconds, cut short by the signal).
   * The console's embedded worker wakes early when the console queues a job.
   */
  readonly idle?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

const BUSY_PAUSE_MS = 200;

export function workerOwnerName(): string {
  return `${hostname()}:${String(process.pid)}:${randomUUID().slice(0, 8)}`;
}

export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function runWorker(env: EngineEnv, options: WorkerOptions): Promise<{ jobsRun: number }> {
  const settings = options.maintenance ?? maintenanceSettings(env.settings());
  if (!settings.WorkerEnabled) {
    throw validationError(
      `Maintenance.WorkerEnabled is false in ${env.settingsPath}; set it to true to run the background worker`,
    );
  }
  const owner = options.owner ?? workerOwnerName();
  const emit = options.onEvent ?? ((): void => undefined);
  const served = (tenantId: string): boolean => options.tenants === 'all' || options.tenants.includes(tenantId);
  const clock = new ScheduleClock(
    settings.ReconciliationSchedules.filter((s) => served(s.TenantId)),
    Date.now(),
  );
  const { store } = env;
  emit({ type: 'started', owner, tenants: options.tenants });
  let jobsRun = 0;
  let busyWaits = 0;
  while (options.signal?.aborted !== true) {
    let claimed: { tenantId: string; jobId: string } | undefined;
    try {
      for (const { schedule, bucket } of clock.due(Date.now())) {
        const queued = withTenant(schedule.TenantId, () => enqueueScheduled(store, schedule, bucket));
        if (queued !== undefined)
          emit({
            type: 'scheduled',
            tenantId: schedule.TenantId,
            jobId: queued.jobId,
            scheduleKey: schedule.Key,
            created: queued.created,
          });
      }
      const tenants = options.tenants === 'all' ? listTenantIds(store) : options.tenants;
      for (const tenantId of tenants) {
        const now = new Date();
        const job = withTenant(tenantId, () => {
          if (store.read(() => dailySampleDue(store, tenantId, now))) {
            store.write(() => {
              if (dailySampleDue(store, tenantId, now)) recordDailySample(store, tenantId, now);
            });
          }
          return store.write(() =>
            claimNextJob(
              store,
              tenantId,
              owner,
              now.toISOString(),
              new Date(now.getTime() + settings.LeaseSeconds * 1000).toISOString(),
            ),
          );
        });
        if (job !== undefined) {
          emit({ type: 'claimed', tenantId, jobId: job.jobId, kind: job.kind, resumed: job.claims > 1 });
          claimed = { tenantId, jobId: job.jobId };
          break;
        }
      }
      busyWaits = 0;
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (busyWaits++ === 0) emit({ type: 'busy', during: 'looking for work' });
      await pause(Math.min(settings.PollIntervalSeconds * 1000, BUSY_PAUSE_MS * busyWaits), options.signal);
      continue;
    }
    if (claimed !== undefined) {
      const result = await runJob(env, claimed.tenantId, claimed.jobId, {
        owner,
        leaseSeconds: settings.LeaseSeconds,
        onBusy: (during) => {
          emit({ type: 'busy', during });
        },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
        ...(options.importRetry === undefined ? {} : { importRetry: options.importRetry }),
      });
      jobsRun++;
      emit({ type: 'finished', tenantId: claimed.tenantId, jobId: claimed.jobId, outcome: result.outcome });
      continue;
    }
    if (options.once === true) break;
    await (options.idle ?? pause)(settings.PollIntervalSeconds * 1000, options.signal);
  }
  emit({ type: 'stopped', jobsRun });
  return { jobsRun };
}
