import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { febrlFile } from '../../helpers/febrl.ts';

describe('estimate on the command line', () => {
  it('says when it estimated on a sample of the records (--max-records)', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '600', '--seed', '3'])).code).toBe(0);
    const run = await runCli([
      ...db,
      'estimate',
      '--model-version',
      'em-sample',
      '--random-pairs',
      '20000',
      '--max-records',
      '1000',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/records\s+\d{4} \(estimated on a seeded sample of 1000\)/);
  });

  it('takes an EM step limit (--max-iterations): too few steps fail the converged check, which says how to go on', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '300', '--seed', '3'])).code).toBe(0);
    const estimate = (steps: string): Promise<{ code: number; stdout: string; stderr: string }> =>
      runCli([
        ...db,
        '--json',
        'estimate',
        '--model-version',
        `em-${steps}`,
        '--random-pairs',
        '20000',
        '--max-iterations',
        steps,
      ]);
    const short = await estimate('1');
    expect(short.code, short.stderr).toBe(0);
    const { report } = JSON.parse(short.stdout) as {
      report: {
        convergence: { maxIterations: number };
        fit: { status: string; checks: { check: string; passed: boolean; detail: string }[] };
      };
    };
    expect(report.convergence.maxIterations).toBe(1);
    expect(report.fit.status).toBe('fallback');
    expect(report.fit.checks.find((c) => c.check === 'converged')).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/--max-iterations on the command line/) as unknown,
    });
    const long = JSON.parse((await estimate('5000')).stdout) as { report: { fit: { status: string } } };
    expect(long.report.fit.status).toBe('fitted');
    expect((await runCli([...db, 'estimate', '--model-version', 'x', '--max-iterations', '20000'])).stderr).toMatch(
      /maxIterations/,
    );
  });

  it("estimates a model from the tenant's records, writes it without activating it, and profile apply takes it", async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '300', '--seed', '3'])).code).toBe(0);
    const model = join(dir, 'model.json');
    const run = await runCli([
      ...db,
      'estimate',
      '--model-version',
      'em-cli-1',
      '--random-pairs',
      '20000',
      '--thresholds',
      '0.5,0.9',
      '--out',
      model,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/EM\s+converged after \d+ of at most 1000 iterations/);
    expect(run.stdout).toMatch(/Model-estimated \(not measured\) precision and recall among blocking candidates:/);
    expect(run.stdout).toMatch(/suggested thresholds\s+Certain \d\.\d+, Probable \d\.\d+/);
    expect(run.stdout).toContain(`The model was written to ${model}. It is not activated`);
    expect(JSON.parse(readFileSync(model, 'utf8'))).toMatchObject({
      kind: 'fellegi-sunter-model',
      modelVersion: 'em-cli-1',
    });
    expect(JSON.parse((await runCli([...db, 'profile', 'show'])).stdout)).toMatchObject({ matchingProfileVersion: 1 });
    expect((await runCli([...db, 'profile', 'apply', model, '--reason', 'estimated'])).stdout).toMatch(
      /version 2 is now active/,
    );

    const rules = join(dir, 'rules.json');
    const withThresholds = await runCli([
      ...db,
      'estimate',
      '--model-version',
      'em-cli-2',
      '--random-pairs',
      '20000',
      '--out',
      rules,
      '--with-thresholds',
      '--json',
    ]);
    expect(withThresholds.code, withThresholds.stderr).toBe(0);
    const answer = JSON.parse(withThresholds.stdout) as {
      report: { suggestedThresholds: unknown; activated: boolean };
    };
    expect(answer.report.activated).toBe(false);
    expect(JSON.parse(readFileSync(rules, 'utf8'))).toMatchObject({
      MatchingRules: { FellegiSunter: { modelVersion: 'em-cli-2' }, Thresholds: answer.report.suggestedThresholds },
    });
    expect((await runCli([...db, 'profile', 'apply', rules, '--reason', 'estimated with thresholds'])).stdout).toMatch(
      /version 3 is now active/,
    );
  });

  it('re-matches a FEBRL tenant under the applied estimate: febrl load --profile takes `profile show` output', async () => {
    const dir = tempDir();
    // The first 600 rows of FEBRL 3 (read from the shared folder, written to a temporary one).
    const rows = readFileSync(febrlFile('dataset3.csv'), 'utf8').split('\n').slice(0, 601);
    writeFileSync(join(dir, 'dataset3.csv'), rows.join('\n') + '\n');
    const db = ['--db', join(dir, 'f.db')];
    const first = await runCli([...db, '--tenant', 'f3', 'febrl', 'load', '--dataset', '3', '--dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    const rules = join(dir, 'rules.json');
    const estimated = await runCli([
      ...db,
      '--tenant',
      'f3',
      'estimate',
      '--model-version',
      'f3-em',
      '--random-pairs',
      '20000',
      '--out',
      rules,
      '--with-thresholds',
    ]);
    expect(estimated.code, estimated.stderr).toBe(0);
    expect((await runCli([...db, '--tenant', 'f3', 'profile', 'apply', rules, '--reason', 'estimated'])).code).toBe(0);
    const shown = join(dir, 'applied.json');
    writeFileSync(shown, (await runCli([...db, '--tenant', 'f3', 'profile', 'show'])).stdout);
    const again = await runCli([
      ...db,
      '--tenant',
      'f3-estimated',
      'febrl',
      'load',
      '--dataset',
      '3',
      '--dir',
      dir,
      '--profile',
      shown,
    ]);
    expect(again.code, again.stderr).toBe(0);
    const profile = JSON.parse((await runCli([...db, '--tenant', 'f3-estimated', 'profile', 'show'])).stdout) as {
      matchingProfileVersion: number;
      profile: { MatchingRules: unknown };
    };
    expect(profile.matchingProfileVersion).toBe(1);
    expect(profile.profile.MatchingRules).toEqual(
      (JSON.parse(readFileSync(rules, 'utf8')) as { MatchingRules: unknown }).MatchingRules,
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{');
    expect(
      (await runCli([...db, '--tenant', 'f3-bad', 'febrl', 'load', '--dataset', '3', '--dir', dir, '--profile', bad]))
        .stderr,
    ).toMatch(/is not valid JSON/);
  });

  it('rejects bad options as usage errors', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '20'])).code).toBe(0);
    expect((await runCli([...db, 'estimate'])).stderr).toMatch(/--model-version is required/);
    expect((await runCli([...db, 'estimate', '--model-version', 'x', '--with-thresholds'])).code).toBe(2);
    expect((await runCli([...db, 'estimate', '--model-version', 'x', '--thresholds', '0.5,high'])).stderr).toMatch(
      /--thresholds is a comma-separated list/,
    );
    const tooFew = await runCli([...db, 'estimate', '--model-version', 'x', '--random-pairs', '5']);
    expect(tooFew.code).toBe(1);
    expect(tooFew.stderr).toMatch(/randomPairs/);
  });
});
