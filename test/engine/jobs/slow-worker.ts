/**
 * A real worker process whose batches are made slow through the runner's test hook, for the lease tests:
 *
 *   slow-worker.ts DB pause MS [CONFIG]        every batch waits MS milliseconds (asynchronously) before its write
 *   slow-worker.ts DB spin MS [CONFIG]         every batch blocks the event loop for MS milliseconds before its write
 *   slow-worker.ts DB spin-until FILE [CONFIG] its first batch blocks the event loop until FILE exists (the test
 *                                              creates it once another replica has taken the job over: ordered by
 *                                              events, not by a duration a slow machine may outlast)
 *   slow-worker.ts DB spin-until-taken JOB     every batch blocks the event loop until another worker has claimed
 *                                              job JOB since the batch's write was due (SQLite): no batch ever
 *                                              commits, however slowly the other worker starts
 *
 * DB is a SQLite file or a PostgreSQL URL (whose configuration file CONFIG names).
 *
 * It serves the jobs-test tenant with the configuration file's Maintenance settings until SIGTERM, printing
 * one JSON line per worker event.
 */
import { existsSync } from 'node:fs';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { jobClaims, TENANT } from './job-claims.ts';

/** The third argument: milliseconds (pause, spin), the marker file's path (spin-until) or the job ID (spin-until-taken). */
const [dbPath, mode, arg, config] = process.argv.slice(2);
const MODES = ['pause', 'spin', 'spin-until', 'spin-until-taken'];
if (dbPath === undefined || mode === undefined || !MODES.includes(mode) || arg === undefined) {
  throw new Error(
    'usage: slow-worker.ts DB pause|spin MS [CONFIG], DB spin-until FILE [CONFIG], or DB spin-until-taken JOB',
  );
}
const ms = Number(arg);
const engine = LocalEngine.open({ dbPath, ...(config === undefined ? {} : { settingsPath: config }) });
let batches = 0;
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

/** Blocks the event loop (no timer, no lease renewal runs) until `done` holds, at most ten minutes. */
function blockUntil(done: () => boolean): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + 600_000;
  while (!done() && Date.now() < until) Atomics.wait(nap, 0, 0, 20);
}

/** Blocks the event loop until another worker has claimed job `jobId` since now. */
function blockUntilTaken(jobId: string): void {
  const claims = jobClaims(dbPath ?? '', jobId);
  blockUntil(() => jobClaims(dbPath ?? '', jobId) !== claims);
}

await runWorker(engine.env, {
  tenants: [TENANT],
  signal: controller.signal,
  onEvent: (event) => process.stdout.write(JSON.stringify(event) + '\n'),
  hooks: {
    beforeWrite: async () => {
      batches += 1;
      if (mode === 'spin-until' && batches === 1) blockUntil(() => existsSync(arg));
      else if (mode === 'spin-until-taken') blockUntilTaken(arg);
      else if (mode === 'spin') spin(ms);
      else if (mode === 'pause') await new Promise((resolve) => setTimeout(resolve, ms));
    },
  },
});
engine.close();
