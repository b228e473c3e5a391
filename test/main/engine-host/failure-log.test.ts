/**
 * The console's log of unexpected failures (main/engine-host/failure-log.ts): once the console names its data folder,
 * each line for support is also kept, dated, in console.log there; the file keeps about the last megabyte; a log
 * that cannot be written fails nothing; and the person is told where the line is.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../engine/contract/errors.ts';
import { toErrorData, unexpectedAdvice } from '../../../main/engine-host/errors.ts';
import {
  FAILURE_LOG_BYTES,
  failureLogPath,
  keepFailureLog,
  writeFailureLine,
} from '../../../main/engine-host/failure-log.ts';
import { scratchDir } from '../../helpers/temp.ts';

const cleanups: Array<() => void> = [];
function scratch(prefix: string): string {
  const { dir, cleanup } = scratchDir(prefix);
  cleanups.push(cleanup);
  return dir;
}
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

describe('the failure log', () => {
  it('keeps nothing until the console names its folder, then every line, dated, in console.log there', () => {
    const dir = scratch('failure-log-');
    const env: NodeJS.ProcessEnv = {};
    writeFailureLine('unexpected failure: Error at engine/store/db.js:1:1', env);
    expect(failureLogPath(env)).toBeUndefined();
    const path = keepFailureLog(join(dir, 'not-yet-made'), env);
    expect(path).toBe(join(dir, 'not-yet-made', 'console.log'));
    expect(failureLogPath(env)).toBe(path);
    writeFailureLine('unexpected failure: Error at engine/store/db.js:1:1', env, new Date('2026-12-07T23:00:00Z'));
    writeFailureLine('unexpected failure: TypeError at engine/score.js:2:3', env, new Date('2026-12-07T23:00:05Z'));
    expect(readFileSync(path, 'utf8')).toBe(
      '2026-12-07T23:00:00.000Z mpi-console: unexpected failure: Error at engine/store/db.js:1:1\n' +
        '2026-12-07T23:00:05.000Z mpi-console: unexpected failure: TypeError at engine/score.js:2:3\n',
    );
    // Readable by its owner only, as the console's other files.
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o077).toBe(0);
  });

  it('sets a full file aside as console.log.1 and begins a new one, so it keeps about the last megabyte', () => {
    const dir = scratch('failure-log-full-');
    const env: NodeJS.ProcessEnv = {};
    const path = keepFailureLog(dir, env);
    writeFileSync(path, 'x'.repeat(FAILURE_LOG_BYTES + 1));
    writeFailureLine('unexpected failure: Error at a.js:1:1', env);
    expect(statSync(`${path}.1`).size).toBe(FAILURE_LOG_BYTES + 1);
    expect(readFileSync(path, 'utf8')).toMatch(/^\S+ mpi-console: unexpected failure: Error at a\.js:1:1\n$/);
  });

  it('fails nothing when the log cannot be written', () => {
    const dir = scratch('failure-log-blocked-');
    const env: NodeJS.ProcessEnv = {};
    // The log's place taken by a folder: the line still goes to the terminal, and the caller goes on.
    const path = keepFailureLog(dir, env);
    mkdirSync(path);
    expect(() => {
      writeFailureLine('unexpected failure: Error at a.js:1:1', env);
    }).not.toThrow();
    expect(existsSync(join(path, 'console.log'))).toBe(false);
  });

  it('tells the person where the line is: the log file when the console keeps one, else its output', () => {
    expect(unexpectedAdvice('/home/ana/.local/share/mpi-console/console.log')).toBe(
      'try again, and if it fails again, give your support team the last line beginning "mpi-console: unexpected ' +
        'failure" in the console\'s log, /home/ana/.local/share/mpi-console/console.log',
    );
    expect(unexpectedAdvice(undefined)).toMatch(
      /in the output of the program that ran it \(the console's terminal, or the registry server's log\)$/,
    );
  });

  it('is where toErrorData writes an unexpected failure, with no word of its text', () => {
    const dir = scratch('failure-log-boundary-');
    const previous = process.env.MPI_CONSOLE_FAILURE_LOG;
    const path = keepFailureLog(dir);
    try {
      const data = toErrorData(new RangeError('Okafor 1971-03-02 is not a valid date'));
      expect(data.message).toBe(`the console failed unexpectedly (RangeError): ${unexpectedAdvice(path)}`);
      const kept = readFileSync(path, 'utf8');
      expect(kept).toMatch(
        /^\S+ mpi-console: unexpected failure: RangeError at test\/main\/engine-host\/failure-log\.test\.ts:/,
      );
      expect(kept).not.toMatch(/Okafor|1971/);
      // An internal error the engine made from an unexpected failure says what to do, in the console.
      const internal = new EngineError('internal', 'reviews/list failed unexpectedly (SqliteError)', [], {
        cause: new Error('SQLITE_CORRUPT near Okafor'),
      });
      expect(toErrorData(internal).message).toBe(
        `reviews/list failed unexpectedly (SqliteError): ${unexpectedAdvice(path)}`,
      );
    } finally {
      if (previous === undefined) delete process.env.MPI_CONSOLE_FAILURE_LOG;
      else process.env.MPI_CONSOLE_FAILURE_LOG = previous;
    }
  });
});
