import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/** A fresh temp folder per call, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mpi-test-'));
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A fresh temp folder for a whole describe block (or file), removed after all its tests. */
export function suiteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mpi-test-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
