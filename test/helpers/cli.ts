import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../main/cli/main.ts';
import { tempDir } from './temp.ts';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    args,
    (t) => (stdout += t),
    (t) => (stderr += t),
  );
  return { code, stdout, stderr };
}

/** What `ingest --json` reports, as far as the tests read it. */
export interface IngestReport {
  readonly created: number;
  readonly autoLinked: number;
  readonly newIdentities: number;
  readonly reviewCasesCreated: number;
  readonly warnings: { line: number; issues: { path: string; message: string }[] }[];
}

/**
 * Patients (NDJSON) ingested from st-marys-hospital through the CLI into a new sandbox of 300 synthetic people (seed
 * 4): the command-line arguments that open it, the ingest report and its text, how many of the records whose local
 * identifiers start with `prefix` are listed, and how many identities hold them.
 */
export async function ingestIntoSandbox(
  ndjson: string,
  prefix: string,
): Promise<{ args: string[]; report: IngestReport; stdout: string; records: number; identities: number }> {
  const dir = tempDir();
  const args = ['--db', join(dir, 'registry.db'), '--tenant', 't'];
  expect((await runCli([...args, 'sandbox', 'init', '--synthetic', '300', '--seed', '4'])).code).toBe(0);
  const file = join(dir, 'patients.ndjson');
  writeFileSync(file, ndjson);
  const run = await runCli([...args, 'ingest', '--source', 'st-marys-hospital', '--ndjson', file, '--json']);
  expect(run.code, run.stderr).toBe(0);
  const report = JSON.parse(run.stdout) as IngestReport;
  const lines = (await runCli([...args, 'identities'])).stdout.split('\n').filter((l) => l.includes(`\t${prefix}`));
  return {
    args,
    report,
    stdout: run.stdout,
    records: lines.length,
    identities: new Set(lines.map((l) => l.split('\t')[2])).size,
  };
}

/** A complete `calibrate` command on a label file: every required option, smoothing 1, 30% held out, target 0.9. */
export function calibrateArgs(
  labels: string,
  options: { readonly dataset: string; readonly modelVersion: string; readonly prior: string },
): string[] {
  return [
    'calibrate',
    '--labels',
    labels,
    '--dataset',
    options.dataset,
    '--model-version',
    options.modelVersion,
    '--prior',
    options.prior,
    '--smoothing',
    '1',
    '--validation-fraction',
    '0.3',
    '--target-precision',
    '0.9',
  ];
}
