/**
 * `npm start`: the console in the user's browser (bin.js has brought the built renderer and this host's
 * JavaScript up to date). Starts the backend (reopening the most recent sandbox, or the one given), serves
 * both on 127.0.0.1 behind a per-launch secret, prints the address and opens the browser when there is one.
 *
 *   npm start -- [--port N] [--data-dir DIR] [--sandbox FILE [--tenant ID]] [--no-open]
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { defaultDataFolder } from '../backend/data-folder.ts';
import { keepFailureLog } from '../engine-host/failure-log.ts';
import { isEngineError } from '../../engine/contract/errors.ts';
import { EarlyEngineThread } from '../engine-host/threads.ts';
import { openBrowser } from './open-browser.ts';

const USAGE = 'usage: npm start -- [--port N] [--data-dir DIR] [--sandbox FILE [--tenant ID]] [--no-open]';

export async function main(argv: readonly string[], options: { readonly staticDir: string }): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        sandbox: { type: 'string' },
        tenant: { type: 'string' },
        'no-open': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port takes a port number (0-65535)\n${USAGE}\n`);
    return 2;
  }
  const dataFolder = resolve(values['data-dir'] ?? process.env.MPI_CONSOLE_DATA_DIR ?? defaultDataFolder());
  // Before any engine thread starts: each inherits where the line for support about an unexpected failure is kept.
  keepFailureLog(dataFolder);
  // The engine thread of the sandbox the console opens loads the engine on another core while this thread loads the
  // console's backend and server (each a few hundred milliseconds; less from the bundled build); it is stopped if no
  // sandbox opens.
  const early = new EarlyEngineThread();
  const [{ ConsoleBackend }, { startBrowserHost }] = await Promise.all([
    import('../backend/console-backend.ts'),
    import('./server.ts'),
  ]);

  // Tokens of a remote registry stay in this process's memory; the sign-in page opens in the user's browser.
  const backend = new ConsoleBackend({
    dataFolder,
    ...(values['no-open'] === true ? {} : { openExternal: openBrowser }),
  });
  try {
    await backend.start(
      values.sandbox === undefined
        ? undefined
        : { path: resolve(values.sandbox), ...(values.tenant === undefined ? {} : { tenantId: values.tenant }) },
      early,
    );
  } catch (error) {
    process.stderr.write(
      `The sandbox could not be opened: ${isEngineError(error) ? error.message : 'unexpected error'}\n`,
    );
    await backend.close();
    return 1;
  }
  const host = await startBrowserHost({ backend, staticDir: options.staticDir, port });

  const status = backend.status();
  const lines = [
    `MPI Console: ${host.launchUrl}`,
    status.connection === null
      ? `No sandbox yet: open the address to create one with synthetic people (default folder ${dataFolder}).`
      : status.connection.kind === 'local-sandbox'
        ? `Sandbox: ${status.connection.path} (tenant ${status.connection.tenantId})`
        : `Registry: ${status.connection.baseUrl} (tenant ${status.connection.tenantId})`,
    "The address holds this launch's secret: do not share it. Press Ctrl+C to stop.",
  ];
  process.stdout.write(lines.join('\n') + '\n');
  if (values['no-open'] !== true && !(await openBrowser(host.launchUrl))) {
    process.stdout.write('(No browser could be opened here: open the address above in yours.)\n');
  }

  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stdout.write('Stopping: the running batch finishes and its lease is released…\n');
  await host.close();
  await backend.close();
  return 0;
}
