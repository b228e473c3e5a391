/**
 * An engine thread: the local engine on its own SQLite connection (WAL readers run beside each other; writers wait
 * for the write lock up to the busy timeout, as every process does), answering one call at a time. A long call
 * reports progress and stops at its next step once the host sets its cancel flag (engine/run-control.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LocalEngine, flagControl, NO_CONTROL } from '../../engine/index.ts';
import type { OperationName } from '../../engine/contract/operations.ts';
import { toErrorData } from './errors.ts';
import type { EngineCallMessage, EngineThreadData, EngineThreadMessage } from './messages.ts';
import { startMetricsExport } from './telemetry.ts';

const port = parentPort;
if (port === null) throw new Error('engine-thread runs as a worker thread');
const data = workerData as EngineThreadData;
const post = (message: EngineThreadMessage): void => {
  port.postMessage(message);
};

const stopMetrics = await startMetricsExport('engine');
let engine: LocalEngine;
try {
  engine = LocalEngine.open({
    dbPath: data.dbPath,
    create: false,
    ...(data.settingsPath === undefined ? {} : { settingsPath: data.settingsPath }),
    ...(data.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: data.busyTimeoutMs }),
    onWarning: () => undefined,
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'open-failed', error: toErrorData(error) });
  port.close();
  throw error;
}

port.on('message', (message: EngineCallMessage | { readonly type: 'close' }) => {
  if (message.type === 'close') {
    engine.close();
    // The last figures reach the collector before the thread goes.
    void (stopMetrics?.() ?? Promise.resolve()).finally(() => {
      port.close();
    });
    return;
  }
  const { id } = message;
  const control =
    message.cancel === undefined
      ? NO_CONTROL
      : flagControl(new Int32Array(message.cancel), (phase, done, total) => {
          post({ type: 'progress', id, phase, done, total });
        });
  engine.call(message.name as OperationName, message.input as never, message.ctx, control).then(
    (value) => {
      try {
        post({ type: 'done', id, value });
      } catch (error) {
        // An answer that cannot be copied back fails its call; the thread stays up for the next.
        post({ type: 'failed', id, error: toErrorData(error) });
      }
    },
    (error: unknown) => {
      post({ type: 'failed', id, error: toErrorData(error) });
    },
  );
});
