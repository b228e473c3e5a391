/**
 * The console's backend: plain Node, shared by the Electron shell (over IPC) and the browser host (over HTTP
 * and server-sent events). It holds one connection, answers the console's own operations, routes engine
 * operations to the connection's EngineClient with the call context it owns, validates every input with the
 * contract's schema (the renderer is untrusted), and pushes events to its subscribers.
 */
import { randomBytes } from 'node:crypto';
import { conflict, EngineError, notFound, validationError } from '../../engine/contract/errors.ts';
import { operations } from '../../engine/contract/operations.ts';
import type { RunOperation, RunState } from '../../engine/contract/runs.ts';
import { zodIssues } from '../../engine/contract/zod-issues.ts';
import {
  inputSchemaOf,
  isConsoleOperation,
  type AnyInput,
  type AnyOperationName,
  type AnyOutput,
  type ConsoleEvent,
  type ConsoleEventName,
  type ConsoleOperationName,
  type ConsoleOperations,
  type ConsoleStatus,
  type CreateSandboxInputSchema,
  type Reply,
  sandboxCreationEnded,
  type SandboxProgress,
  type SavedRunKind,
  type SignInInputSchema,
  type SignInState,
  type UseTokenInputSchema,
} from '../../console-protocol/protocol.ts';
import type { OperationName } from '../../engine/contract/operations.ts';
import type { JobState } from '../../engine/contract/maintenance.ts';
import type { z } from 'zod';
import type { ConsoleConnection } from './connection.ts';
import { fromErrorData, toErrorData } from '../engine-host/errors.ts';
import type { EarlyEngineThread } from '../engine-host/threads.ts';
import { JobWatcher, type JobWatcherOptions } from './job-watcher.ts';
import { LocalSandboxConnection, localActor } from './local-sandbox.ts';
import { RecentSandboxes } from './recent-sandboxes.ts';
import { RecentRegistries } from './recent-registries.ts';
import { SandboxCreation } from './sandbox-creator.ts';
import { RemoteRegistryConnection } from './remote-registry.ts';
import { beginSignIn, type PendingSignIn } from './sign-in.ts';
import { MemoryTokenStore, type StoredSession, type TokenStore } from './token-store.ts';
import { SavedRuns } from './saved-runs.ts';

export type ConsoleListener = (event: ConsoleEventName, payload: unknown) => void;

/** The operations whose runs the console keeps, and the kind each is kept as. */
const KEPT_RUNS: Partial<Record<OperationName, Exclude<SavedRunKind, 'labels'>>> = {
  'matching/evaluate': 'evaluation',
  'matching/calibrate': 'calibration',
  'matching/estimate': 'estimate',
  'audit/estimate': 'audit',
};

export interface ConsoleBackendOptions {
  /** The console's own state (recent sandboxes) and the default folder of new sandboxes. */
  readonly dataFolder: string;
  readonly actor?: string;
  readonly watcher?: JobWatcherOptions;
  /** Where a remote registry's tokens are kept (default: memory only, for this process). */
  readonly tokenStore?: TokenStore;
  /** Opens the identity provider's sign-in page in the system browser; false when none could be opened. */
  readonly openExternal?: (url: string) => Promise<boolean> | boolean;
  /** How long a sign-in waits for the browser (default 5 minutes). */
  readonly signInTimeoutMs?: number;
  /** Extra trusted CA certificate(s) (PEM) for registries with a private CA. */
  readonly registryCa?: string | Buffer;
}

/** A long operation the console follows for the page (console/start-task). */
interface Task {
  readonly connection: ConsoleConnection;
  readonly abort: AbortController;
  state: RunState;
}

type ConsoleHandlers = {
  [K in ConsoleOperationName]: (input: z.output<ConsoleOperations[K]['input']>) => Promise<AnyOutput<K>>;
};

export class ConsoleBackend {
  private connection: ConsoleConnection | null = null;
  private creation: SandboxCreation | null = null;
  private creating: SandboxProgress | null = null;
  private readonly listeners = new Set<ConsoleListener>();
  private readonly watcher: JobWatcher;
  private readonly recent: RecentSandboxes;
  private readonly recentRegistries: RecentRegistries;
  private readonly runs: SavedRuns;
  private readonly actor: string;
  private readonly tokenStore: TokenStore;
  private signIn: SignInState | null = null;
  private readonly tasks = new Map<string, Task>();
  private pendingSignIn: PendingSignIn | null = null;
  private closed = false;

  private readonly handlers: ConsoleHandlers = {
    'console/status': () => Promise.resolve(this.status()),
    'console/open-sandbox': async (input) => {
      await this.openSandbox(input.path, input.tenantId);
      return this.status();
    },
    'console/create-sandbox': async (input) => {
      await this.createSandbox(input);
      return this.status();
    },
    'console/cancel-sandbox': async () => {
      await this.creation?.cancel();
      return this.status();
    },
    'console/close': async () => {
      await this.replaceConnection(null);
      return this.status();
    },
    'console/watch-job': async (input) => {
      const job = await this.watcher.watch(input.jobId);
      this.connection?.jobWatched?.(job.jobId);
      return job;
    },
    'console/sign-in': async (input) => {
      await this.startSignIn(input);
      return this.status();
    },
    'console/cancel-sign-in': () => {
      this.cancelSignIn();
      this.signIn = null;
      this.emit('connection/changed', this.status());
      return Promise.resolve(this.status());
    },
    'console/use-token': async (input) => {
      await this.useToken(input);
      return this.status();
    },
    'console/sign-out': async () => {
      this.cancelSignIn();
      this.signIn = null;
      this.tokenStore.clear();
      if (this.connection instanceof RemoteRegistryConnection) await this.replaceConnection(null);
      else this.emit('connection/changed', this.status());
      return this.status();
    },
    'console/runs': () => Promise.resolve({ runs: this.runs.list(this.requireConnection().storageKey()) }),
    'console/run': (input) => Promise.resolve(this.runs.get(this.requireConnection().storageKey(), input.runId)),
    'console/delete-run': (input) => {
      const key = this.requireConnection().storageKey();
      this.runs.delete(key, input.runId);
      return Promise.resolve({ runs: this.runs.list(key) });
    },
    'console/save-labels': async (input) => {
      const connection = this.requireConnection();
      const { matchingProfileVersion, comparatorVersion, scoreMethod, scoreMethodVersion } =
        await connection.client.call('profile/summary', {}, connection.context);
      return this.runs.save(
        connection.storageKey(),
        {
          kind: 'labels',
          request: input,
          versions: { matchingProfileVersion, comparatorVersion, scoreMethod, scoreMethodVersion },
        },
        connection.context.actor,
      );
    },
    'console/start-task': (input) => Promise.resolve(this.startTask(input.operation, input.input)),
    'console/cancel-task': (input) => {
      const task = this.tasks.get(input.runId);
      // A task of another connection (or one forgotten) is as unknown as one that never was.
      if (task === undefined || task.connection !== this.connection) throw notFound('no such task on this connection');
      task.abort.abort();
      return Promise.resolve(task.state);
    },
    'console/tasks': () =>
      Promise.resolve({
        rows: [...this.tasks.values()].filter((t) => t.connection === this.connection).map((t) => t.state),
      }),
  };

  /**
   * A long operation as a task: validated here, run by the connection off this thread (runTask), its progress and
   * end pushed as task/updated; an evaluation, calibration or estimate that completes is kept among the saved runs.
   */
  private startTask(operation: RunOperation, rawInput: unknown): RunState {
    const connection = this.requireConnection();
    if (!connection.capabilities.operations.includes(operation)) {
      throw new EngineError(
        'forbidden',
        `this connection does not offer ${operation} (granted scopes: ${connection.capabilities.scopes.join(', ') || 'none'})`,
      );
    }
    const parsed = operations[operation].input.safeParse(rawInput ?? {});
    if (!parsed.success) throw validationError(`invalid input for ${operation}`, zodIssues(parsed.error, '', false));
    const runId = randomBytes(16).toString('base64url');
    const abort = new AbortController();
    const task: Task = {
      connection,
      abort,
      state: {
        runId,
        operation,
        status: 'running',
        progress: null,
        startedAt: new Date().toISOString(),
        finishedAt: null,
        error: null,
      },
    };
    this.tasks.set(runId, task);
    this.forgetEndedTasks();
    const update = (next: Partial<RunState>): void => {
      task.state = { ...task.state, ...next };
      this.emit('task/updated', task.state);
    };
    this.emit('task/updated', task.state);
    const onProgress = (progress: RunState['progress']): void => {
      update({ progress });
    };
    void connection.runTask(operation, parsed.data, { signal: abort.signal, onProgress }).then(
      (output) => {
        let error: RunState['error'] = null;
        try {
          this.keepRun(connection, operation, parsed.data, output);
        } catch (keptError) {
          const data = toErrorData(keptError);
          error = { kind: data.kind, message: data.message, issues: [...data.issues] };
        }
        // The output goes to the page with the task's end; the kept copy is read back from the saved runs.
        update({ status: 'completed', finishedAt: new Date().toISOString(), error, output });
        task.state = { ...task.state, output: undefined };
      },
      (failure: unknown) => {
        const data = toErrorData(failure);
        update({
          status: abort.signal.aborted ? 'cancelled' : 'failed',
          finishedAt: new Date().toISOString(),
          error: { kind: data.kind, message: data.message, issues: [...data.issues] },
        });
      },
    );
    return task.state;
  }

  private forgetEndedTasks(): void {
    const ended = [...this.tasks.entries()].filter(([, t]) => t.state.finishedAt !== null);
    for (const [runId] of ended.slice(0, Math.max(0, ended.length - 20))) this.tasks.delete(runId);
  }

  constructor(private readonly options: ConsoleBackendOptions) {
    this.actor = options.actor ?? localActor();
    this.recent = new RecentSandboxes(options.dataFolder);
    this.recentRegistries = new RecentRegistries(options.dataFolder);
    this.tokenStore = options.tokenStore ?? new MemoryTokenStore();
    this.runs = new SavedRuns(options.dataFolder);
    this.watcher = new JobWatcher((job) => {
      this.emit('job/updated', job);
    }, options.watcher);
  }

  subscribe(listener: ConsoleListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit<E extends ConsoleEventName>(event: E, payload: ConsoleEvent<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(event, payload);
      } catch {
        // One broken subscriber (a closed window, a dropped stream) must not stop the others.
      }
    }
  }

  status(): ConsoleStatus {
    return {
      connection: this.connection?.describe() ?? null,
      defaultFolder: this.options.dataFolder,
      recent: this.recent.list(),
      recentRegistries: this.recentRegistries.list(),
      creating: this.creating,
      signIn: this.signIn,
    };
  }

  /** Any operation, from an untrusted caller: the input is validated here and errors come back as data. */
  async send(name: string, input: unknown): Promise<Reply<unknown>> {
    try {
      return { ok: true, value: await this.dispatch(name, input) };
    } catch (error) {
      return { ok: false, error: toErrorData(error) };
    }
  }

  /** Typed form of send for trusted callers (the shells, tests): throws the EngineError. */
  async call<K extends AnyOperationName>(name: K, input: AnyInput<K>): Promise<AnyOutput<K>> {
    const reply = await this.send(name, input);
    if (!reply.ok) throw fromErrorData(reply.error);
    return reply.value as AnyOutput<K>;
  }

  private async dispatch(name: string, input: unknown): Promise<unknown> {
    if (this.closed) throw conflict('the console is closing');
    const schema = inputSchemaOf(name);
    if (schema === undefined) throw validationError(`unknown operation ${name}`);
    const parsed = schema.safeParse(input ?? {});
    // Inputs can hold patient data (records/ingest): issues name the field and the rule, never the value.
    if (!parsed.success) {
      // The console's own requests come from its forms: said as the form's refusal, not the protocol's name.
      const what = isConsoleOperation(name) ? 'the values given were refused' : `invalid input for ${name}`;
      throw validationError(what, zodIssues(parsed.error, '', false));
    }
    if (isConsoleOperation(name)) return (this.handlers[name] as (input: unknown) => Promise<unknown>)(parsed.data);
    return this.callEngine(name as OperationName, parsed.data);
  }

  private requireConnection(): ConsoleConnection {
    if (this.connection === null) throw conflict('no sandbox is open: create a sandbox or open an existing one first');
    return this.connection;
  }

  private async callEngine(name: OperationName, input: unknown): Promise<unknown> {
    const connection = this.requireConnection();
    if (!connection.capabilities.operations.includes(name)) {
      throw new EngineError(
        'forbidden',
        `this connection does not offer ${name} (granted scopes: ${connection.capabilities.scopes.join(', ') || 'none'})`,
      );
    }
    const output: unknown = await connection.client.call(name, input as never, connection.context);
    this.afterEngineCall(connection, name, output);
    this.keepRun(connection, name, input, output);
    return output;
  }

  /** Every evaluation, calibration, estimate and audit estimate asked through the console is kept (saved-runs.ts). */
  private keepRun(connection: ConsoleConnection, name: OperationName, input: unknown, output: unknown): void {
    const kind = KEPT_RUNS[name];
    if (kind === undefined) return;
    try {
      const key = connection.storageKey();
      const actor = connection.context.actor;
      if (kind === 'evaluation') this.runs.save(key, { kind, request: input as never, report: output as never }, actor);
      else this.runs.save(key, { kind, request: input as never, output: output as never }, actor);
    } catch (error) {
      // The run itself succeeded (and is audited); say so rather than lose the report's existence silently.
      throw new EngineError(
        'internal',
        `the ${kind} ran, but it could not be kept in the console's data folder (${error instanceof Error ? error.name : 'error'}); check that ${this.options.dataFolder} is writable`,
      );
    }
  }

  /** Jobs the renderer has just seen or started are watched, so their updates are pushed. */
  private afterEngineCall(connection: ConsoleConnection, name: OperationName, output: unknown): void {
    if ('startsJob' in operations[name]) {
      connection.jobQueued((output as { jobId: string }).jobId);
      void this.watcher.watch((output as { jobId: string }).jobId).catch(() => undefined);
    } else if (name === 'jobs/get') this.watcher.observe(output as JobState);
    else if (name === 'jobs/list') for (const job of (output as { rows: JobState[] }).rows) this.watcher.observe(job);
    else if (name === 'jobs/cancel') this.watcher.nudge();
  }

  /**
   * Opens a sandbox file and makes it the current connection (the previous one closes after); `early`, an engine
   * thread started at launch, becomes its first engine thread. The file is checked now; its engine threads open it
   * in the background, and the first calls wait for them.
   */
  async openSandbox(path: string, tenantId?: string, early?: EarlyEngineThread): Promise<void> {
    // The hooks run later (thread messages), once `connection` is assigned; a replaced connection is ignored.
    const hooks = {
      onWorkerStatus: () => {
        if (this.connection === connection) this.emit('connection/changed', this.status());
      },
      onJobActivity: () => {
        if (this.connection === connection) this.watcher.nudge();
      },
    };
    const connection: LocalSandboxConnection = LocalSandboxConnection.open(path, tenantId, this.actor, hooks, early);
    this.recent.remember(path, connection.context.tenantId);
    await this.replaceConnection(connection);
  }

  /** Connects to a remote registry with a session's tokens; the previous connection closes after. */
  async connectRemote(session: StoredSession, onConnected: () => void = () => undefined): Promise<void> {
    const connection = await RemoteRegistryConnection.connect({
      session,
      store: this.tokenStore,
      ...(this.options.registryCa === undefined ? {} : { ca: this.options.registryCa }),
    });
    if (this.closed) {
      await connection.close();
      return;
    }
    onConnected();
    try {
      this.recentRegistries.remember({
        baseUrl: session.baseUrl,
        method: session.method,
        issuer: session.issuer ?? null,
        clientId: session.clientId ?? null,
        resource: session.resource ?? null,
      });
    } catch {
      // Not remembering where we connected is no reason to refuse the connection.
    }
    await this.replaceConnection(connection);
  }

  private async useToken(input: z.output<typeof UseTokenInputSchema>): Promise<void> {
    this.cancelSignIn();
    this.signIn = null;
    await this.connectRemote({ baseUrl: input.baseUrl, method: 'token', accessToken: input.token, identity: null });
  }

  private cancelSignIn(): void {
    this.pendingSignIn?.cancel();
    this.pendingSignIn = null;
  }

  /**
   * Starts a sign-in: the authorization URL is ready (and the system browser opened on it) when this returns;
   * the rest happens when the browser comes back, and ends in connection/changed (connected, or the failure
   * and what to do in status.signIn).
   */
  private async startSignIn(input: z.output<typeof SignInInputSchema>): Promise<void> {
    this.cancelSignIn();
    const request = {
      issuer: input.issuer,
      clientId: input.clientId,
      ...(input.resource === undefined || input.resource === '' ? {} : { resource: input.resource }),
    };
    const pending = await beginSignIn(
      request,
      this.options.signInTimeoutMs === undefined ? {} : { timeoutMs: this.options.signInTimeoutMs },
    );
    this.pendingSignIn = pending;
    this.signIn = {
      state: 'waiting',
      baseUrl: input.baseUrl,
      authorizationUrl: pending.authorizationUrl,
      message: null,
    };
    this.emit('connection/changed', this.status());
    void (async () => {
      try {
        const signedIn = await pending.result;
        if (this.pendingSignIn !== pending) return;
        await this.connectRemote({ baseUrl: input.baseUrl, method: 'sign-in', ...request, ...signedIn }, () => {
          this.pendingSignIn = null;
          this.signIn = null;
        });
      } catch (error) {
        if (this.pendingSignIn !== pending || this.closed) return;
        this.pendingSignIn = null;
        this.signIn = {
          state: 'failed',
          baseUrl: input.baseUrl,
          authorizationUrl: null,
          message: toErrorData(error).message,
        };
        this.emit('connection/changed', this.status());
      }
    })();
    try {
      await this.options.openExternal?.(pending.authorizationUrl);
    } catch {
      // The page shows the link to open by hand.
    }
  }

  private async replaceConnection(next: ConsoleConnection | null): Promise<void> {
    const previous = this.connection;
    this.connection = next;
    this.watcher.use(
      next === null
        ? undefined
        : {
            get: (jobId) => next.client.call('jobs/get', { jobId }, next.context),
            ...(next.capabilities.operations.includes('jobs/list')
              ? { list: async () => (await next.client.call('jobs/list', { limit: 50 }, next.context)).rows }
              : {}),
          },
    );
    this.emit('connection/changed', this.status());
    await previous?.close();
  }

  private async createSandbox(input: z.output<typeof CreateSandboxInputSchema>): Promise<void> {
    if (this.creation !== null)
      throw conflict(`a sandbox is already being created at ${this.creation.path}; wait for it to finish`);
    const creation = new SandboxCreation(input, this.actor, (progress) => {
      this.creating = sandboxCreationEnded(progress.stage) ? null : progress;
      this.emit('sandbox/progress', progress);
    });
    this.creation = creation;
    try {
      await creation.run();
      this.creating = null;
      await this.openSandbox(creation.path, input.tenantId);
      this.emit('sandbox/progress', { path: creation.path, stage: 'done', done: 0, total: 0, message: null });
    } finally {
      this.creation = null;
      this.creating = null;
    }
  }

  /**
   * At start: the sandbox named on the command line, else the most recent one that still exists. A recent
   * sandbox that no longer opens is left for the user to choose again (the console starts unconnected). `early`, an
   * engine thread the host started before it loaded the console, serves the sandbox opened here; it is stopped when
   * none is.
   */
  async start(sandbox?: { path: string; tenantId?: string }, early?: EarlyEngineThread): Promise<void> {
    try {
      await this.openAtStart(sandbox, early);
    } finally {
      await early?.stop();
    }
  }

  private async openAtStart(
    sandbox: { path: string; tenantId?: string } | undefined,
    early: EarlyEngineThread | undefined,
  ): Promise<void> {
    if (sandbox !== undefined) {
      await this.openSandbox(sandbox.path, sandbox.tenantId, early);
      return;
    }
    // A remote session kept (encrypted) from the last run comes first; one that cannot be read means sign in again.
    const kept = this.tokenStore.load();
    if (kept.state === 'unreadable') {
      this.tokenStore.clear();
      this.signIn = { state: 'failed', baseUrl: '', authorizationUrl: null, message: kept.message };
    } else if (kept.state === 'ok') {
      try {
        await this.connectRemote(kept.session);
        return;
      } catch (error) {
        this.signIn = {
          state: 'failed',
          baseUrl: kept.session.baseUrl,
          authorizationUrl: null,
          message: toErrorData(error).message,
        };
      }
    }
    const latest = this.recent.list().find((entry) => entry.exists);
    if (latest === undefined) return;
    try {
      await this.openSandbox(latest.path, latest.tenantId, early);
    } catch {
      // Shown as "not connected", with the recent list to choose from.
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher.close();
    this.cancelSignIn();
    await this.creation?.abandon();
    await this.connection?.close();
    this.connection = null;
    this.listeners.clear();
  }
}
