/**
 * Property-based test of configuration files (issue 7, items 2 and 17, "keep it that way"): files built from
 * good and bad pieces — secrets in key positions, tenants and key versions of every shape (Object.prototype
 * names among them), wrong types, unknown keys in every section, bad Maintenance values. Loading either gives
 * settings or a validation error naming paths that never repeats a planted secret; a command run on a bad
 * file fails without changing it; a command run on a good one rewrites it valid, with every other key kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { loadSettings, settingsJson } from '../../engine/config/settings.ts';

import { runCli } from '../helpers/cli.ts';
import { expectNoPlanted, expectSafeRejection, newSecret } from './fuzz-helpers.ts';
import { scratchDir } from '../helpers/temp.ts';

let dir: string;
let db: string;
let cleanup: () => void;
const PLANTED = [newSecret(), newSecret(), newSecret()];

beforeAll(async () => {
  const temp = scratchDir('mpi-fuzz-config-');
  ({ dir, cleanup } = temp);
  db = join(dir, 'config.db');
  const engine = LocalEngine.open({ dbPath: db });
  try {
    await engine.call('sandbox/create', {}, { tenantId: 'acme', actor: 'test' });
  } finally {
    engine.close();
  }
});

afterAll(() => {
  cleanup();
});

const planted = fc.constantFrom(...PLANTED);
const name = fc.oneof(
  fc.constantFrom('acme', 'k1', 'k2', '__proto__', 'constructor', 'toString', 'a.b-c_d', ''),
  planted,
  fc.string({ maxLength: 8 }),
);
const secretValue = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null).map(() => newSecret()) },
  planted,
  fc.constantFrom('short', '', 42, null, ['x'], {}),
);
const versions = fc.dictionary(name, secretValue, { maxKeys: 4 });
const blockingKeys = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(name, versions, { maxKeys: 4 }) },
  fc.constantFrom([], 'x', null),
);
const schedule = fc.record(
  {
    Key: fc.oneof(fc.constantFrom('nightly', 'n'), planted),
    TenantId: fc.oneof(fc.constantFrom('acme', '__proto__'), planted),
    IntervalMinutes: fc.constantFrom(0, 60, 1.5, -1, 'x'),
    BatchSize: fc.constantFrom(1, 25, 26),
    RunOnStartup: fc.boolean(),
  },
  { requiredKeys: ['Key', 'TenantId'] },
);
const maintenance = fc.record(
  {
    WorkerEnabled: fc.oneof(fc.boolean(), fc.constant('yes')),
    PollIntervalSeconds: fc.constantFrom(0, 1, 5, 3601, 2.5),
    LeaseSeconds: fc.constantFrom(0, 1, 60, 4000),
    ReconciliationSchedules: fc.array(schedule, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const goodName = fc.constantFrom('acme', 'north', '__proto__', 'constructor', 'toString', 'a.b-c_d');
const goodKeys = fc.dictionary(
  goodName,
  fc.dictionary(
    fc.constantFrom('k1', 'k2', 'valueOf', 'v.3'),
    fc.constant(null).map(() => newSecret()),
    { minKeys: 1, maxKeys: 3 },
  ),
  { maxKeys: 4 },
);
const goodMaintenance = fc.record(
  { LeaseSeconds: fc.constantFrom(1, 60), PollIntervalSeconds: fc.constantFrom(1, 5) },
  { requiredKeys: [] },
);
const clean = fc.tuple(goodKeys, fc.option(goodMaintenance, { nil: undefined })).map(([keys, section]) => {
  const parts = [
    `"BlockingKeys": {${Object.entries(keys)
      .map(([t, v]) => `${JSON.stringify(t)}: ${JSON.stringify(v)}`)
      .join(', ')}}`,
  ];
  if (section !== undefined) parts.push(`"Maintenance": ${JSON.stringify(section)}`);
  return `{${parts.join(', ')}}`;
});
const messy = fc
  .tuple(
    fc.option(blockingKeys, { nil: undefined }),
    fc.option(maintenance, { nil: undefined }),
    fc.dictionary(fc.oneof(planted, fc.constant('Extra')), fc.constant(1), { maxKeys: 1 }),
    fc.option(planted, { nil: undefined }),
  )
  .map(([keys, section, stray, intoMaintenance]) => {
    // Built as JSON text, so `__proto__` keys are own keys, as in a file.
    const parts: string[] = [];
    if (keys !== undefined) parts.push(`"BlockingKeys": ${JSON.stringify(keys)}`);
    if (section !== undefined)
      parts.push(
        `"Maintenance": ${intoMaintenance === undefined ? JSON.stringify(section) : JSON.stringify({ ...section, [intoMaintenance]: 1 })}`,
      );
    for (const [k, v] of Object.entries(stray)) parts.push(`${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    return `{${parts.join(', ')}}`;
  });
const config = fc.oneof(clean, messy, fc.constantFrom('', '{', 'null', '[]', '{"BlockingKeys": {}} trailing'));

describe('configuration files, fuzzed', () => {
  it('load or reject without repeating a secret; commands on them fail without change or rewrite them valid', async () => {
    const path = join(dir, 'config.config.json');
    const seen = { loaded: 0, rejected: 0 };
    let round = 0;
    await fc.assert(
      fc.asyncProperty(config, async (text) => {
        writeFileSync(path, text, { mode: 0o600 });
        let before: string | undefined;
        try {
          before = settingsJson(loadSettings(path));
          seen.loaded++;
        } catch (error) {
          expectSafeRejection(error, PLANTED);
          seen.rejected++;
        }
        const version = `f${String(++round)}`;
        const run = await runCli(['--db', db, '--config', path, '--tenant', 'acme', 'blocking-key', 'add', version]);
        expectNoPlanted(run.stdout + run.stderr, PLANTED);
        const after = readFileSync(path, 'utf8');
        if (before === undefined) {
          expect(run.code).toBe(1);
          expect(run.stderr).toMatch(/configuration file .* is (invalid|not valid JSON)/);
          expect(after).toBe(text);
          return;
        }
        expect(run.code, run.stderr).toBe(0);
        const settings = loadSettings(path);
        expect(settings.BlockingKeys.get('acme')?.has(version)).toBe(true);
        // Everything else is kept as it was.
        const without = new Map(settings.BlockingKeys);
        const acme = new Map(without.get('acme'));
        acme.delete(version);
        if (acme.size === 0 && !/"acme"/.test(before)) without.delete('acme');
        else without.set('acme', acme);
        expect(settingsJson({ ...settings, BlockingKeys: without })).toBe(before);
      }),
      { numRuns: 60 },
    );
    expect(seen.loaded).toBeGreaterThan(3);
    expect(seen.rejected).toBeGreaterThan(10);
  });
});
