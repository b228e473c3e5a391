/**
 * Patient-data and secret canaries (issue 7, "keep it that way"): known demographic values, local
 * identifiers and blocking secrets are planted, every command is run over them — successes and failures —
 * and every output, every error, every job record (error text and phase notes) and every audit row is
 * searched. Demographic values and secrets appear nowhere; local identifiers appear only in the outputs made
 * to list records (identities, explain, labels, evaluation examples), never in an error, a job or the audit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../engine/store/store.ts';
import { NATIONAL_ID_SYSTEM } from '../../engine/synthetic/generate.ts';
import { tempDir } from '../helpers/temp.ts';
import { calibrateArgs, runCli, type CliRun } from '../helpers/cli.ts';

const DEMOGRAPHICS = [
  'Zqxcanaryfam',
  'zqxcanaryfam',
  'Qvjcanarygiv',
  'qvjcanarygiv',
  '7700 900417',
  '447700900417',
  'Canary Wharf',
  'canary wharf',
  'NHI-CANARY-0417',
  '1961-04-17',
];
const LOCAL_IDS = ['CANARY-LOCAL-1', 'CANARY-LOCAL-2'];

function canaryPatient(id: string, family = 'Zqxcanaryfam'): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id,
    identifier: [{ system: NATIONAL_ID_SYSTEM, value: 'NHI-CANARY-0417' }],
    name: [{ use: 'official', family, given: ['Qvjcanarygiv'] }],
    gender: 'female',
    birthDate: '1961-04-17',
    address: [{ line: ['17 Canary Wharf Lane'], city: 'Leeds', postalCode: 'LS1 4AB' }],
    telecom: [{ system: 'phone', value: '+44 7700 900417' }],
  };
}

describe('canaries', () => {
  it('never leave the places made to show them', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'canary.db');
    const db = ['--db', dbPath, '--tenant', 'canary'];
    const outputs: { args: string[]; run: CliRun; listsRecords: boolean }[] = [];
    const cli = async (args: string[], listsRecords = false): Promise<CliRun> => {
      const run = await runCli([...db, ...args]);
      outputs.push({ args, run, listsRecords });
      return run;
    };

    expect((await cli(['sandbox', 'init', '--synthetic', '60', '--seed', '9'])).code).toBe(0);
    const ndjson = join(dir, 'canary.ndjson');
    const bad = { ...canaryPatient('CANARY-LOCAL-3'), birthDate: 'Zqxcanaryfam 1961-04-17', gender: 'Qvjcanarygiv' };
    writeFileSync(ndjson, [canaryPatient('CANARY-LOCAL-1'), bad].map((p) => JSON.stringify(p)).join('\n') + '\n');
    expect((await cli(['ingest', '--source', 'northside-gp', '--ndjson', ndjson])).code).toBe(1);
    const second = join(dir, 'second.ndjson');
    writeFileSync(second, JSON.stringify(canaryPatient('CANARY-LOCAL-2', 'Zqxcanaryfam')) + '\n');
    expect((await cli(['ingest', '--source', 'community-pharmacy', '--ndjson', second, '--json'])).code).toBe(0);

    await cli(['identities'], true);
    await cli(['reviews'], true);
    await cli(
      ['explain', '--left', 'northside-gp/CANARY-LOCAL-1', '--right', 'community-pharmacy/CANARY-LOCAL-2'],
      true,
    );
    await cli(['explain', '--left', 'northside-gp/CANARY-LOCAL-9', '--right', 'community-pharmacy/CANARY-LOCAL-2']);
    await cli(['compare', '--comparator', 'JaroWinkler', 'Zqxcanaryfam', 'Zqxcanaryfan']);

    const labels = join(dir, 'labels.tsv');
    expect((await cli(['labels', 'sample', '--out', labels], true)).code).toBe(0);
    writeFileSync(
      labels,
      `${readFileSync(labels, 'utf8')}northside-gp\tCANARY-LOCAL-1\tcommunity-pharmacy\tCANARY-LOCAL-2\t1\n`,
    );
    await cli(
      ['evaluate', '--labels', labels, '--dataset', 'canary', '--thresholds', '0.5,0.9', '--max-errors', '100'],
      true,
    );
    await cli(['evaluate', '--labels', labels, '--dataset', 'canary', '--thresholds', '0.5', '--json'], true);
    const model = join(dir, 'model.json');
    const calibration = calibrateArgs(labels, { dataset: 'canary', modelVersion: 'm1', prior: '0.2' });
    await cli([...calibration, '--out', model], true);
    const broken = join(dir, 'broken.tsv');
    writeFileSync(
      broken,
      'northside-gp\tCANARY-LOCAL-1\tnorthside-gp\tCANARY-LOCAL-1\t1\nnorthside-gp\tCANARY-LOCAL-77\tx\tZqxcanaryfam\tQvjcanarygiv\nnorthside-gp\tCANARY-LOCAL-2\u001b\tx\ty\t0\n',
    );
    expect((await cli(['evaluate', '--labels', broken, '--dataset', 'broken', '--thresholds', '0.5'])).code).toBe(1);
    expect(
      (await cli(['evaluate', '--labels', broken, '--dataset', 'broken', '--thresholds', '0.5', '--json'])).code,
    ).toBe(1);

    expect((await cli(['blocking-key', 'add', 'k2'])).code).toBe(0);
    await cli(['blocking-key', 'list']);
    await cli(['blocking-key', 'list', '--json']);
    const secrets = Object.values(
      (
        JSON.parse(readFileSync(join(dir, 'canary.config.json'), 'utf8')) as {
          BlockingKeys: { canary: Record<string, string> };
        }
      ).BlockingKeys.canary,
    );
    expect(secrets).toHaveLength(2);

    await cli(['profile', 'show']);
    const shown = JSON.parse((await runCli([...db, 'profile', 'show'])).stdout) as {
      profile: { Comparators: Record<string, unknown> };
    };
    const withSecret = join(dir, 'secret-profile.json');
    writeFileSync(
      withSecret,
      JSON.stringify({
        Comparators: {
          ...shown.profile.Comparators,
          NicknameDictionaries: [{ Version: 'd1', Culture: secrets[0], Entries: { [secrets[1] ?? '']: ['x'] } }],
        },
      }),
    );
    expect((await cli(['profile', 'validate', withSecret])).code).toBe(1);
    expect((await cli(['profile', 'apply', withSecret, '--json'])).code).toBe(1);
    expect((await cli(['profile', 'apply', model, '--reason', 'canary model'])).code).toBe(0);
    expect((await cli(['profile', 'rollback', '--reason', 'undo'])).code).toBe(0);

    const reindex = JSON.parse((await cli(['reindex', '--reason', 'canary reindex', '--json'])).stdout) as {
      jobId: string;
    };
    await cli(['reconcile', '--reason', 'canary reconcile', '--batch-size', '3']);
    expect((await cli(['worker', '--once'])).code).toBe(0);
    await cli(['job', 'show', reindex.jobId]);
    await cli(['job', 'show', reindex.jobId, '--json']);
    await cli(['jobs']);
    await cli(['job', 'cancel', reindex.jobId]);
    await cli(['job', 'show', 'job-CANARY-LOCAL-1']);

    // A configuration file with the secrets in key positions.
    const swapped = join(dir, 'swapped.config.json');
    writeFileSync(
      swapped,
      JSON.stringify({ BlockingKeys: { canary: { [secrets[0] ?? '']: 'k1' } }, [secrets[1] ?? '']: 1 }),
    );
    for (const args of [
      ['blocking-key', 'list'],
      ['reindex', '--reason', 'r'],
      ['blocking-key', 'add', 'k9'],
    ]) {
      const run = await runCli([...db, '--config', swapped, ...args]);
      expect(run.stderr, args.join(' ')).toMatch(/is invalid/);
      outputs.push({ args: ['--config', swapped, ...args], run, listsRecords: false });
    }

    const never = [...DEMOGRAPHICS, ...secrets];
    for (const { args, run, listsRecords } of outputs) {
      const text = run.stdout + run.stderr;
      for (const value of never) expect(text.includes(value), `${args.join(' ')} showed ${value}`).toBe(false);
      if (!listsRecords || run.code !== 0)
        for (const value of LOCAL_IDS) expect(text.includes(value), `${args.join(' ')} showed ${value}`).toBe(false);
    }
    // The record-listing outputs did list the canary records: the search looked in the right places.
    expect(outputs.filter((o) => o.listsRecords).some((o) => o.run.stdout.includes('CANARY-LOCAL-1'))).toBe(true);

    const store = Store.open(dbPath, { readonly: true });
    try {
      const rows = [
        ...store.statement('SELECT * FROM audit_record').all(),
        ...store.statement('SELECT * FROM maintenance_job').all(),
        ...store.statement('SELECT * FROM maintenance_job_phase').all(),
      ];
      expect(rows.length).toBeGreaterThan(10);
      const text = JSON.stringify(rows);
      for (const value of [...never, ...LOCAL_IDS])
        expect(text.includes(value), `a job or audit row holds ${value}`).toBe(false);
    } finally {
      store.close();
    }
  });
});
