/**
 * Creates a sandbox file in a worker thread (generation and ingestion take seconds to minutes), reporting
 * progress chunk by chunk. The parent deletes the files if this fails, so nothing partial is left.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LocalEngine, createSandbox } from '../../engine/index.ts';
import { operations } from '../../engine/contract/operations.ts';
import { toErrorData } from './errors.ts';
import type { SandboxThreadData, SandboxThreadMessage } from './messages.ts';

const port = parentPort;
if (port === null) throw new Error('sandbox-thread runs as a worker thread');
const data = workerData as SandboxThreadData;
const post = (message: SandboxThreadMessage): void => {
  port.postMessage(message);
};

let engine: LocalEngine | undefined;
try {
  engine = LocalEngine.open({ dbPath: data.dbPath });
  const input = operations['sandbox/create'].input.parse({ syntheticPeople: data.syntheticPeople, seed: data.seed });
  await createSandbox(engine.env, input, { tenantId: data.tenantId, actor: data.actor }, (progress) => {
    post({ type: 'progress', ...progress });
  });
  post({ type: 'done' });
} catch (error) {
  post({ type: 'failed', error: toErrorData(error) });
} finally {
  engine?.close();
}
