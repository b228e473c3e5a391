/**
 * The one way tests, benches and test servers make a temporary folder. `tempDir` and `suiteDir` remove theirs
 * after the test or the suite; `scratchDir` leaves removal to its caller (a bench, a global setup, a child process's
 * lifetime) and hands it the way to do it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/** A fresh folder under the system's temp folder, named from the prefix, and how to remove it. */
export function scratchDir(prefix = 'mpi-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh temp folder per call, removed when the test that asked for it finishes. (An afterEach registered from
 * inside a test runs only after the tests that follow it: the folders of a file's last tests were left behind.)
 */
export function tempDir(): string {
  const { dir, cleanup } = scratchDir();
  onTestFinished(cleanup);
  return dir;
}

/** A fresh temp folder for a whole describe block (or file), removed after all its tests. */
export function suiteDir(): string {
  const { dir, cleanup } = scratchDir();
  afterAll(cleanup);
  return dir;
}
