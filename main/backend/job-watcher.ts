/**
 * Watches active jobs and pushes their state whenever it changes, until each ends. It reads only through
 * the connection's operations (`jobs/get`, and `jobs/list` where offered, to notice jobs queued elsewhere),
 * so it works the same over a local sandbox and a remote registry. A hint (the local worker committed a
 * batch) brings the next read forward; without hints it polls.
 *
 *   watched job:  read ──changed──▶ push ──final──▶ forgotten
 *                   └──unchanged──▶ (nothing)
 */
import type { JobState } from '../../engine/contract/maintenance.ts';

export interface JobSource {
  get(jobId: string): Promise<JobState>;
  /** Newest jobs first; absent when the connection does not offer a job list. */
  readonly list?: () => Promise<JobState[]>;
}

export interface JobWatcherOptions {
  /** Reads of active jobs without hints. */
  readonly pollMs?: number;
  /** The shortest gap between two reads, however many hints arrive. */
  readonly minGapMs?: number;
  /** How often the job list is read to notice jobs queued elsewhere (CLI, schedules, another console). */
  readonly listEveryMs?: number;
}

const isActive = (job: JobState): boolean => job.status === 'queued' || job.status === 'running';

export class JobWatcher {
  private readonly pushed = new Map<string, string>();
  /** Every job this connection's list has shown: a job first seen already ended (queued and run between two reads) is pushed once. */
  private readonly known = new Set<string>();
  private listed = false;
  private source: JobSource | undefined;
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private dueAt = Infinity;
  private reading = false;
  private lastRead = 0;
  private lastList = 0;
  private closed = false;
  private readonly pollMs: number;
  private readonly minGapMs: number;
  private readonly listEveryMs: number;

  constructor(
    private readonly push: (job: JobState) => void,
    options: JobWatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.minGapMs = options.minGapMs ?? 200;
    this.listEveryMs = options.listEveryMs ?? 3000;
  }

  /** Watches the jobs of a new connection (or none); what was watched before is forgotten. */
  use(source: JobSource | undefined): void {
    this.generation++;
    this.pushed.clear();
    this.known.clear();
    this.listed = false;
    this.source = source;
    this.lastList = 0;
    if (source === undefined) this.cancelTimer();
    else this.schedule(0);
  }

  /** A job state the renderer has just received (from a list, a get or a start): watch it if it is active. */
  observe(job: JobState): void {
    if (isActive(job)) {
      if (!this.pushed.has(job.jobId)) this.pushed.set(job.jobId, JSON.stringify(job));
      this.schedule(this.pollMs);
    }
  }

  /** Watch a job by ID; its state is read now and pushed whenever it changes until it ends. */
  async watch(jobId: string): Promise<JobState> {
    const source = this.requireSource();
    const job = await source.get(jobId);
    this.observe(job);
    return job;
  }

  /** Something changed (a batch committed, a cancel was asked): read soon. */
  nudge(): void {
    this.schedule(0);
  }

  get watching(): readonly string[] {
    return [...this.pushed.keys()];
  }

  close(): void {
    this.closed = true;
    this.use(undefined);
  }

  private requireSource(): JobSource {
    if (this.source === undefined) throw new Error('no connection to watch jobs on');
    return this.source;
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = Infinity;
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.source === undefined) return;
    const at = Math.max(Date.now() + delayMs, this.lastRead + this.minGapMs);
    if (at >= this.dueAt) return;
    this.cancelTimer();
    this.dueAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dueAt = Infinity;
      void this.tick();
    }, at - Date.now());
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const source = this.source;
    if (source === undefined || this.closed) return;
    if (this.reading) {
      this.schedule(this.minGapMs);
      return;
    }
    this.reading = true;
    const generation = this.generation;
    this.lastRead = Date.now();
    try {
      if (source.list !== undefined && this.lastRead - this.lastList >= this.listEveryMs) {
        this.lastList = this.lastRead;
        const rows = await source.list();
        if (generation !== this.generation) return;
        // A job queued elsewhere: push it once, then watch it like the others. One that ran whole between two
        // reads is pushed once too, or the page would never hear of it.
        for (const job of rows) {
          const isNew = this.listed && !this.known.has(job.jobId);
          this.known.add(job.jobId);
          if ((isActive(job) && !this.pushed.has(job.jobId)) || (isNew && !isActive(job))) this.publish(job);
        }
        this.listed = true;
      }
      for (const jobId of [...this.pushed.keys()]) {
        let job: JobState;
        try {
          job = await source.get(jobId);
        } catch {
          // Gone (another tenant's ID cannot reach here) or the connection is failing: try again next time.
          continue;
        }
        if (generation !== this.generation) return;
        this.publish(job);
      }
    } catch {
      // The list failed (connection closing or unreachable): the next tick tries again.
    } finally {
      this.reading = false;
      if (generation === this.generation) this.schedule(this.pushed.size > 0 ? this.pollMs : this.listEveryMs);
    }
  }

  private publish(job: JobState): void {
    const text = JSON.stringify(job);
    if (this.pushed.get(job.jobId) !== text) this.push(job);
    if (isActive(job)) this.pushed.set(job.jobId, text);
    else this.pushed.delete(job.jobId);
  }
}
