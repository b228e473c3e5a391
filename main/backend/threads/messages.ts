/** The messages between the backend and its worker threads (structured-clone data only). */
import type { ErrorData } from '../../../engine/contract/errors.ts';

export interface JobThreadData {
  readonly dbPath: string;
  readonly tenantId: string;
}

export type JobThreadCommand = { readonly type: 'wake' } | { readonly type: 'stop' };

export type JobThreadMessage =
  | { readonly type: 'running' }
  /** Maintenance.WorkerEnabled is false in the sandbox's configuration file: jobs stay queued. */
  | { readonly type: 'disabled'; readonly message: string }
  /** A job was claimed, committed a batch or ended: its state changed. */
  | { readonly type: 'activity'; readonly jobId: string }
  | { readonly type: 'failed'; readonly error: ErrorData }
  | { readonly type: 'stopped' };

export interface SandboxThreadData {
  readonly dbPath: string;
  readonly tenantId: string;
  readonly actor: string;
  readonly syntheticPeople: number;
  readonly seed: number;
}

export type SandboxThreadMessage =
  | { readonly type: 'progress'; readonly stage: 'generating' | 'ingesting'; readonly done: number; readonly total: number }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly error: ErrorData };
