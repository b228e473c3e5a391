/**
 * The parent side of a maintenance worker thread (a sandbox's in the console, a registry's under `serve --worker`):
 * its status (running, disabled by configuration, failed), job-activity hints for a watcher, the worker's events
 * for a log, wake-ups when a job is queued here, and a clean stop (the batch in progress finishes and the lease is
 * released; a thread that does not stop in time is terminated, and its lease then simply expires). The thread may start
 * a little later (startAfterMs: the console's window loads first), and at once when a job is queued before.
 */
import type { Worker } from 'node:worker_threads';
import type { WorkerStatus } from '../../console-protocol/protocol.ts';
import type { WorkerEvent } from '../../engine/index.ts';
import { startNowOrLater, startThread } from './threads.ts';
import type { JobThreadCommand, JobThreadData, JobThreadMessage } from './messages.ts';

export interface EmbeddedWorkerHooks {
  readonly onStatus: (status: WorkerStatus) => void;
  readonly onJobActivity: (jobId: string) => void;
  readonly onEvent?: (event: WorkerEvent) => void;
}

const STOP_GRACE_MS = 15_000;

export class EmbeddedWorker {
  private statusValue: WorkerStatus = { state: 'starting', message: null };
  private started: { readonly thread: Worker; readonly exited: Promise<void> } | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly data: JobThreadData,
    private readonly hooks: EmbeddedWorkerHooks,
    options: { readonly startAfterMs?: number } = {},
  ) {
    this.startTimer = startNowOrLater(options.startAfterMs, () => {
      this.start();
    });
  }

  private start(): void {
    clearTimeout(this.startTimer);
    if (this.started !== undefined) return;
    const thread = startThread('job-thread', { ...this.data });
    thread.on('message', (message: JobThreadMessage) => {
      this.receive(message);
    });
    const exited = new Promise<void>((resolve) => {
      thread.once('exit', () => {
        if (this.statusValue.state === 'starting' || this.statusValue.state === 'running')
          this.setStatus({ state: 'stopped', message: null });
        resolve();
      });
    });
    thread.on('error', (error) => {
      this.setStatus({
        state: 'failed',
        message: `the maintenance worker stopped unexpectedly (${error.name}); reopen the sandbox to restart it`,
      });
    });
    this.started = { thread, exited };
  }

  get status(): WorkerStatus {
    return this.statusValue;
  }

  private setStatus(status: WorkerStatus): void {
    this.statusValue = status;
    this.hooks.onStatus(status);
  }

  private receive(message: JobThreadMessage): void {
    switch (message.type) {
      case 'running':
        this.setStatus({ state: 'running', message: null });
        return;
      case 'disabled':
        this.setStatus({ state: 'disabled', message: message.message });
        return;
      case 'activity':
        this.hooks.onJobActivity(message.jobId);
        return;
      case 'failed':
        this.setStatus({ state: 'failed', message: `the maintenance worker stopped: ${message.error.message}` });
        return;
      case 'stopped':
        this.setStatus({ state: 'stopped', message: null });
        return;
      case 'event':
        this.hooks.onEvent?.(message.event);
        return;
    }
  }

  private command(command: JobThreadCommand): void {
    this.started?.thread.postMessage(command);
  }

  /** A job was queued: claim it now rather than at the next poll (a thread not started yet starts, and claims it). */
  wake(): void {
    if (this.stopped) return;
    if (this.started === undefined) this.start();
    else this.command({ type: 'wake' });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.startTimer);
    const started = this.started;
    if (started === undefined) {
      if (this.statusValue.state === 'starting') this.setStatus({ state: 'stopped', message: null });
      return;
    }
    this.command({ type: 'stop' });
    const timer = setTimeout(() => {
      void started.thread.terminate();
    }, STOP_GRACE_MS);
    try {
      await started.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
