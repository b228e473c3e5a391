/**
 * An engine thread: the local engine on its own SQLite connection (WAL readers run beside each other; writers wait
 * for the write lock up to the busy timeout, as every process does), answering one call at a time. A long call
 * reports progress and stops at its next step once the host sets its cancel flag (engine/run-control.ts).
 *
 * The thread loads the engine first and opens the registry when its first message says which: a host can start a
 * thread before it knows the registry, so that loading runs beside its own (threads.ts, startEngineThread).
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { LocalEngine, flagControl, NO_CONTROL } from '../../engine/index.ts';
import { EngineError } from '../../engine/contract/errors.ts';
import type { OperationName } from '../../engine/contract/operations.ts';
import { bodyInput } from '../net/json-body.ts';
import { toErrorData } from './errors.ts';
import type { EngineCallMessage, EngineThreadCommand, EngineThreadData, EngineThreadMessage } from './messages.ts';
import { startMetricsExport } from './telemetry.ts';

if (parentPort === null) throw new Error('engine-thread runs as a worker thread');
const port: MessagePort = parentPort;
const post = (message: EngineThreadMessage): void => {
  port.postMessage(message);
};

const stopMetrics = await startMetricsExport('engine');
let engine: LocalEngine | undefined;

function open(data: EngineThreadData): void {
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
}

function close(): void {
  engine?.close();
  // The last figures reach the collector before the thread goes.
  void (stopMetrics?.() ?? Promise.resolve()).finally(() => {
    port.close();
  });
}

function call(message: EngineCallMessage, opened: LocalEngine): void {
  const { id } = message;
  const control =
    message.cancel === undefined
      ? NO_CONTROL
      : flagControl(new Int32Array(message.cancel), (phase, done, total) => {
          post({ type: 'progress', id, phase, done, total });
        });
  let input: unknown;
  try {
    // A large request body comes as its bytes, parsed here rather than on the thread that answers requests.
    input = message.body === undefined ? message.input : bodyInput(message.name, message.body);
  } catch (error) {
    post({ type: 'failed', id, error: toErrorData(error) });
    return;
  }
  opened.call(message.name as OperationName, input as never, message.ctx, control).then(
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
}

// One listener for every message, so none is lost between the opening and the first call (the pool may hand a
// call to a thread right after telling it what to open).
port.on('message', (message: EngineThreadCommand | EngineCallMessage) => {
  switch (message.type) {
    case 'open':
      open(message.data);
      return;
    case 'close':
      close();
      return;
    case 'call':
      if (engine === undefined) {
        post({
          type: 'failed',
          id: message.id,
          error: toErrorData(
            new EngineError('internal', 'the engine thread was given a call before the registry to open'),
          ),
        });
        return;
      }
      call(message, engine);
      return;
  }
});
