/**
 * Scheduled reconciliations: the job ID is derived from the tenant, the schedule key and the time bucket,
 * so two workers starting at once (RunOnStartup) create one job; without RunOnStartup a schedule waits for
 * the next bucket.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { ScheduleClock, scheduleBucket, scheduledJobId } from '../../../engine/jobs/schedules.ts';
import { ReconciliationScheduleSchema } from '../../../engine/config/maintenance.ts';
import { Store } from '../../../engine/store/store.ts';
import { TENANT, exited, makeSandbox, readJob, setMaintenance, spawnWorker } from './helpers.ts';
import { scratchDir } from '../../helpers/temp.ts';

const schedule = (fields: Record<string, unknown>) =>
  ReconciliationScheduleSchema.parse({
    Key: 'nightly',
    TenantId: TENANT,
    IntervalMinutes: 60,
    BatchSize: 25,
    ...fields,
  });

describe('schedule buckets', () => {
  it('derives one job ID per tenant, schedule and bucket', () => {
    const hour = 60 * 60_000;
    expect(scheduleBucket({ IntervalMinutes: 60 }, 10 * hour)).toBe(10);
    expect(scheduleBucket({ IntervalMinutes: 60 }, 11 * hour - 1)).toBe(10);
    expect(scheduledJobId('t', 'nightly', 10)).toBe(scheduledJobId('t', 'nightly', 10));
    expect(scheduledJobId('t', 'nightly', 10)).not.toBe(scheduledJobId('t', 'nightly', 11));
    expect(scheduledJobId('t', 'nightly', 10)).not.toBe(scheduledJobId('u', 'nightly', 10));
    expect(scheduledJobId('t', 'nightly', 10)).toMatch(/^sched-[0-9a-f]{32}$/);
  });

  it('runs on startup only when asked, then once per bucket', () => {
    const hour = 60 * 60_000;
    const start = 10 * hour + 5 * 60_000;
    const eager = new ScheduleClock([schedule({ RunOnStartup: true })], start);
    expect(eager.due(start).map((d) => d.bucket)).toEqual([10]);
    expect(eager.due(start + 60_000)).toEqual([]);
    expect(eager.due(11 * hour).map((d) => d.bucket)).toEqual([11]);
    const patient = new ScheduleClock([schedule({ RunOnStartup: false })], start);
    expect(patient.due(start)).toEqual([]);
    expect(patient.due(11 * hour + 1).map((d) => d.bucket)).toEqual([11]);
  });
});

describe('two workers racing on one schedule bucket', () => {
  it('start exactly one job, which one of them completes', { timeout: 120_000 }, async () => {
    const { dir, cleanup } = scratchDir();
    onTestFinished(cleanup);
    const db = await makeSandbox(dir, 'registry', 200, 4);
    setMaintenance(db, {
      LeaseSeconds: 30,
      PollIntervalSeconds: 1,
      ReconciliationSchedules: [
        { Key: 'nightly', TenantId: TENANT, IntervalMinutes: 1440, BatchSize: 20, RunOnStartup: true },
      ],
    });
    const workers = [spawnWorker(db, ['--once']), spawnWorker(db, ['--once'])];
    const codes = await Promise.all(workers.map((w) => exited(w)));
    expect(codes, workers.map((w) => w.output()).join('\n')).toEqual([0, 0]);
    const store = Store.open(db, { readonly: true });
    let jobs: { job_id: string; schedule_key: string; batch_size: number; requested_by: string }[];
    try {
      jobs = store
        .statement('SELECT job_id, schedule_key, batch_size, requested_by FROM maintenance_job WHERE tenant_id = ?')
        .all(TENANT) as typeof jobs;
    } finally {
      store.close();
    }
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    expect(job?.schedule_key).toBe('nightly');
    expect(job?.batch_size).toBe(20);
    expect(job?.requested_by).toBe('schedule:nightly');
    expect(job?.job_id).toBe(scheduledJobId(TENANT, 'nightly', scheduleBucket({ IntervalMinutes: 1440 }, Date.now())));
    expect(readJob(db, job?.job_id ?? '').status).toBe('completed');
    const outputs = workers.map((w) => w.output());
    expect(outputs.filter((o) => o.includes('running reconciliation job'))).toHaveLength(1);
  });
});
