/**
 * Runs one claimed job batch by batch. Per batch:
 *
 *   read   (one read snapshot, outside the write lock)  identities after the phase cursor → a plan
 *   write  (one BEGIN IMMEDIATE transaction)            lease still ours? cancel requested? fingerprint same?
 *                                                       then the plan's version-checked writes, the phase
 *                                                       cursor, the counters and the lease renewal
 *
 * so a crash never repeats or skips work. A version conflict (an ingestion changed an identity the batch
 * read) rolls the batch back and retries it on fresh data with a bounded exponential backoff; newer data is
 * never overwritten. A worker that finds its lease taken writes nothing more.
 *
 * The lease is renewed while a batch is in progress (every third of the lease, whenever the batch waits), so a
 * slow batch keeps its job. A batch that blocks its worker longer than the lease cannot renew it: another
 * worker takes the job over and the slow one's commit finds its lease gone. The job counts such takeovers;
 * after MAX_TAKEOVERS in a row without a committed batch it fails with the reason, instead of passing between
 * workers forever. A database that stays locked past the busy timeout (another process's long write) is
 * waited out with a backoff: the worker reports it and tries again rather than failing the job or exiting.
 */
import type { EngineEnv } from '../env.ts';
import type { JobCounters, PhaseName } from '../contract/maintenance.ts';
import { isBusy, isEngineError } from '../contract/errors.ts';
import { crashPoint } from '../fault-injection.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { countIdentities } from '../store/identities.ts';
import { activeProfile, profileVersion } from '../store/profiles.ts';
import { FingerprintProbe } from './fingerprint.ts';
import {
  addCounters,
  advance,
  emptyCounters,
  jobRow,
  markProgress,
  phasesOf,
  recordStart,
  releaseLease,
  renewLease,
  addPhaseNotes,
  setPhaseStatus,
  type JobRow,
  type PhaseRow,
} from './job-store.ts';
import { finishWithAudit } from './lifecycle.ts';
import { recordConflictRetry, recordItems, recordJobStatus } from '../telemetry/job-metrics.ts';
import { BatchItemFailed, type BatchPlan, type JobContext, type PhaseWork } from './phase-work.ts';
import { reconcileMatching, reconcileRebuilding } from './reconcile.ts';
import { reindexValidation, reindexWriting } from './reindex.ts';
import { importPhase } from './import-phase.ts';
import type { RetryPolicy } from '../fhir-source/retry.ts';
import { SourceAborted } from '../fhir-source/source-error.ts';
import type { FinalJobStatus } from './states.ts';
import { withTenant } from '../store/tenant-scope.ts';

export const MAX_BATCH_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 20;
/** Takeovers in a row without a committed batch after which a job fails: it cannot progress. */
export const MAX_TAKEOVERS = 3;
const BUSY_BACKOFF_MS = 100;
const BUSY_BACKOFF_MAX_MS = 2000;
/** How often a batch waiting on an outside read looks for a recorded cancel. */
const CANCEL_POLL_MS = 500;

export interface BatchInfo {
  readonly tenantId: string;
  readonly jobId: string;
  readonly phase: PhaseName;
  readonly cursor: number;
  readonly attempt: number;
}

export interface RunHooks {
  /** Called after a batch was read and before its write transaction (tests use it to interleave updates). */
  beforeWrite?(info: BatchInfo): void | Promise<void>;
  /** Called after each committed batch. */
  afterCommit?(info: BatchInfo): void | Promise<void>;
}

export interface RunOptions {
  /** This worker's lease owner name. */
  readonly owner: string;
  readonly leaseSeconds: number;
  /** When aborted, the runner stops after the batch in progress and releases its lease. */
  readonly signal?: AbortSignal;
  readonly hooks?: RunHooks;
  /** Told when the database stays busy past the busy timeout (once per wait), before the runner retries. */
  readonly onBusy?: (during: string) => void;
  /** The backoff of an external source's transient failures (tests shorten it). */
  readonly importRetry?: RetryPolicy;
}

export type RunResult =
  { readonly outcome: FinalJobStatus } | { readonly outcome: 'released' } | { readonly outcome: 'lease-lost' };

interface RunWatch {
  readonly signal: AbortSignal;
  /** True when the signal aborted for a recorded cancel (not for a stopping worker). */
  cancelled(): boolean;
  stop(): void;
}

/** The lease belongs to another worker now (or the job ended): this worker must not write. */
class LeaseLost extends Error {}

/** The worker was asked to stop while it waited for a busy database. */
const ABORTED = Symbol('aborted');

type Step =
  | { readonly kind: 'final'; readonly status: FinalJobStatus }
  | { readonly kind: 'advanced' }
  | { readonly kind: 'phase-done' };

const STOPPED_MESSAGE =
  'the configuration changed while the job ran (matching rules, source trust, blocking rules or blocking keys); the job did not continue. Start a new job under the new configuration';

/** An error text without patient values: engine errors are written that way; anything else is named only. */
function safeErrorText(error: unknown): string {
  if (isEngineError(error)) return error.message;
  return `unexpected ${error instanceof Error ? error.name : 'error'}; no details are recorded because they could contain patient values`;
}

/** A version conflict: the batch is read again on fresh data (busy waits are handled apart). */
function isVersionConflict(error: unknown): boolean {
  return isEngineError(error) && error.kind === 'conflict' && !isBusy(error);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function phaseWork(ctx: JobContext, phase: PhaseName, importing: () => PhaseWork): PhaseWork {
  switch (phase) {
    case 'validation':
      return reindexValidation(ctx);
    case 'writing':
      return reindexWriting(ctx);
    case 'rebuilding':
      return reconcileRebuilding(ctx);
    case 'matching':
      return reconcileMatching(ctx);
    case 'importing':
      return importing();
  }
}

export class JobRunner {
  private readonly store;
  private readonly probe: FingerprintProbe;
  private readonly works = new Map<PhaseName, PhaseWork>();
  private context: JobContext | undefined;
  private watch: RunWatch | undefined;

  constructor(
    private readonly env: EngineEnv,
    private readonly tenantId: string,
    private readonly jobId: string,
    private readonly options: RunOptions,
  ) {
    this.store = env.store;
    this.probe = new FingerprintProbe(env.store, tenantId, env.config);
  }

  private leaseUntil(): string {
    return new Date(Date.now() + this.options.leaseSeconds * 1000).toISOString();
  }

  /** The job row, provided this worker still holds its lease. */
  private ownJob(): JobRow {
    const job = jobRow(this.store, this.tenantId, this.jobId);
    if (job?.status !== 'running' || job.leaseOwner !== this.options.owner) throw new LeaseLost();
    return job;
  }

  private finish(job: JobRow, to: FinalJobStatus, actor: string, error: string | null): Step {
    finishWithAudit(this.store, this.tenantId, job, to, actor, error, new Date().toISOString());
    return { kind: 'final', status: to };
  }

  private get actor(): string {
    return `worker:${this.options.owner}`;
  }

  /**
   * Runs fn, waiting out a busy database with a capped exponential backoff for as long as it takes (the
   * holder is another process's write, which ends). Gives up only when the worker is asked to stop.
   */
  private async whenNotBusy<T>(during: string, fn: () => T): Promise<T | typeof ABORTED> {
    for (let attempt = 1; ; attempt++) {
      try {
        return fn();
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (!(await this.busyPause(during, attempt))) return ABORTED;
      }
    }
  }

  /** One wait of a busy-database backoff; false when the worker was asked to stop instead. */
  private async busyPause(during: string, attempt: number): Promise<boolean> {
    if (attempt === 1) this.options.onBusy?.(during);
    if (this.stopping()) return false;
    await sleep(Math.min(BUSY_BACKOFF_MAX_MS, BUSY_BACKOFF_MS * 2 ** (attempt - 1)));
    return !this.stopping();
  }

  private stopping(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Releases what the phases hold (an external source's connections). */
  private async dispose(): Promise<void> {
    const works = [...this.works.values()];
    this.works.clear();
    for (const work of works) await work.dispose?.().catch(() => undefined);
  }

  async run(): Promise<RunResult> {
    this.watch = this.watchRun();
    try {
      return await this.runSteps();
    } finally {
      this.watch.stop();
      await this.dispose();
    }
  }

  private async runSteps(): Promise<RunResult> {
    let step: Step | typeof ABORTED;
    try {
      step = await this.whenNotBusy('starting the job', () => this.store.write(() => this.startOrResume()));
      if (step === ABORTED) return { outcome: 'released' };
      if (step.kind !== 'final') this.context = this.buildContext();
    } catch (error) {
      if (error instanceof LeaseLost) return { outcome: 'lease-lost' };
      return this.failOutside(safeErrorText(error));
    }
    while (step.kind !== 'final') {
      if (this.options.signal?.aborted === true) {
        try {
          this.store.write(() => {
            releaseLease(this.store, this.tenantId, this.jobId, this.options.owner, new Date().toISOString());
          });
        } catch (error) {
          // A busy database: the lease simply expires and another worker resumes the job then.
          if (!isBusy(error)) throw error;
        }
        return { outcome: 'released' };
      }
      try {
        step = await this.runBatch();
      } catch (error) {
        if (error instanceof LeaseLost) return { outcome: 'lease-lost' };
        return this.failOutside(safeErrorText(error));
      }
      // Asked to stop (a busy wait or an outside read abandoned): the loop's top releases the lease.
      if (step === ABORTED) {
        if (!this.stopping()) return { outcome: 'released' };
        step = { kind: 'advanced' };
        continue;
      }
      await nextTick();
    }
    const job = jobRow(this.store, this.tenantId, this.jobId);
    if (job !== undefined) recordJobStatus(job.kind, step.status);
    return { outcome: step.status };
  }

  /** Records what the job works under on its first start; a resumed job whose configuration changed stops. */
  private startOrResume(): Step {
    const job = this.ownJob();
    if (job.takeovers > MAX_TAKEOVERS) {
      return this.finish(
        job,
        'failed',
        this.actor,
        `the job was taken over ${String(job.takeovers)} times without a batch committing: a batch of up to ${String(job.batchSize)} identities takes longer than ` +
          `the lease (Maintenance.LeaseSeconds (${String(this.options.leaseSeconds)})) and its worker could not renew it, so workers kept taking the job from ` +
          'each other. Raise Maintenance.LeaseSeconds above the time one batch takes, or start the job again with a smaller --batch-size',
      );
    }
    const fingerprint = this.probe.current();
    if (job.fingerprint === null) {
      const active = activeProfile(this.store, this.tenantId);
      recordStart(this.store, this.tenantId, this.jobId, {
        profileVersion: active.version,
        fingerprint,
        populationTotal: job.externalSourceSystem === null ? countIdentities(this.store, this.tenantId) : null,
      });
      recordJobStatus(job.kind, 'running');
    } else if (job.fingerprint !== fingerprint) {
      return this.finish(job, 'stopped', this.actor, STOPPED_MESSAGE);
    }
    if (job.cancelRequestedBy !== null) return this.finish(job, 'cancelled', job.cancelRequestedBy, null);
    const phases = phasesOf(this.store, this.tenantId, this.jobId);
    if (!phases.some((p) => p.status === 'running')) {
      const next = phases.find((p) => p.status === 'pending');
      if (next === undefined) return this.finish(this.ownJob(), 'completed', this.actor, null);
      setPhaseStatus(this.store, this.tenantId, this.jobId, next, 'running', new Date().toISOString());
    }
    return { kind: 'advanced' };
  }

  private buildContext(): JobContext {
    const job = jobRow(this.store, this.tenantId, this.jobId);
    if (job?.profileVersion == null) throw new LeaseLost();
    const profile = profileVersion(this.store, this.tenantId, job.profileVersion);
    return {
      store: this.store,
      tenantId: this.tenantId,
      jobId: this.jobId,
      profile,
      ring: keyRingFor(profile.profile.Blocking, this.env.settings(), this.tenantId),
    };
  }

  private work(phase: PhaseName): PhaseWork {
    let work = this.works.get(phase);
    if (work === undefined) {
      const context = this.context;
      if (context === undefined) throw new Error('job context missing');
      work = phaseWork(context, phase, () => {
        const job = jobRow(this.store, this.tenantId, this.jobId);
        if (job === undefined) throw new LeaseLost();
        return importPhase(
          context,
          this.env.settings(),
          job,
          this.options.importRetry === undefined ? {} : { retry: this.options.importRetry },
        );
      });
      this.works.set(phase, work);
    }
    return work;
  }

  /**
   * Renews the lease every third of its length while a batch is in progress. The timer runs only while the
   * batch waits (a hook, a backoff): no transaction is open then. A renewal that finds the lease gone, or
   * a busy database, does nothing; the batch's commit checks the lease itself.
   */
  private startHeartbeat(): () => void {
    const every = Math.max(100, (this.options.leaseSeconds * 1000) / 3);
    const timer = setInterval(() => {
      try {
        this.store.write(() => {
          renewLease(this.store, this.tenantId, this.jobId, this.options.owner, this.leaseUntil());
        });
      } catch {
        // Busy, or the store was closed: the commit decides.
      }
    }, every);
    timer.unref();
    return () => {
      clearInterval(timer);
    };
  }

  /**
   * The signal of the run's outside reads (an import's pages, the one prefetched included): it aborts when the
   * worker is asked to stop, or when a cancel of the job is recorded (looked for every CANCEL_POLL_MS, one indexed
   * read), so neither waits on a slow or hostile source.
   */
  private watchRun(): RunWatch {
    const controller = new AbortController();
    let cancelled = false;
    const onStop = (): void => {
      controller.abort();
    };
    this.options.signal?.addEventListener('abort', onStop, { once: true });
    if (this.options.signal?.aborted === true) controller.abort();
    const timer = setInterval(() => {
      try {
        if (jobRow(this.store, this.tenantId, this.jobId)?.cancelRequestedBy != null) {
          cancelled = true;
          controller.abort();
        }
      } catch {
        // Busy, or the store was closed: the batch's commit looks again.
      }
    }, CANCEL_POLL_MS);
    timer.unref();
    return {
      signal: controller.signal,
      cancelled: () => cancelled,
      stop: () => {
        clearInterval(timer);
        this.options.signal?.removeEventListener('abort', onStop);
      },
    };
  }

  private async runBatch(): Promise<Step | typeof ABORTED> {
    const stop = this.startHeartbeat();
    const watch = this.watch ?? this.watchRun();
    try {
      return await this.batch(watch.signal);
    } catch (error) {
      if (!(error instanceof SourceAborted)) throw error;
      if (watch.cancelled()) {
        // Cancelled while a page was being read: the cancel is observed now, nothing of the page written.
        const done = await this.whenNotBusy('cancelling the job', () =>
          this.store.write(() => {
            const job = this.ownJob();
            return job.cancelRequestedBy === null
              ? ({ kind: 'advanced' } as const)
              : this.finish(job, 'cancelled', job.cancelRequestedBy, null);
          }),
        );
        return done;
      }
      return ABORTED;
    } finally {
      stop();
    }
  }

  private async batch(signal: AbortSignal): Promise<Step | typeof ABORTED> {
    const read = await this.whenNotBusy('reading the job', () =>
      this.store.read(() => ({
        job: jobRow(this.store, this.tenantId, this.jobId),
        phases: phasesOf(this.store, this.tenantId, this.jobId),
      })),
    );
    if (read === ABORTED) return ABORTED;
    const { job } = read;
    if (job === undefined) throw new LeaseLost();
    const phase = read.phases.find((p) => p.status === 'running');
    if (phase === undefined) throw new LeaseLost();
    const work = this.work(phase.name);
    let busyWaits = 0;
    for (let attempt = 1; ;) {
      const info: BatchInfo = {
        tenantId: this.tenantId,
        jobId: this.jobId,
        phase: phase.name,
        cursor: phase.cursor,
        attempt,
      };
      const plan =
        work.readPage === undefined
          ? await this.whenNotBusy('reading a batch', () =>
              this.store.read(() => work.readBatch(phase.cursor, job.batchSize)),
            )
          : await work.readPage(phase, signal);
      if (plan === ABORTED) return ABORTED;
      await this.options.hooks?.beforeWrite?.(info);
      try {
        const { step, counters } = this.writeBatch(work, phase, plan);
        crashPoint('job:batch-committed');
        if (step.kind === 'advanced') recordItems(job.kind, phase.name, counters);
        await this.options.hooks?.afterCommit?.(info);
        return step;
      } catch (error) {
        if (error instanceof LeaseLost) throw error;
        if (isBusy(error)) {
          // Not the batch's fault: wait, then read the batch afresh and write it; no conflict attempt is used up.
          busyWaits++;
          if (!(await this.busyPause('writing a batch', busyWaits))) return ABORTED;
          continue;
        }
        if (!isVersionConflict(error)) throw error;
        recordConflictRetry(job.kind, phase.name);
        if (attempt >= MAX_BATCH_ATTEMPTS) {
          const failed = await this.whenNotBusy('failing the job', () =>
            this.store.write(() =>
              this.finish(
                this.ownJob(),
                'failed',
                this.actor,
                `a batch of the ${phase.name} phase after identity row ${String(phase.cursor)} conflicted with concurrent updates ${String(attempt)} times; nothing of it was written. Start the job again when ingestion is quieter`,
              ),
            ),
          );
          return failed;
        }
        await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1));
        attempt++;
      }
    }
  }

  /**
   * The batch's write transaction, and the counters it committed. When an item of the batch fails on write
   * (BatchItemFailed), the transaction is rolled back and the batch written again with each item isolated.
   */
  private writeBatch(
    work: PhaseWork,
    phase: PhaseRow,
    plan: BatchPlan | null,
  ): { readonly step: Step; readonly counters: JobCounters } {
    const attempt = (isolated: boolean): { step: Step; counters: JobCounters } => {
      const counters = emptyCounters();
      const step = this.store.write(() => {
        const written = this.commit(work, phase, plan, counters, isolated);
        crashPoint('job:batch-written');
        return written;
      });
      return { step, counters };
    };
    try {
      return attempt(false);
    } catch (error) {
      if (!(error instanceof BatchItemFailed)) throw error;
      return attempt(true);
    }
  }

  /** The write transaction of one batch; counters receives what was committed. */
  private commit(
    work: PhaseWork,
    phase: PhaseRow,
    plan: BatchPlan | null,
    counters: JobCounters,
    isolated: boolean,
  ): Step {
    const job = this.ownJob();
    const current = phasesOf(this.store, this.tenantId, this.jobId).find((p) => p.ordinal === phase.ordinal);
    if (current?.status !== 'running' || current.cursor !== phase.cursor) throw new LeaseLost();
    const at = new Date().toISOString();
    if (job.cancelRequestedBy !== null) return this.finish(job, 'cancelled', job.cancelRequestedBy, null);
    if (this.probe.current() !== job.fingerprint) return this.finish(job, 'stopped', this.actor, STOPPED_MESSAGE);
    if (plan === null) {
      const failure = work.finish?.(job) ?? null;
      if (failure !== null) return this.finish(job, 'failed', this.actor, failure);
      setPhaseStatus(this.store, this.tenantId, this.jobId, current, 'completed', at);
      const next = phasesOf(this.store, this.tenantId, this.jobId).find(
        (p) => p.ordinal > current.ordinal && p.status === 'pending',
      );
      if (next === undefined) return this.finish(this.ownJob(), 'completed', this.actor, null);
      setPhaseStatus(this.store, this.tenantId, this.jobId, next, 'running', at);
      renewLease(this.store, this.tenantId, this.jobId, this.options.owner, this.leaseUntil());
      markProgress(this.store, this.tenantId, this.jobId);
      return { kind: 'phase-done' };
    }
    addCounters(counters, plan.counters);
    addCounters(counters, plan.write(at, isolated));
    advance(
      this.store,
      this.tenantId,
      this.jobId,
      current.ordinal,
      { cursor: plan.lastIdentityId, cursorUrl: plan.cursorUrl, processed: plan.items, counters },
      this.leaseUntil(),
    );
    addPhaseNotes(this.store, this.tenantId, this.jobId, current.ordinal, plan.notes ?? []);
    return { kind: 'advanced' };
  }

  /** Fails the job after an error outside a batch transaction, if this worker still holds it. */
  private async failOutside(message: string): Promise<RunResult> {
    try {
      const done = await this.whenNotBusy('failing the job', () =>
        this.store.write(() => this.finish(this.ownJob(), 'failed', this.actor, message)),
      );
      if (done === ABORTED) return { outcome: 'released' };
    } catch (error) {
      if (error instanceof LeaseLost) return { outcome: 'lease-lost' };
      throw error;
    }
    const job = jobRow(this.store, this.tenantId, this.jobId);
    if (job !== undefined) recordJobStatus(job.kind, 'failed');
    return { outcome: 'failed' };
  }
}

/** Runs a job this worker has claimed until it ends, its lease is lost, or the signal asks the worker to stop. */
export function runJob(env: EngineEnv, tenantId: string, jobId: string, options: RunOptions): Promise<RunResult> {
  return withTenant(tenantId, () => new JobRunner(env, tenantId, jobId, options).run());
}
