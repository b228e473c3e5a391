/**
 * Real child processes for the tests: the mpi-console executable run asynchronously (so many can run at once), the
 * CLI run with its peak memory reported (cli-peak-rss.ts), and a helper process that holds a database's write lock
 * until it is told to let go.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { reportedPeakRssMiB } from './peak-rss.ts';

export const BIN = fileURLToPath(new URL('../../main/cli/bin.js', import.meta.url));
const HOLDER = fileURLToPath(new URL('./hold-write-lock.ts', import.meta.url));
const PEAK_RSS_HARNESS = fileURLToPath(new URL('./cli-peak-rss.ts', import.meta.url));

export interface ProcessResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

function collect(child: ChildProcess): Promise<ProcessResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status, signal) => {
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** The CLI as its own process: `program` is what node runs before the CLI's arguments (the executable by default). */
function spawnCli(
  args: readonly string[],
  options: RunOptions,
  program: readonly string[] = [BIN],
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, [...program, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    env: { ...process.env, MPI_TENANT: '', MPI_DB: '', ...options.env },
  });
}

/** Runs `mpi-console args` as its own process; MPI_TENANT and MPI_DB are cleared unless given. */
export function runProcess(args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  return collect(spawnCli(args, options));
}

/** Starts `mpi-console args`; output() is what it printed so far, done its result, child the process (to signal it). */
export function startProcess(
  args: readonly string[],
  options: RunOptions = {},
): { output: () => string; done: Promise<ProcessResult>; child: ChildProcess } {
  const child = spawnCli(args, options);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { output: () => output, done: collect(child), child };
}

/**
 * Runs the CLI as its own process through cli-peak-rss.ts and reads the peak memory it reported of itself (in MiB).
 * MPI_TENANT and MPI_DB are cleared unless given. The promise starts the process at once, so a caller can feed it
 * (a named pipe) before awaiting it.
 */
export async function runProcessWithPeakRss(
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProcessResult & { readonly peakRssMiB: number }> {
  const result = await collect(spawnCli(args, options, ['--import', 'tsx', PEAK_RSS_HARNESS]));
  return { ...result, peakRssMiB: reportedPeakRssMiB(result.stderr) };
}

export interface WriteLockHolder {
  /** Commits the holder's empty transaction and waits for it to exit. */
  release(): Promise<void>;
}

/** A separate process that opens dbPath and holds its write lock (BEGIN IMMEDIATE) until released. */
export async function holdWriteLock(dbPath: string): Promise<WriteLockHolder> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dbPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  const done = collect(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`the lock holder exited early (${String(code)})`));
    });
  });
  return {
    release: async () => {
      child.stdin.end('release\n');
      const result = await done;
      if (result.status !== 0) throw new Error(`the lock holder failed: ${result.stderr}`);
    },
  };
}
