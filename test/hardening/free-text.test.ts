/**
 * The control-character rule on every free-text input (issue 7, item 19): reasons, dataset IDs, model
 * versions, job requests and the text fields of profiles are refused with the field named when they hold a
 * control character (an ANSI escape among them), and nothing is written; every table and `job show` print
 * what is stored without passing a control character to the terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { hasControlCharacter } from '../../engine/text/control-characters.ts';
import { tempDir } from '../helpers/temp.ts';
import { calibrateArgs, runCli } from '../helpers/cli.ts';

const ESC = '\u001b[2J\u001b[31m';
const C1 = '\u009b31m';
// Any C0 control but tab and line feed, DEL or a C1 control (an escape sequence among them): none may reach the terminal.
const RAW_CONTROL = { test: (text: string): boolean => hasControlCharacter(text.replaceAll('\r', '\u0000'), true) };

function counts(db: string): { jobs: number; profiles: number; audit: number } {
  const engine = LocalEngine.open({ dbPath: db });
  try {
    const one = (sql: string): number => engine.env.store.statement(sql).pluck().get() as number;
    return {
      jobs: one('SELECT COUNT(*) FROM maintenance_job'),
      profiles: one('SELECT COUNT(*) FROM matching_profile'),
      audit: one('SELECT COUNT(*) FROM audit_record'),
    };
  } finally {
    engine.close();
  }
}

describe('free text with control characters', () => {
  it('is refused with the field named, on every command that takes it, and nothing is written', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 's.db');
    const db = ['--db', dbPath, '--tenant', 'text'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '120', '--seed', '5'])).code).toBe(0);
    const labels = join(dir, 'labels.tsv');
    expect((await runCli([...db, 'labels', 'sample', '--out', labels])).code).toBe(0);
    const thresholds = join(dir, 'thresholds.json');
    writeFileSync(
      thresholds,
      JSON.stringify({ MatchingRules: { Thresholds: { Certain: 0.95, Probable: 0.8 }, FellegiSunter: null } }),
    );
    const before = counts(dbPath);

    const runs: [string, string[]][] = [
      ['reason', ['reindex', '--reason', `key rotation${ESC}`]],
      ['reason', ['reconcile', '--reason', `nightly${C1}`]],
      ['reason', ['profile', 'apply', thresholds, '--reason', `raise${ESC}`]],
      ['reason', ['profile', 'rollback', '--reason', `undo\u0007`]],
      ['datasetId', ['evaluate', '--labels', labels, '--dataset', `set${ESC}`, '--thresholds', '0.5']],
      ['modelVersion', calibrateArgs(labels, { dataset: 'ok', modelVersion: `m${C1}`, prior: '0.2' })],
    ];
    for (const [field, args] of runs) {
      const run = await runCli([...db, ...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toMatch(new RegExp(`${field}: contains a control character`));
      expect(RAW_CONTROL.test(run.stderr)).toBe(false);
    }
    expect(counts(dbPath)).toEqual(before);
  });

  it('is refused in every text field of a profile, with the path, by validate and apply', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 's.db');
    const db = ['--db', dbPath, '--tenant', 'text'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const shown = JSON.parse((await runCli([...db, 'profile', 'show'])).stdout) as {
      profile: { Comparators: Record<string, unknown>; SourceTrust: Record<string, unknown>[] };
    };
    const { Comparators, SourceTrust } = shown.profile;
    const documents: [string, unknown][] = [
      ['Comparators.Version', { Comparators: { ...Comparators, Version: `v${ESC}` } }],
      [
        'Comparators.NicknameDictionaries[0].Version',
        {
          Comparators: {
            ...Comparators,
            NicknameDictionaries: [{ Version: `d${C1}`, Culture: 'en-GB', Entries: { Robert: ['Bob'] } }],
          },
        },
      ],
      [
        'Comparators.NicknameDictionaries[0].Entries.Robert[0]',
        {
          Comparators: {
            ...Comparators,
            NicknameDictionaries: [{ Version: 'd1', Culture: 'en-GB', Entries: { Robert: [`Bob${ESC}`] } }],
          },
        },
      ],
      [
        'SourceTrust[0].LocalIdentifierSystem',
        { SourceTrust: [{ ...SourceTrust[0], LocalIdentifierSystem: `urn:x${ESC}` }, ...SourceTrust.slice(1)] },
      ],
      ['TrustedIdentifierSystems[0]', { TrustedIdentifierSystems: [`urn:nhi\u0000`] }],
    ];
    const before = counts(dbPath);
    for (const [path, document] of documents) {
      const file = join(dir, 'doc.json');
      writeFileSync(file, JSON.stringify(document));
      const validate = await runCli([...db, 'profile', 'validate', file, '--json']);
      expect(validate.code, path).toBe(1);
      expect((JSON.parse(validate.stdout) as { issues: { path: string; message: string }[] }).issues).toContainEqual({
        path,
        message: expect.stringMatching(/contains a control character/) as unknown,
      });
      const apply = await runCli([...db, 'profile', 'apply', file]);
      expect(apply.code, path).toBe(1);
      expect(RAW_CONTROL.test(apply.stderr)).toBe(false);
    }
    expect(counts(dbPath)).toEqual(before);
  });

  it('already stored is printed escaped by job show, jobs and every table', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 's.db');
    const db = ['--db', dbPath, '--tenant', 'text'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const queued = JSON.parse((await runCli([...db, 'reindex', '--reason', 'plain', '--json'])).stdout) as {
      jobId: string;
    };
    // A row written before the rule existed (or by another tool): the output must still be safe.
    const engine = LocalEngine.open({ dbPath });
    engine.env.store
      .statement('UPDATE maintenance_job SET reason = ?, requested_by = ?')
      .run(`evil${ESC}reason${C1}\u202e`, `cli\u0007`);
    engine.close();
    for (const args of [['job', 'show', queued.jobId], ['jobs']]) {
      const run = await runCli([...db, ...args]);
      expect(run.code, run.stderr).toBe(0);
      expect(RAW_CONTROL.test(run.stdout)).toBe(false);
      expect(run.stdout).not.toContain('\u202e');
    }
    const show = await runCli([...db, 'job', 'show', queued.jobId]);
    expect(show.stdout).toContain('evil\\x1b[2J\\x1b[31mreason\\x9b31m\\u202e');
  });
});
