/**
 * User-chosen names that are also names of Object.prototype members (issue 7, item 20): tenants
 * `__proto__`, `constructor`, `toString`, nickname dictionary entries of those names and command words.
 * Each works like any other name, end to end, or is refused clearly; none is silently dropped or half made.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.ts';
import { runCli } from '../helpers/cli.ts';
import { LocalEngine } from '../../engine/local-engine.ts';
import { runWorker } from '../../engine/jobs/worker.ts';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('names that are Object.prototype members', () => {
  it(
    'work as tenants: created with their key, keys added and listed, records ingested, jobs run',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      const dbPath = join(dir, 'proto.db');
      for (const tenant of NAMES) {
        const db = ['--db', dbPath, '--tenant', tenant];
        const init = await runCli([...db, 'sandbox', 'init', '--synthetic', '15', '--seed', '2']);
        expect(init.code, `${tenant}: ${init.stderr}`).toBe(0);
        const add = await runCli([...db, 'blocking-key', 'add', 'k2']);
        expect(add.code, `${tenant}: ${add.stderr}`).toBe(0);
        const list = await runCli([...db, 'blocking-key', 'list', '--json']);
        expect(
          (JSON.parse(list.stdout) as { rows: { version: string }[] }).rows.map((r) => r.version),
          tenant,
        ).toEqual(['k1', 'k2']);
        const identities = await runCli([...db, 'identities']);
        expect(identities.stdout.trim().split('\n').length, tenant).toBeGreaterThan(15);
        expect((await runCli([...db, 'reindex', '--reason', 'proto test'])).code).toBe(0);
      }
      const file = JSON.parse(readFileSync(join(dir, 'proto.config.json'), 'utf8')) as { BlockingKeys: object };
      expect(Object.keys(file.BlockingKeys).sort()).toEqual([...NAMES].sort());
      for (const tenant of NAMES)
        expect(Object.keys(Object.getOwnPropertyDescriptor(file.BlockingKeys, tenant)?.value as object)).toEqual([
          'k1',
          'k2',
        ]);

      const engine = LocalEngine.open({ dbPath });
      try {
        await runWorker(engine.env, { tenants: NAMES, once: true });
        for (const tenant of NAMES) {
          const { rows } = await engine.call('jobs/list', {}, { tenantId: tenant, actor: 'test' });
          expect(
            rows.map((r) => r.status),
            tenant,
          ).toEqual(['completed']);
        }
      } finally {
        engine.close();
      }
    },
  );

  it('work as nickname dictionary entries: kept, validated and matched, never dropped', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 'nick.db'), '--tenant', 'nick'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const shown = JSON.parse((await runCli([...db, 'profile', 'show'])).stdout) as {
      profile: { Comparators: Record<string, unknown> };
    };
    // Written as JSON text: own "__proto__" keys, as a file from an administrator would have them.
    const dictionary = (version: string, entries: string): string =>
      `{"Version": "${version}", "Culture": "en-GB", "Entries": ${entries}}`;
    const documentWith = (...dictionaries: string[]): string =>
      JSON.stringify({
        Comparators: {
          ...shown.profile.Comparators,
          GivenNames: ['JaroWinkler', 'Nickname'],
          NicknameDictionaries: ['DICTIONARIES'],
        },
      }).replace('["DICTIONARIES"]', `[${dictionaries.join(', ')}]`);
    const entries = '{"__proto__": ["Protus"], "constructor": ["Conny"], "toString": ["Tos"]}';
    const file = join(dir, 'dictionary.json');
    writeFileSync(file, documentWith(dictionary('proto-1', entries)));
    const validate = await runCli([...db, 'profile', 'validate', file]);
    expect(validate.code, validate.stdout).toBe(0);
    expect((await runCli([...db, 'profile', 'apply', file])).code).toBe(0);
    const stored = (await runCli([...db, 'profile', 'show'])).stdout;
    expect(stored).toMatch(/"__proto__": \[\s*"Protus"\s*\]/);
    expect(stored).toMatch(/"constructor": \[\s*"Conny"\s*\]/);
    for (const [a, b] of [
      ['proto', 'protus'],
      ['constructor', 'conny'],
      ['tostring', 'tos'],
    ]) {
      const compare = await runCli([...db, 'compare', '--comparator', 'Nickname', a ?? '', b ?? '', '--json']);
      expect(JSON.parse(compare.stdout), `${a ?? ''} / ${b ?? ''}`).toMatchObject({ similarity: 0.9 });
    }
    // A second dictionary claiming one of those names is refused, as for any other name.
    writeFileSync(
      file,
      documentWith(dictionary('proto-1', entries), dictionary('proto-2', '{"__proto__": ["Prota"]}')),
    );
    const refused = await runCli([...db, 'profile', 'validate', file]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/second nickname group/);
  });

  it('are unknown commands, not crashes', async () => {
    for (const word of NAMES) {
      const run = await runCli([word]);
      expect(run.code, word).toBe(2);
      expect(run.stderr).toMatch(/unknown command/);
    }
  });
});

describe('operation names that are Object.prototype members', () => {
  it('are refused as unknown operations by the engine, not crashes', async () => {
    const dir = tempDir();
    const engine = LocalEngine.open({ dbPath: join(dir, 'ops.db') });
    try {
      for (const name of NAMES) {
        await expect(engine.call(name as 'profile/get', {}, { tenantId: 't', actor: 'test' })).rejects.toMatchObject({
          kind: 'validation',
          message: 'unknown operation',
        });
      }
    } finally {
      engine.close();
    }
  });
});
