/**
 * `mpi-console serve`: the registry API over the local engine, with the job worker in the same process
 * when asked (`--worker`; a separate `mpi-console worker` on the same database works as well). stop() is the
 * graceful shutdown: the server stops accepting and finishes in-flight requests while the worker stops after
 * the batch in progress and releases its lease, so a running job resumes under the next worker.
 */
import type { Logger } from 'pino';
import type { LocalEngine } from '../../engine/local-engine.ts';
import { validationError } from '../../engine/contract/errors.ts';
import { maintenanceSettings } from '../../engine/config/maintenance.ts';
import { ApiSettingsSchema } from '../../engine/config/api.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
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
      { path: '--host', message: 'use 127.0.0.1, ::1 or localhost with --dev-auth; configure Api.Issuer and Api.Audience for any other address' },
    ]);
  }
  if (options.tls === undefined && !loopback && !options.allowInsecureHttp) {
    throw validationError('plain http is refused on an address other than loopback: bearer tokens would cross the network in clear', [
      { path: '--host', message: 'give --tls-cert and --tls-key, bind 127.0.0.1 behind a TLS proxy, or (development only) --allow-insecure-http' },
    ]);
  }
  const settings = engine.env.settings();
  if (options.worker && !maintenanceSettings(settings).WorkerEnabled) {
    throw validationError(`Maintenance.WorkerEnabled is false in ${engine.env.settingsPath}; set it to true or serve without --worker`);
  }
  const logger = options.logger ?? apiLogger();
  const authenticator = await authenticatorFor(engine.env, options.devAuth);
  const app = buildApi({
    engine,
    authenticator,
    logger,
    tenantClaim: (settings.Api ?? ApiSettingsSchema.parse({})).TenantClaim,
    ...(options.tls === undefined ? {} : { https: options.tls }),
  });
  const url = await app.listen({ host: options.host, port: options.port });
  logger.info({ url, worker: options.worker, devAuth: options.devAuth }, 'listening');
  // The line that says where the server is must not wait in the log buffer.
  logger.flush();

  const controller = new AbortController();
  const worker = options.worker
    ? runWorker(engine.env, {
        tenants: 'all',
        signal: controller.signal,
        onEvent: (event) => {
          logger.info({ worker: event }, `worker ${event.type}`);
        },
      }).catch((error: unknown) => {
        logger.error({ error: { name: error instanceof Error ? error.name : 'error' } }, 'the worker stopped on an error; jobs wait for another worker');
      })
    : Promise.resolve();
  return {
    url,
    stop: async () => {
      controller.abort();
      await app.close();
      await worker;
      logger.info('stopped');
      logger.flush();
    },
  };
}
