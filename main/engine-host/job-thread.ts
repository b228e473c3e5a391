/**
 * The maintenance worker in a worker thread: the engine's own worker loop (the same code as `mpi-console worker`)
 * on its own SQLite connection, serving a sandbox's tenant (the console) or every tenant (`serve --worker`). It reports
 * job activity so the backend's watcher pushes fresh state at once, wakes early when the console queues a job, and on
 * `stop` finishes the batch in progress and releases its lease, so nothing is left half-claimed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LocalEngine, runWorker, maintenanceSettings } from '../../engine/index.ts';
import { toErrorData } from './errors.ts';
import type { JobThreadCommand, JobThreadData, JobThreadMessage } from './messages.ts';
import { startMetricsExport } from './telemetry.ts';

const port = parentPort;
if (port === null) throw new Error('job-thread runs as a worker thread');
const data = workerData as JobThreadData;
const post = (message: JobThreadMessage): void => {
  port.postMessage(message);
};

const controller = new AbortController();
let wakePending = false;
let wakeIdle: (() => void) | undefined;

port.on('message', (command: JobThreadCommand) => {
  if (command.type === 'stop') controller.abort();
  else if (wakeIdle === undefined) wakePending = true;
  else wakeIdle();
});

/** Waits for the poll interval, a wake-up (a job was queued) or the stop signal, whichever comes first. */
function idle(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (wakePending || signal?.aborted === true) {
      wakePending = false;
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      wakeIdle = undefined;
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakeIdle = done;
    signal?.addEventListener('abort', done, { once: true });
  });
}

const stopMetrics = await startMetricsExport('jobs');
let engine: LocalEngine | undefined;
try {
  engine = LocalEngine.open({
    dbPath: data.dbPath,
    create: false,
    ...(data.settingsPath === undefined ? {} : { settingsPath: data.settingsPath }),
  });
  const settings = maintenanceSettings(engine.env.settings());
  if (!settings.WorkerEnabled) {
    post({
      type: 'disabled',
      message: `Maintenance.WorkerEnabled is false in ${engine.env.settingsPath}: jobs stay queued. Set it to true and reopen the sandbox to run them.`,
    });
  } else {
    await runWorker(engine.env, {
      tenants: data.tenants,
      maintenance: settings,
      signal: controller.signal,
      idle,
      onEvent: (event) => {
        post({ type: 'event', event });
        if (event.type === 'started') post({ type: 'running' });
        else if (event.type === 'claimed' || event.type === 'finished' || event.type === 'scheduled')
          post({ type: 'activity', jobId: event.jobId });
      },
      hooks: {
        afterCommit: (info) => {
          post({ type: 'activity', jobId: info.jobId });
        },
      },
    });
    post({ type: 'stopped' });
  }
} catch (error) {
  post({ type: 'failed', error: toErrorData(error) });
} finally {
  engine?.close();
  await stopMetrics?.();
  // The command listener would keep the thread alive: with the worker loop over, let it exit.
  port.unref();
}
