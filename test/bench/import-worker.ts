/**
 * The import bench's child process, so the loopback FHIR server (in the parent) and the import each have a
 * core:
 *   fhir DB          queues a reconciliation importing from the registry's configured source and runs it
 *                    with the engine's worker; prints the Importing phase's time from its stored timestamps
 *   ndjson DB FILE   ingests the same Patients from an NDJSON file through the `ingest` path
 */
import { createReadStream } from 'node:fs';
import { LocalEngine } from '../../engine/local-engine.ts';
import { ingestStream } from '../../engine/operations/ingest.ts';
import { runWorker } from '../../engine/jobs/worker.ts';
import { peakRssMiB } from './measure.ts';

const [mode, db = '', file = ''] = process.argv.slice(2);
const TENANT = 'import-test';
const CTX = { tenantId: TENANT, actor: 'bench' };
const SOURCE = 'st-marys-hospital';

const engine = LocalEngine.open({ dbPath: db, create: false });
try {
  if (mode === 'fhir') {
    const { jobId } = await engine.call(
      'maintenance/reconcile',
      { reason: 'bench', batchSize: 25, externalSourceSystem: SOURCE },
      CTX,
    );
    await runWorker(engine.env, { tenants: [TENANT], once: true });
    const job = await engine.call('jobs/get', { jobId }, CTX);
    if (job.status !== 'completed') throw new Error(`bench import ended ${job.status}: ${job.error ?? ''}`);
    const importing = job.phases[0];
    if (importing?.startedAt == null || importing.finishedAt == null) throw new Error('no importing phase times');
    const wallMs = Date.parse(importing.finishedAt) - Date.parse(importing.startedAt);
    process.stdout.write(
      JSON.stringify({ patients: importing.processed, wallMs, counters: job.counters, peakRssMiB: peakRssMiB() }) +
        '\n',
    );
  } else if (mode === 'ndjson') {
    const start = performance.now();
    const report = await ingestStream(engine.env, CTX, SOURCE, createReadStream(file));
    const wallMs = performance.now() - start;
    process.stdout.write(
      JSON.stringify({
        patients: report.created + report.updated + report.unchanged,
        wallMs,
        rejected: report.rejected.length,
        peakRssMiB: peakRssMiB(),
      }) + '\n',
    );
  } else throw new Error(`unknown mode ${mode ?? ''}`);
} finally {
  engine.close();
}
