/**
 * `mpi-console serve`: the registry API over the engine pool (main/engine-host/pool.ts: engine threads, so the
 * thread answering requests only authenticates, routes and sends), with the job worker in a thread of its own
 * when asked (`--worker`; a separate `mpi-console worker` on the same database works as well). stop() is the
 * graceful shutdown: the server stops accepting and finishes in-flight requests, then cancels the tracked runs
 * nobody waits for, while the worker stops after the batch in progress and releases its lease, so a running job resumes
 * under the next worker.
 */
import type { Logger } from 'pino';
import { maintenanceSettings, ApiSettingsSchema, type LocalEngine } from '../../engine/index.ts';
import { validationError } from '../../engine/contract/errors.ts';
import { EnginePool } from '../engine-host/pool.ts';
import { EmbeddedWorker } from '../engine-host/embedded-worker.ts';
import { isLoopbackHost } from '../net/loopback.ts';
import { buildApi } from './app.ts';
import { authenticatorFor } from './auth/authenticator.ts';
import { apiLogger } from './logging.ts';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly worker: boolean;
  readonly devAuth: boolean;
  readonly tls?: { readonly key: Buffer; readonly cert: Buffer };
  /** Development only: plain http on an address other than loopback. */
  readonly allowInsecureHttp: boolean;
  readonly logger?: Logger;
  /** Engine threads for long calls (default: by the machine's cores). */
  readonly longThreads?: number;
}

export interface RunningApi {
  readonly url: string;
  /** Graceful shutdown; resolves when the server is closed and the worker has released its job. */
  stop(): Promise<void>;
}

export async function startServe(engine: LocalEngine, options: ServeOptions): Promise<RunningApi> {
  const loopback = isLoopbackHost(options.host);
  if (options.devAuth && !loopback) {
    throw validationError('--dev-auth is refused unless the server is bound to a loopback address', [
      {
        path: '--host',
        message:
          'use 127.0.0.1, ::1 or localhost with --dev-auth; configure Api.Issuer and Api.Audience for any other address',
      },
    ]);
  }
  if (options.tls === undefined && !loopback && !options.allowInsecureHttp) {
    throw validationError(
      'plain http is refused on an address other than loopback: bearer tokens would cross the network in clear',
      [
        {
          path: '--host',
          message:
            'give --tls-cert and --tls-key, bind 127.0.0.1 behind a TLS proxy, or (development only) --allow-insecure-http',
        },
      ],
    );
  }
  const settings = engine.env.settings();
  if (options.worker && !maintenanceSettings(settings).WorkerEnabled) {
    throw validationError(
      `Maintenance.WorkerEnabled is false in ${engine.env.settingsPath}; set it to true or serve without --worker`,
    );
  }
  const logger = options.logger ?? apiLogger();
  const authenticator = await authenticatorFor(engine.env, options.devAuth);
  if (engine.env.store.path === ':memory:')
    throw validationError(
      'serve needs a database file: an in-memory database cannot be shared with the engine threads',
      [{ path: '--db', message: 'give a file' }],
    );
  const pool = await EnginePool.open({
    dbPath: engine.env.store.path,
    settingsPath: engine.env.settingsPath,
    ...(options.longThreads === undefined ? {} : { longThreads: options.longThreads }),
  });
  const app = buildApi({
    engine: pool,
    authenticator,
    logger,
    tenantClaim: (settings.Api ?? ApiSettingsSchema.parse({})).TenantClaim,
    ...(options.tls === undefined ? {} : { https: options.tls }),
  });
  const url = await app.listen({ host: options.host, port: options.port });
  logger.info({ url, worker: options.worker, devAuth: options.devAuth }, 'listening');
  // The line that says where the server is must not wait in the log buffer.
  logger.flush();

  const worker = options.worker
    ? new EmbeddedWorker(
        { dbPath: engine.env.store.path, tenants: 'all', settingsPath: engine.env.settingsPath },
        {
          onStatus: (status) => {
            if (status.state === 'failed')
              logger.error({ worker: status }, 'the worker stopped on an error; jobs wait for another worker');
          },
          onJobActivity: () => undefined,
          onEvent: (event) => {
            logger.info({ worker: event }, `worker ${event.type}`);
          },
        },
      )
    : undefined;
  return {
    url,
    stop: async () => {
      // The operator sees at once that shutdown began (in-flight requests may take a while to finish).
      logger.info('stopping');
      logger.flush();
      const stopping = worker?.stop();
      // In-flight requests finish (a synchronous evaluation included); then the runs nobody waits for are cancelled.
      await app.close();
      await pool.close();
      await stopping;
      logger.info('stopped');
      logger.flush();
    },
  };
}
