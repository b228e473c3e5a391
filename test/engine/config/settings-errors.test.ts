/**
 * Configuration validation errors never echo a value of a secret section (issue 7, item 17), not even a
 * secret typed where a key belongs: a swapped key and value, a secret as a tenant, a stray top-level key.
 * Keys that are not what their position allows are shown as a placeholder; the path still locates them.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../engine/config/settings.ts';
import { isEngineError, type EngineError } from '../../../engine/contract/errors.ts';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';

const secret = (): string => randomBytes(32).toString('base64');
/** A secret of 33 bytes has no padding; without + and / it would even look like a tenant ID. */
function plainSecret(): string {
  for (;;) {
    const s = randomBytes(33).toString('base64');
    if (/^[A-Za-z0-9]+$/.test(s)) return s;
  }
}

function rejection(path: string): EngineError {
  try {
    loadSettings(path);
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration errors', () => {
  // A 33-byte secret of letters and digits is a well-formed tenant ID, so as a tenant it is (rightly) accepted.
  const cases: [string, (s: string, t: string) => unknown, boolean?][] = [
    ['a secret and its key version swapped', (s) => ({ BlockingKeys: { acme: { [s]: 'k1' } } })],
    ['a secret as a tenant', (s, t) => ({ BlockingKeys: { [s]: { k1: t } } }), false],
    ['a secret as a stray top-level key', (s, t) => ({ BlockingKeys: { acme: { k1: t } }, [s]: true })],
    ['a secret as a key in the Maintenance section', (s) => ({ BlockingKeys: {}, Maintenance: { [s]: 1 } })],
    [
      'a secret as a too-short value beside another',
      (s) => ({ BlockingKeys: { acme: { k1: s.slice(0, 20), k2: s } } }),
    ],
    [
      'a secret as a tenant of a schedule key',
      (s) => ({
        BlockingKeys: {},
        Maintenance: { ReconciliationSchedules: [{ Key: s, TenantId: s, IntervalMinutes: 0, BatchSize: 1 }] },
      }),
    ],
  ];

  it.each(cases)('never show %s, in the engine error or on the command line', async (_name, build, plain = true) => {
    const dir = tempDir();
    for (const planted of plain ? [secret(), plainSecret()] : [secret()]) {
      const other = secret();
      const path = join(dir, 'settings.config.json');
      writeFileSync(path, JSON.stringify(build(planted, other)), { mode: 0o600 });
      const error = rejection(path);
      expect(error.kind).toBe('validation');
      expect(error.issues.length).toBeGreaterThan(0);
      const text = JSON.stringify(error.toData());
      expect(text).toContain(path);
      expect(text).not.toContain(planted);
      expect(text).not.toContain(other);
      expect(text).not.toContain(planted.slice(0, 20));
      const run = await runCli(['--db', join(dir, 'settings.db'), '--config', path, 'sandbox', 'init']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/configuration file .* is invalid/);
      expect(run.stderr + run.stdout).not.toContain(planted.slice(0, 20));
      expect(run.stderr + run.stdout).not.toContain(other.slice(0, 20));
    }
  });

  it('names known keys and shows keys that fit their position', () => {
    const dir = tempDir();
    const path = join(dir, 'typo.config.json');
    writeFileSync(path, JSON.stringify({ BlockingKeys: { acme: { k1: 'short' } }, Maintenance: { LeaseSeconds: 0 } }));
    const error = rejection(path);
    expect(error.issues.map((i) => i.path).sort()).toEqual(['BlockingKeys.acme.k1', 'Maintenance.LeaseSeconds']);
  });
});
