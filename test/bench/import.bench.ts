/**
 * FHIR import speed: 10,000 Patients imported with matching from the loopback FHIR server (medplum over HTTPS,
 * OAuth client credentials with JWT access tokens checked on every page, HAPI-style paging, PageSize 1000),
 * beside the same Patients (the JSON the server serves) ingested from an NDJSON file, in the same run. Each
 * import runs in its own process on a fresh registry; the servers run in this one.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './rows.ts';
import { makeRegistry, setMaintenance, sourceEntry, sourcePatients, startWorld } from '../helpers/fhir/world.ts';
import { BASE_PATH } from '../helpers/fhir/fhir-server.ts';

const WORKER = fileURLToPath(new URL('./import-worker.ts', import.meta.url));
const PATIENTS = 10_000;
const PAGE_SIZE = 1000;
const TARGET = 2000;

interface Figures {
  patients: number;
  wallMs: number;
  peakRssMiB: number;
  counters?: Record<string, number>;
}

/** Async, so the servers in this process keep answering while the child imports. */
function child(args: readonly string[]): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('close', (code) => {
      if (code !== 0) reject(new Error(`import bench child exited ${String(code)}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Figures);
    });
  });
}

export async function benchImport(): Promise<BenchRow[]> {
  const world = await startWorld();
  try {
    const served = await world.fhir.seed(sourcePatients(PATIENTS));
    const ndjson = join(world.dir, 'patients.ndjson');
    writeFileSync(ndjson, served.map((p) => JSON.stringify(p)).join('\n') + '\n');

    const fhirDb = await makeRegistry(world, 'bench-fhir');
    setMaintenance(fhirDb, {
      FhirSources: [sourceEntry(world, { BaseUrl: `${world.fhir.origin}${BASE_PATH}`, PageSize: PAGE_SIZE })],
    });
    const fhir = await child(['fhir', fhirDb]);
    const fileDb = await makeRegistry(world, 'bench-file');
    const file = await child(['ndjson', fileDb, ndjson]);

    const fhirRate = (fhir.patients * 1000) / fhir.wallMs;
    const fileRate = (file.patients * 1000) / file.wallMs;
    return [
      {
        name: `FHIR import with matching, ${String(PATIENTS / 1000)}k Patients (HTTPS, client credentials, pages of ${String(PAGE_SIZE)})`,
        value: fhirRate,
        unit: 'patients/s',
        ceiling: fileRate,
        ceilingName: 'the same Patients ingested from an NDJSON file',
        note: `target ≥ ${String(TARGET)} patients/s; importing phase ${(fhir.wallMs / 1000).toFixed(1)} s; imported ${String(fhir.counters?.imported ?? 0)}; review cases ${String(fhir.counters?.reviewCreated ?? 0)}`,
      },
      {
        name: 'FHIR import, 10k: peak RSS',
        value: fhir.peakRssMiB,
        unit: 'MiB',
        ceiling: file.peakRssMiB,
        ceilingName: 'NDJSON ingest of the same Patients',
      },
    ];
  } finally {
    await world.close();
  }
}
