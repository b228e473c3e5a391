import { Writable } from 'node:stream';
import type { LocalEngine } from '../../engine/local-engine.ts';
import type { HttpRoute } from '../../main/net/api-routes.ts';
import { buildApi } from '../../main/api/app.ts';
import { authenticatorFor } from '../../main/api/auth/authenticator.ts';
import { devSigningKey, devToken } from '../../main/api/auth/dev-auth.ts';
import type { Authenticator } from '../../main/api/auth/principal.ts';
import { apiLogger } from '../../main/api/logging.ts';
import { startServe, type RunningApi } from '../../main/api/serve.ts';
import { EnginePool, type EnginePoolOptions } from '../../main/engine-host/pool.ts';

/** Every log line the server wrote, as text (JSON lines). */
export class LogLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.lines.push(String(chunk));
    callback();
  }

  get text(): string {
    return this.lines.join('');
  }
}

export interface ServedApi {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly logs: LogLines;
  stop(): Promise<void>;
}

export interface DevTokenOptions {
  readonly tenantId?: string;
  readonly ttlSeconds?: number;
  readonly clientId?: string;
}

/** A token the development issuer of this engine's configuration file signs (what `mpi-console token` prints). */
export async function devTokenFor(
  engine: LocalEngine,
  scopes: readonly string[] = ['mpi.admin', 'mpi.operations'],
  options: DevTokenOptions = {},
): Promise<string> {
  return devToken(await devSigningKey(engine.env), {
    tenantId: options.tenantId ?? 't1',
    scopes,
    ttlSeconds: options.ttlSeconds ?? 3600,
    clientId: options.clientId ?? 'test-client',
  });
}

/**
 * The API on a loopback port over this engine's registry, as `serve` runs it: behind an engine pool (its own
 * threads and connections on the same database file), dev-auth unless an authenticator is given.
 */
export async function serveApi(
  engine: LocalEngine,
  options: {
    routes?: readonly HttpRoute[];
    authenticator?: Authenticator;
    bodyLimitBytes?: number;
    pool?: Partial<EnginePoolOptions>;
  } = {},
): Promise<ServedApi & { pool: EnginePool }> {
  const logs = new LogLines();
  const pool = await EnginePool.open({
    dbPath: engine.env.store.path,
    settingsPath: engine.env.settingsPath,
    ...options.pool,
  });
  const app = buildApi({
    engine: pool,
    authenticator: options.authenticator ?? (await authenticatorFor(engine.env, true)),
    logger: apiLogger(logs),
    ...(options.routes === undefined ? {} : { routes: options.routes }),
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    logs,
    pool,
    stop: async () => {
      const closing = pool.close();
      await app.close();
      await closing;
    },
  };
}

/** `serve --dev-auth [--worker]` in this process. */
export async function serveWithWorker(engine: LocalEngine): Promise<ServedApi & { running: RunningApi }> {
  const logs = new LogLines();
  const running = await startServe(engine, {
    host: '127.0.0.1',
    port: 0,
    worker: true,
    devAuth: true,
    allowInsecureHttp: false,
    logger: apiLogger(logs),
  });
  return { url: running.url, logs, running, stop: () => running.stop() };
}
