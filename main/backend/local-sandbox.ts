/**
 * A local sandbox connection: the engine over a SQLite file on this machine, plus its embedded maintenance
 * worker thread. Opening checks that the file is an MPI registry before the engine (which applies
 * migrations) touches it, so pointing the console at some other SQLite file never alters that file.
 */
import { existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { EngineError, notFound, validationError } from '../../engine/contract/errors.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import {
  ENGINE_OPERATION_NAMES,
  type Capabilities,
  type Connection,
  type WorkerStatus,
} from '../../console-protocol/protocol.ts';
import { Store, listTenantIds } from '../../engine/host-side.ts';
import type { ConsoleConnection, TaskOptions } from './connection.ts';
import { EnginePool } from '../engine-host/pool.ts';
import type { RunOperation } from '../../engine/contract/runs.ts';
import { EmbeddedWorker } from '../engine-host/embedded-worker.ts';
import type { EarlyEngineThread } from '../engine-host/threads.ts';

/** The local user owns the file: every operation, every scope. */
export const LOCAL_CAPABILITIES: Capabilities = {
  operations: [...ENGINE_OPERATION_NAMES],
  scopes: ['mpi.admin', 'mpi.operations'],
};

export function localActor(): string {
  let name = 'user';
  try {
    name = userInfo().username || name;
  } catch {
    // No passwd entry (some containers): keep the generic name.
  }
  return `console:${name}`;
}

const SQLITE_HEADER = 'SQLite format 3\u0000';

function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    return readSync(fd, buffer, 0, 16, 0) === 16 && buffer.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** The tenants of a registry file, read without writing to it; refuses a file that is not a registry. */
export function sandboxTenants(path: string): string[] {
  if (!existsSync(path)) throw notFound(`there is no file at ${path}; check the path or create a new sandbox`);
  if (!statSync(path).isFile())
    throw validationError(`${path} is a folder; choose the sandbox's .db file inside it`, [
      { path: 'path', message: 'not a file' },
    ]);
  const notRegistry = validationError(
    `${path} is not an MPI sandbox (a registry SQLite database); choose a file the console or \`mpi-console sandbox init\` created`,
    [{ path: 'path', message: 'not an MPI sandbox' }],
  );
  if (!hasSqliteHeader(path)) throw notRegistry;
  let store: Store | undefined;
  try {
    store = Store.open(path, { readonly: true });
    const tables = store
      .statement("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('schema_migration', 'tenant')")
      .pluck()
      .all();
    if (tables.length !== 2) throw notRegistry;
    return listTenantIds(store);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw notRegistry;
  } finally {
    store?.close();
  }
}

export function chooseTenant(path: string, tenants: readonly string[], wanted: string | undefined): string {
  if (wanted !== undefined) {
    if (!tenants.includes(wanted)) {
      throw validationError(`tenant "${wanted}" is not in ${path}`, [
        { path: 'tenantId', message: `choose one of: ${tenants.join(', ')}` },
      ]);
    }
    return wanted;
  }
  const [only, ...others] = tenants;
  if (only === undefined)
    throw validationError(`${path} holds no tenant yet; create a sandbox instead`, [
      { path: 'path', message: 'no tenant' },
    ]);
  if (others.length > 0) {
    throw validationError(`${path} holds ${String(tenants.length)} tenants; choose one`, [
      { path: 'tenantId', message: `choose one of: ${tenants.join(', ')}` },
    ]);
  }
  return only;
}

/**
 * What the console's first page does not need starts this long after the sandbox opens: the engine threads for long
 * calls and the maintenance worker's thread. Each loads the whole engine (about 0.3 s of a core), and on a
 * workstation of two cores they would load beside the window's own first page. A long call or a queued job starts
 * them at once.
 */
const BACKGROUND_START_MS = 1_500;

export interface LocalSandboxHooks {
  readonly onWorkerStatus: (status: WorkerStatus) => void;
  readonly onJobActivity: (jobId: string) => void;
}

export class LocalSandboxConnection implements ConsoleConnection {
  readonly capabilities = LOCAL_CAPABILITIES;
  private readonly worker: EmbeddedWorker;

  private constructor(
    readonly path: string,
    readonly client: EnginePool,
    readonly context: CallContext,
    hooks: LocalSandboxHooks,
  ) {
    this.worker = new EmbeddedWorker(
      { dbPath: path, tenants: [context.tenantId] },
      { onStatus: hooks.onWorkerStatus, onJobActivity: hooks.onJobActivity },
      { startAfterMs: BACKGROUND_START_MS },
    );
  }

  /**
   * Opens the sandbox behind an engine pool (engine threads with their own connections), so no engine call ever
   * runs on the thread that answers the window. The file is checked (a registry, its tenants) and brought to this
   * version's migrations before any thread opens it; the threads open it in the background, and the first calls
   * wait for them. `early`, an engine thread started before the sandbox was known, becomes the pool's first thread.
   */
  static open(
    path: string,
    tenantId: string | undefined,
    actor: string,
    hooks: LocalSandboxHooks,
    early?: EarlyEngineThread,
  ): LocalSandboxConnection {
    const tenant = chooseTenant(path, sandboxTenants(path), tenantId);
    // Migrations applied once here, before several threads open the file at the same moment, and refused here (a
    // file of a newer version) with their reason. The store alone applies them: this thread never loads the engine.
    Store.open(path, { create: false }).close();
    const startedThread = early?.take();
    const pool = EnginePool.start({
      dbPath: path,
      longThreadsAfterMs: BACKGROUND_START_MS,
      ...(startedThread === undefined ? {} : { startedThread }),
    });
    return new LocalSandboxConnection(path, pool, { tenantId: tenant, actor }, hooks);
  }

  async runTask(operation: RunOperation, input: unknown, options: TaskOptions): Promise<unknown> {
    const started = await this.client.call('runs/start', { operation, input }, this.context);
    const unsubscribe = this.client.runs.subscribe((tenantId, state) => {
      if (tenantId === this.context.tenantId && state.runId === started.runId && state.progress !== null)
        options.onProgress(state.progress);
    });
    const cancel = (): void => {
      void this.client.call('runs/cancel', { runId: started.runId }, this.context).catch(() => undefined);
    };
    options.signal.addEventListener('abort', cancel, { once: true });
    // Cancelled while the run was being started: the abort came before anyone listened for it.
    if (options.signal.aborted) cancel();
    try {
      const ended = await this.client.runs.wait(started.runId, this.context.tenantId);
      if (ended.status === 'completed') return ended.output;
      const error = ended.error ?? {
        kind: 'internal' as const,
        message: 'the run ended without an answer',
        issues: [],
      };
      throw new EngineError(error.kind, error.message, error.issues);
    } finally {
      unsubscribe();
      options.signal.removeEventListener('abort', cancel);
    }
  }

  describe(): Connection {
    return {
      kind: 'local-sandbox',
      path: this.path,
      tenantId: this.context.tenantId,
      actor: this.context.actor,
      capabilities: this.capabilities,
      worker: this.worker.status,
    };
  }

  storageKey(): string {
    return `local-sandbox\u0000${this.path}\u0000${this.context.tenantId}`;
  }

  jobQueued(): void {
    this.worker.wake();
  }

  async close(): Promise<void> {
    await Promise.all([this.worker.stop(), this.client.close()]);
  }
}
