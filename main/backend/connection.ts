/**
 * One connection at a time: the EngineClient the backend routes engine operations to, the call context it
 * owns (tenant and actor never come from the renderer) and what the connection offers.
 *
 *   kind            client         context                      capabilities
 *   local-sandbox   EnginePool     the file's tenant, OS user   every operation, every scope
 *   remote-registry RemoteEngine   the token's tenant, subject  the operations the granted scopes allow
 *
 * A remote registry (remote-registry.ts) is one more implementation, with sign-in (sign-in.ts) and token
 * storage (token-store.ts) beside it.
 */
import type { CallContext, EngineClient } from '../../engine/contract/operations.ts';
import type { Capabilities, Connection } from '../../console-protocol/protocol.ts';
import type { RunOperation, RunProgress } from '../../engine/contract/runs.ts';

/** How a long operation is followed: its progress as it goes, and the signal that cancels it. */
export interface TaskOptions {
  readonly signal: AbortSignal;
  readonly onProgress: (progress: RunProgress) => void;
}

export interface ConsoleConnection {
  readonly client: EngineClient;
  readonly context: CallContext;
  readonly capabilities: Capabilities;
  /** What the renderer may know about the connection (never a token or a secret). */
  describe(): Connection;
  /**
   * Names this registry and tenant for what the console keeps about it on this workstation (saved assurance
   * runs): the same registry and tenant give the same key on every launch; no secret, never shown.
   */
  storageKey(): string;
  /** The console queued a job on this connection (a local worker claims it at once; a remote one remembers it). */
  jobQueued(jobId: string): void;
  /**
   * A long operation as a tracked run (off the backend's thread: the sandbox's engine threads, or the registry's
   * runs), its output once it ends; the signal cancels it there.
   */
  runTask(operation: RunOperation, input: unknown, options: TaskOptions): Promise<unknown>;
  /** The user watched a job by ID (a remote connection remembers it). */
  jobWatched?(jobId: string): void;
  close(): Promise<void>;
}
