/**
 * Maintenance jobs on the command line: `reindex`, `reconcile` (both queue a job and return at once),
 * `job show ID`, `job cancel ID`, `jobs [--before JOB_ID]` (history, newest first, paged) and `worker [--once]`, which
 * runs the background worker in this process until SIGINT/SIGTERM (or, with --once, until the queue is empty).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { reviewRateText } from '../../../engine/contract/ingest.ts';
import { countOfText, countText } from '../../../engine/contract/count-text.ts';
import { runWorker, type WorkerEvent } from '../../../engine/index.ts';

const DEFAULT_BATCH_SIZE = 25;

function jobIdArgument(cli: CliContext, command: string): string {
  const [jobId, ...extra] = cli.positionals;
  if (jobId === undefined || extra.length > 0)
    throw usage(`${command} takes one job ID: mpi-console ${command} JOB_ID`);
  return jobId;
}

function percent(done: number, total: number | null): string {
  if (total === null || total === 0) return '—';
  return `${Math.min(100, Math.floor((100 * done) / total)).toString()}%`;
}

function perThousandText(job: JobState): string {
  const perThousand = job.reviewRate?.perThousand ?? null;
  return perThousand === null ? '—' : perThousand.toFixed(1);
}

function statusText(job: JobState): string {
  return job.status === 'running' && job.cancelRequested ? 'running (cancel requested)' : job.status;
}

function currentPhase(job: JobState): string {
  return (
    job.phases.find((p) => p.status === 'running')?.name ??
    job.phases.findLast((p) => p.status !== 'pending' && p.status !== 'skipped')?.name ??
    '—'
  );
}

function printQueued(cli: CliContext, label: string, result: { jobId: string; status: string }): void {
  if (cli.json) {
    cli.write(json(result));
    return;
  }
  cli.write(
    `${label} job ${result.jobId} is queued; a worker runs it (\`mpi-console worker\`).\nFollow it with \`mpi-console job show ${result.jobId}\`.\n`,
  );
}

export async function reindex(cli: CliContext): Promise<number> {
  const result = await cli.client.call(
    'maintenance/reindex',
    { reason: cli.required('reason'), batchSize: cli.integer('batch-size', DEFAULT_BATCH_SIZE) },
    cli.call,
  );
  printQueued(cli, 'Re-index', result);
  return 0;
}

export async function reconcile(cli: CliContext): Promise<number> {
  const source = cli.string('source');
  const changedSince = cli.string('changed-since');
  const result = await cli.client.call(
    'maintenance/reconcile',
    {
      reason: cli.required('reason'),
      batchSize: cli.integer('batch-size', DEFAULT_BATCH_SIZE),
      ...(source === undefined ? {} : { externalSourceSystem: source }),
      ...(changedSince === undefined ? {} : { changedSince }),
    },
    cli.call,
  );
  printQueued(cli, 'Reconciliation', result);
  return 0;
}

export function formatJob(job: JobState): string {
  const c = job.counters;
  const head = keyValues([
    ['job', job.jobId],
    ['kind', job.kind],
    ['status', statusText(job)],
    ['reason', job.reason],
    ['requested by', job.requestedBy],
    ['batch size', String(job.batchSize)],
    ['schedule', job.scheduleKey ?? '—'],
    ['profile version', job.matchingProfileVersion === null ? '— (not started)' : String(job.matchingProfileVersion)],
    [
      'population',
      job.populationTotal === null
        ? '— (unknown: no percentage)'
        : `${String(job.populationTotal)} active identities at start`,
    ],
    ['created', job.createdAt],
    ['started', job.startedAt ?? '—'],
    ['finished', job.finishedAt ?? '—'],
    [
      'lease',
      job.leaseOwner === null || job.status !== 'running'
        ? '—'
        : `${job.leaseOwner} until ${job.leaseExpiresAt ?? '?'}`,
    ],
    ['error', job.error ?? '—'],
    ['review rate', reviewRateText(job.reviewRate)],
  ]);
  const phases = table(
    ['phase', 'status', 'processed', 'progress', 'note'],
    job.phases.map((p) => [
      p.name,
      p.status,
      String(p.processed),
      p.status === 'skipped' ? '—' : percent(p.processed, job.populationTotal),
      p.note ?? '',
    ]),
  );
  const counters = table(
    ['validated', 'scanned', 'imported', 'updated', 'unchanged', 'review-created', 'warning', 'failure'],
    [[c.validated, c.scanned, c.imported, c.updated, c.unchanged, c.reviewCreated, c.warning, c.failure].map(String)],
  );
  const notes = job.phases.flatMap((p) => {
    const all = p.notes ?? (p.note === null ? [] : [p.note]);
    if (p.status === 'skipped' || all.length <= 1) return [];
    const more = (p.notesNotKept ?? 0) > 0 ? [`  … and ${String(p.notesNotKept)} more not kept`] : [];
    return [`${p.name} notes:`, ...all.map((note) => `  ${note}`), ...more];
  });
  return `${head}\n${phases}\n${counters}${notes.length === 0 ? '' : `\n${notes.join('\n')}\n`}`;
}

/** `job show ID` and `job cancel ID`. */
export async function jobShow(cli: CliContext): Promise<number> {
  const job = await cli.client.call('jobs/get', { jobId: jobIdArgument(cli, 'job show') }, cli.call);
  cli.write(cli.json ? json(job) : formatJob(job));
  return 0;
}

export async function jobCancel(cli: CliContext): Promise<number> {
  const result = await cli.client.call('jobs/cancel', { jobId: jobIdArgument(cli, 'job cancel') }, cli.call);
  if (cli.json) cli.write(json(result));
  else if (result.status === 'cancelled') cli.write(`Job ${result.jobId} is cancelled.\n`);
  else cli.write(`Job ${result.jobId} is running; it stops at its next batch boundary.\n`);
  return 0;
}

export async function jobsList(cli: CliContext): Promise<number> {
  const before = cli.string('before');
  const { rows, nextCursor } = await cli.client.call(
    'jobs/list',
    { limit: cli.integer('limit', 50), ...(before === undefined ? {} : { before }) },
    cli.call,
  );
  if (cli.json) {
    cli.write(json({ rows, nextCursor }));
    return 0;
  }
  if (rows.length === 0) {
    cli.write('No maintenance jobs yet.\n');
    return 0;
  }
  cli.write(
    table(
      [
        'job',
        'kind',
        'status',
        'phase',
        'scanned',
        'updated',
        'review-created',
        'per-1000',
        'warning',
        'failure',
        'created',
      ],
      rows.map((j) => [
        j.jobId,
        j.kind,
        statusText(j),
        currentPhase(j),
        String(j.counters.scanned),
        String(j.counters.updated),
        String(j.counters.reviewCreated),
        perThousandText(j),
        String(j.counters.warning),
        String(j.counters.failure),
        j.createdAt,
      ]),
    ),
  );
  if (nextCursor !== null) cli.write(`Older jobs: mpi-console jobs --before ${nextCursor}\n`);
  return 0;
}

function describe(event: WorkerEvent): string {
  switch (event.type) {
    case 'started':
      return `worker ${event.owner} started for ${event.tenants === 'all' ? 'every tenant' : `tenant ${event.tenants.join(', ')}`}`;
    case 'scheduled':
      return `schedule ${event.scheduleKey} (tenant ${event.tenantId}): job ${event.jobId} ${event.created ? 'queued' : 'already exists'}`;
    case 'claimed':
      return `${event.resumed ? 'resuming' : 'running'} ${event.kind} job ${event.jobId} (tenant ${event.tenantId})`;
    case 'finished':
      return `job ${event.jobId} (tenant ${event.tenantId}): ${event.outcome}`;
    case 'stopped':
      return `worker stopped after ${String(event.jobsRun)} job(s)`;
    case 'busy':
      return `the database is busy (another process holds the write lock) while ${event.during}; waiting to try again`;
  }
}

/**
 * What a finished job did, after its outcome: ": 6,152 scanned; review cases 1.3 per 1,000 matched (4 cases, 3,076
 * matched); 0 failures; its phases: mpi-console job show ID". Nothing when the job cannot be read.
 */
async function finishedFigures(cli: CliContext, event: Extract<WorkerEvent, { type: 'finished' }>): Promise<string> {
  try {
    const job = await cli.engine.call('jobs/get', { jobId: event.jobId }, { tenantId: event.tenantId, actor: 'cli' });
    const c = job.counters;
    const imported = c.imported > 0 ? `${countText(c.imported)} imported, ` : '';
    return `: ${imported}${countText(c.scanned)} scanned; review cases ${reviewRateText(job.reviewRate)}; ${countOfText(c.failure, 'failure')}; its phases: mpi-console job show ${event.jobId}`;
  } catch {
    return '';
  }
}

/**
 * The tenant is --tenant or $MPI_TENANT when given; with neither, the worker serves every registered tenant.
 * Output: one line per event (JSON lines with --json).
 */
export async function worker(cli: CliContext): Promise<number> {
  if (cli.positionals.length > 0) throw usage('worker takes no arguments: mpi-console worker [--once]');
  const fromEnv = process.env.MPI_TENANT;
  const tenant = cli.string('tenant') ?? (fromEnv === '' ? undefined : fromEnv);
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Lines go out in the order of the events; a finished job's line waits for its figures.
  let lines = Promise.resolve();
  try {
    await runWorker(cli.engine.env, {
      tenants: tenant === undefined ? 'all' : [tenant],
      once: cli.values.once === true,
      signal: controller.signal,
      onEvent: (event) => {
        const at = new Date().toISOString();
        if (cli.json) {
          cli.write(JSON.stringify({ at, ...event }) + '\n');
          return;
        }
        lines = lines.then(async () => {
          cli.write(`${at}  ${describe(event)}${event.type === 'finished' ? await finishedFigures(cli, event) : ''}\n`);
        });
      },
    });
  } finally {
    await lines;
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
  return 0;
}
