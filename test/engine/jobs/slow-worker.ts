/**
 * A real worker process whose batches are made slow through the runner's test hook, for the lease tests:
 *
 *   slow-worker.ts DB pause MS   every batch waits MS milliseconds (asynchronously) before its write
 *   slow-worker.ts DB spin MS    every batch blocks the event loop for MS milliseconds before its write
 *
 * It serves the jobs-test tenant with the configuration file's Maintenance settings until SIGTERM, printing
 * one JSON line per worker event.
 */
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';

const [dbPath, mode, msText] = process.argv.slice(2);
if (dbPath === undefined || (mode !== 'pause' && mode !== 'spin') || msText === undefined) {
  throw new Error('usage: slow-worker.ts DB pause|spin MS');
}
const ms = Number(msText);
const engine = LocalEngine.open({ dbPath });
const controller = new AbortController();
process.once('SIGTERM', () => {
  controller.abort();
});

function spin(forMs: number): void {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    // Busy on purpose: a batch whose work keeps the event loop from running anything else.
  }
}

await runWorker(engine.env, {
  tenants: ['jobs-test'],
  signal: controller.signal,
  onEvent: (event) => process.stdout.write(JSON.stringify(event) + '\n'),
  hooks: {
    beforeWrite: async () => {
      if (mode === 'spin') spin(ms);
      else await new Promise((resolve) => setTimeout(resolve, ms));
    },
  },
});
engine.close();
