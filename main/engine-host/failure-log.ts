/**
 * Where the console writes the line for support about an unexpected failure: its output (the terminal that started
 * it) and, once the console has named its data folder, `console.log` there, so a console started from the desktop,
 * with no terminal, keeps it too. The file's place travels in the environment, which every engine thread inherits
 * when it starts. The lines hold a failure's name, code and frames (engine/files/unexpected-trace.ts), never its
 * text; the file keeps about the last megabyte of them (one older file beside it, `console.log.1`). Writing it never
 * fails the work it reports on.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const LOG_PLACE = 'MPI_CONSOLE_FAILURE_LOG';
export const FAILURE_LOG_NAME = 'console.log';
/** The size past which the file is set aside as `console.log.1` and a new one begun. */
export const FAILURE_LOG_BYTES = 1 << 20;

/** From now on, this process and the threads it starts also write the failure lines to the data folder's log. */
export function keepFailureLog(dataFolder: string, env: NodeJS.ProcessEnv = process.env): string {
  const path = join(dataFolder, FAILURE_LOG_NAME);
  env[LOG_PLACE] = path;
  return path;
}

/** The log file this process writes to, if the console named one. */
export function failureLogPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env[LOG_PLACE];
  return path === undefined || path === '' ? undefined : path;
}

/** One line, to standard error and to the log file when there is one, the file's line dated. */
export function writeFailureLine(line: string, env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): void {
  process.stderr.write(`mpi-console: ${line}\n`);
  const path = failureLogPath(env);
  if (path === undefined) return;
  try {
    mkdirSync(dirname(path), { recursive: true });
    if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > FAILURE_LOG_BYTES) renameSync(path, `${path}.1`);
    appendFileSync(path, `${now.toISOString()} mpi-console: ${line}\n`, { mode: 0o600 });
  } catch {
    // The terminal has the line; a log file that cannot be written (a full disk, a folder taken away) is not worth
    // failing the answer for.
  }
}
