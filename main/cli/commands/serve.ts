/**
 * `serve`: the registry API over --db until SIGTERM/SIGINT, then a graceful shutdown (in-flight requests
 * finish, a running job's lease is released so it resumes under the next worker). JSON log lines go to
 * standard output.
 */
import { readFileSync } from 'node:fs';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { startServe } from '../../api/serve.ts';

function readPem(cli: CliContext, name: string): Buffer {
  const file = cli.required(name);
  try {
    return readFileSync(file);
  } catch {
    throw usage(`--${name} ${file} cannot be read`);
  }
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.removeListener('SIGINT', done);
      process.removeListener('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function serveCommand(cli: CliContext): Promise<number> {
  if (cli.positionals.length > 0)
    throw usage('serve takes no arguments: mpi-console serve [--host H] [--port P] [--worker] [--dev-auth]');
  const port = cli.integer('port', 8080);
  if (port < 0 || port > 65_535) throw usage('--port is 0-65535 (0: any free port)');
  const hasCert = cli.string('tls-cert') !== undefined;
  if (hasCert !== (cli.string('tls-key') !== undefined)) throw usage('--tls-cert and --tls-key go together');
  const signal = untilSignal();
  const running = await startServe(cli.engine, {
    host: cli.string('host') ?? '127.0.0.1',
    port,
    worker: cli.values.worker === true,
    devAuth: cli.values['dev-auth'] === true,
    allowInsecureHttp: cli.values['allow-insecure-http'] === true,
    ...(hasCert ? { tls: { cert: readPem(cli, 'tls-cert'), key: readPem(cli, 'tls-key') } } : {}),
  });
  await signal;
  await running.stop();
  return 0;
}
