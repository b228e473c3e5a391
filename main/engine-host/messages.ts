/** The messages between the backend and its worker threads (structured-clone data only). */
import type { ErrorData } from '../../engine/contract/errors.ts';
import type { WorkerEvent } from '../../engine/index.ts';
import type { BodyBytes } from '../net/json-body.ts';

export interface JobThreadData {
  readonly dbPath: string;
  /** The tenants served: a sandbox's one, or every tenant of a registry (`serve --worker`). */
  readonly tenants: readonly string[] | 'all';
  readonly settingsPath?: string;
}

export type JobThreadCommand = { readonly type: 'wake' } | { readonly type: 'stop' };

export type JobThreadMessage =
  | { readonly type: 'running' }
  /** Maintenance.WorkerEnabled is false in the sandbox's configuration file: jobs stay queued. */
  | { readonly type: 'disabled'; readonly message: string }
  /** A job was claimed, committed a batch or ended: its state changed. */
  | { readonly type: 'activity'; readonly jobId: string }
  /** What the worker did, for a server's log (never patient values). */
  | { readonly type: 'event'; readonly event: WorkerEvent }
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
  | {
      readonly type: 'progress';
      readonly stage: 'generating' | 'ingesting';
      readonly done: number;
      readonly total: number;
    }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly error: ErrorData };

/** What an engine thread opens: the registry and its configuration file. */
export interface EngineThreadData {
  readonly dbPath: string;
  readonly settingsPath?: string;
  readonly busyTimeoutMs?: number;
}

/** What the host tells an engine thread besides calls: the registry to open (its first message), and to stop. */
export type EngineThreadCommand =
  { readonly type: 'open'; readonly data: EngineThreadData } | { readonly type: 'close' };

/**
 * One engine call; `cancel` is a shared flag (element 0 becomes 1) the call checks at its steps. A large request body
 * comes as `body`, its bytes, in place of `input`: the engine thread parses it (main/net/json-body.ts).
 */
export interface EngineCallMessage {
  readonly type: 'call';
  readonly id: number;
  readonly name: string;
  readonly input: unknown;
  readonly body?: BodyBytes;
  readonly ctx: { readonly tenantId: string; readonly actor: string };
  readonly cancel?: SharedArrayBuffer;
}

export type EngineThreadMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'open-failed'; readonly error: ErrorData }
  | {
      readonly type: 'progress';
      readonly id: number;
      readonly phase: string;
      readonly done: number;
      readonly total: number | null;
    }
  | { readonly type: 'done'; readonly id: number; readonly value: unknown }
  | { readonly type: 'failed'; readonly id: number; readonly error: ErrorData };

/** A run start's body, its bytes, for the intake thread (intake-thread.ts) to check. */
export interface IntakeRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** The run's operation, or why the start is refused. */
export type IntakeAnswer =
  { readonly id: number; readonly operation: string } | { readonly id: number; readonly error: ErrorData };
