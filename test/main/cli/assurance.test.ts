import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { calibrateArgs, runCli } from '../../helpers/cli.ts';

describe('assurance commands on a synthetic sandbox', () => {
  it('labels sample, evaluate, calibrate, profile apply and profile rollback work end to end', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '400', '--seed', '3'])).code).toBe(0);

    const labels = join(dir, 'labels.tsv');
    const sample = await runCli([...db, 'labels', 'sample', '--max-pairs', '3000', '--seed', '2', '--out', labels]);
    expect(sample.code, sample.stderr).toBe(0);
    expect(sample.stdout).toMatch(
      /^Wrote \d+ labelled pairs \(\d+ matches, \d+ non-matches from blocking candidates\)/,
    );
    const text = readFileSync(labels, 'utf8');
    expect(text.split('\n')[0]?.split('\t')).toHaveLength(5);
    const printed = await runCli([...db, 'labels', 'sample', '--max-pairs', '3000', '--seed', '2']);
    expect(printed.stdout).toBe(text);

    const table = await runCli([
      ...db,
      'evaluate',
      '--labels',
      labels,
      '--dataset',
      'syn-400',
      '--thresholds',
      '0.5,0.75,0.92',
      '--max-errors',
      '4',
    ]);
    expect(table.code, table.stderr).toBe(0);
    // The file is exactly the digest's serialisation: sha256sum gives the reported digest.
    const digest = createHash('sha256').update(text, 'utf8').digest('hex');
    expect(table.stdout).toContain(`syn-400 (SHA-256 ${digest})`);
    expect(table.stdout).toMatch(/score method\s+fellegi-sunter \(default-fs-2\)/);
    expect(table.stdout).toMatch(/blocking recall\s+\d\.\d{4} \(\d+ of \d+ true pairs are candidates; \d+ missed\)/);
    expect(table.stdout).toMatch(/threshold\s+TP\s+FP\s+TN\s+FN\s+precision\s+95% CI\s+recall/);
    expect(table.stdout).toMatch(/False positives/);
    expect(table.stdout).toMatch(
      /End to end \(blocking misses count as false negatives; \d+ true pairs and \d+ non-matches are never compared\):\nthreshold\s+TP\s+FP/,
    );

    const evaluation = JSON.parse(
      (await runCli([...db, 'evaluate', '--labels', labels, '--dataset', 'syn-400', '--thresholds', '0.5', '--json']))
        .stdout,
    ) as {
      datasetDigest: string;
      thresholds: { tp: number; fn: number }[];
      blockingRecall: { missed: number };
      endToEnd: { notCandidates: { matches: number }; thresholds: { tp: number; fn: number }[] };
    };
    expect(evaluation.datasetDigest).toBe(digest);
    expect(evaluation.thresholds).toHaveLength(1);
    // End to end the true pairs blocking misses join the false negatives; the matches counted stay the same.
    expect(evaluation.endToEnd.notCandidates.matches).toBe(evaluation.blockingRecall.missed);
    const [scored] = evaluation.thresholds;
    const [e2e] = evaluation.endToEnd.thresholds;
    expect((e2e?.tp ?? 0) + (e2e?.fn ?? 0)).toBe((scored?.tp ?? 0) + (scored?.fn ?? 0));
    expect(e2e?.tp).toBeLessThanOrEqual(scored?.tp ?? 0);

    const model = join(dir, 'model.json');
    const calibrate = await runCli([
      ...db,
      'calibrate',
      '--labels',
      labels,
      '--dataset',
      'syn-400',
      '--model-version',
      'fs-cli-1',
      '--prior',
      '0.2',
      '--smoothing',
      '1',
      '--validation-fraction',
      '0.3',
      '--target-precision',
      '0.99',
      '--out',
      model,
    ]);
    expect(calibrate.code, calibrate.stderr).toBe(0);
    expect(calibrate.stdout).toMatch(/held-out Brier score/);
    // By default u comes from random pairs of the registry, and the prior is restated for them.
    expect(calibrate.stdout).toMatch(
      /u-probabilities\s+u comes from [\d,]+ random pairs of the registry's [\d,]+ records .* The prior is restated for random pairs: the share of true pairs among blocking candidates you gave \(0\.200\)/,
    );
    // The precision target's threshold comes with its margin and the held-out pairs behind it, or says plainly that none meets it.
    expect(calibrate.stdout).toMatch(
      /precision >= 0\.99\s+(—: No threshold among the held-out scores reaches precision 0\.99 with 95% confidence|[\d.]+: [\d.]+ is the lowest threshold among the held-out scores at which precision is at least 0\.99 with 95% confidence)/,
    );
    expect(calibrate.stdout).toMatch(/\d+ held-out pairs? scores? at or above it/);
    expect(calibrate.stdout).toMatch(/Caveat: The model assumes the fields are conditionally independent/);
    // On 400 synthetic people the default profile links as many held-out true pairs as the model, with as much
    // precision shown: the report says so first, and again where it names the file.
    expect(calibrate.stdout).toMatch(
      /^The calibrated model does no better than the active profile on the held-out labels: keep the profile/,
    );
    expect(calibrate.stdout).toMatch(
      /live thresholds\s+Certain [\d.]+, Probable [\d.]+: Keep the active profile: on the same labelled pairs the model never learned from, at its Certain 0\.97 the active profile shows live recall [\d.]+/,
    );
    expect(calibrate.stdout).toContain(
      `The model was written to ${model}, though the report advises keeping the active profile. It is not activated`,
    );
    expect(JSON.parse(readFileSync(model, 'utf8'))).toMatchObject({
      kind: 'fellegi-sunter-model',
      modelVersion: 'fs-cli-1',
      datasetDigest: digest,
    });
    expect(JSON.parse((await runCli([...db, 'profile', 'show'])).stdout)).toMatchObject({ matchingProfileVersion: 1 });

    expect((await runCli([...db, 'profile', 'apply', model, '--reason', 'approved'])).stdout).toMatch(
      /version 2 is now active/,
    );
    const underModel = await runCli([
      ...db,
      'evaluate',
      '--labels',
      labels,
      '--dataset',
      'syn-400',
      '--thresholds',
      '0.5',
    ]);
    expect(underModel.stdout).toMatch(/score method\s+fellegi-sunter \(fs-cli-1\)/);
    const rollback = await runCli([...db, 'profile', 'rollback', '--reason', 'undo']);
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stdout).toBe('Matching profile version 3 is now active: the content of version 1 (was 2).\n');

    // --with-thresholds: the model with the thresholds the report measured for live matching, one document for profile apply.
    const rules = join(dir, 'rules.json');
    const common = [
      'calibrate',
      '--labels',
      labels,
      '--dataset',
      'syn-400',
      '--model-version',
      'fs-cli-2',
      '--prior',
      '0.2',
      '--smoothing',
      '1',
      '--validation-fraction',
      '0.3',
      '--target-precision',
      '0.99',
    ];
    const withThresholds = await runCli([...db, ...common, '--out', rules, '--with-thresholds', '--json']);
    expect(withThresholds.code, withThresholds.stderr).toBe(0);
    const answer = JSON.parse(withThresholds.stdout) as {
      report: { liveThresholds: { Certain: number; Probable: number; prior: number; explanation: string } };
    };
    const live = answer.report.liveThresholds;
    expect(live.prior).toBe(0.2);
    expect(live.Probable).toBeGreaterThan(0);
    expect(live.Probable).toBeLessThanOrEqual(live.Certain);
    expect(live.explanation).toMatch(/(^|all the same, )[Aa]pply these with (the model|it) \(\{"MatchingRules"/);
    expect(JSON.parse(readFileSync(rules, 'utf8'))).toMatchObject({
      MatchingRules: {
        FellegiSunter: { modelVersion: 'fs-cli-2' },
        Thresholds: { Certain: live.Certain, Probable: live.Probable },
      },
    });
    expect(
      (await runCli([...db, 'profile', 'apply', rules, '--reason', 'calibrated with its live thresholds'])).stdout,
    ).toMatch(/version 4 is now active/);
    const shown = JSON.parse((await runCli([...db, 'profile', 'show'])).stdout) as {
      profile: { MatchingRules: { Thresholds: unknown } };
    };
    expect(shown.profile.MatchingRules.Thresholds).toEqual({ Certain: live.Certain, Probable: live.Probable });
    // --u-from labels: the specification's way, u from the labelled non-matches and the prior as given.
    const fromLabels = JSON.parse((await runCli([...db, ...common, '--u-from', 'labels', '--json'])).stdout) as {
      model: { priorMatchProbability: number; priorRecords?: number };
      report: { uSource: unknown };
    };
    expect(fromLabels.report.uSource).toEqual({ from: 'labels' });
    expect(fromLabels.model.priorMatchProbability).toBe(0.2);
    expect(fromLabels.model.priorRecords).toBeUndefined();
    const report = await runCli([...db, ...common]);
    // Now the active profile carries a model calibrated on the same labels: this one does no better than it.
    expect(report.stdout).toMatch(/live thresholds\s+Certain [\d.]+, Probable [\d.]+: Keep the active profile/);
    // The review band's load against the review budget (20 by default), on a line of its own.
    expect(report.stdout).toMatch(
      /\nreview load\s+[\d.,]+ candidate pairs per 1,000 records \((over the )?budget 20\b/,
    );
    expect((await runCli([...db, ...common, '--with-thresholds'])).code).toBe(2);
    // --review-budget: the live thresholds' review band within it (none at 0), its figure in the report.
    const noReviews = JSON.parse((await runCli([...db, ...common, '--review-budget', '0', '--json'])).stdout) as {
      report: {
        liveThresholds: { Certain: number; Probable: number; reviewLoad: { budgetPerThousandRecords: number } };
      };
    };
    expect(noReviews.report.liveThresholds.reviewLoad.budgetPerThousandRecords).toBe(0);
    expect(noReviews.report.liveThresholds.Probable).toBe(noReviews.report.liveThresholds.Certain);
    const badBudget = await runCli([...db, ...common, '--review-budget', 'many']);
    expect(badBudget.code).toBe(2);
    expect(badBudget.stderr).toMatch(/--review-budget must be a number/);
    const withLabels = await runCli([...db, ...common, '--u-from', 'labels', '--review-budget', '10']);
    expect(withLabels.code).toBe(2);
    expect(withLabels.stderr).toMatch(/--review-budget needs u from random pairs/);
  });

  it('names TSV lines in errors, exits non-zero, and rejects bad options as usage errors', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init', '--synthetic', '50'])).code).toBe(0);
    const labels = join(dir, 'bad.tsv');
    writeFileSync(
      labels,
      'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch\nnorthside-gp\tNG-NOPE\tnorthside-gp\tNG-NOPE-2\tmaybe\nonly\tthree\tcolumns\n',
    );
    const parse = await runCli([...db, 'evaluate', '--labels', labels, '--dataset', 'd', '--thresholds', '0.5']);
    expect(parse.code).toBe(1);
    expect(parse.stderr).toContain('line 2: column isMatch: expected match/non-match, true/false or 1/0');
    expect(parse.stderr).toContain('line 3: expected 5 tab-separated columns, found 3');
    expect(parse.stderr).not.toContain('NG-NOPE');

    writeFileSync(
      labels,
      'northside-gp\tNG-NOPE\tnorthside-gp\tNG-NOPE-2\tmatch\n\nnorthside-gp\tNG-NOPE\tnorthside-gp\tNG-NOPE-3\tnon-match\n',
    );
    const missing = await runCli([
      ...db,
      'evaluate',
      '--labels',
      labels,
      '--dataset',
      'd',
      '--thresholds',
      '0.5',
      '--json',
    ]);
    expect(missing.code).toBe(1);
    const error = JSON.parse(missing.stderr) as { kind: string; issues: { path: string; message: string }[] };
    expect(error.kind).toBe('validation');
    expect(error.issues).toContainEqual({
      path: 'line 3',
      message: "right record does not exist in this tenant (labels may refer only to this tenant's records)",
    });
    expect(error.issues.every((i) => i.path.startsWith('line '))).toBe(true);

    expect((await runCli([...db, 'evaluate', '--labels', labels, '--dataset', 'd', '--thresholds', 'high'])).code).toBe(
      2,
    );
    expect(
      (await runCli([...db, 'evaluate', '--labels', join(dir, 'none.tsv'), '--dataset', 'd', '--thresholds', '0.5']))
        .code,
    ).toBe(2);
    expect((await runCli([...db, 'calibrate', '--labels', labels, '--dataset', 'd'])).stderr).toMatch(
      /--model-version is required/,
    );
    const uFrom = await runCli([
      ...db,
      ...calibrateArgs(labels, { dataset: 'd', modelVersion: 'm', prior: '0.01' }),
      '--u-from',
      'candidates',
    ]);
    expect(uFrom.code).toBe(2);
    expect(uFrom.stderr).toMatch(/--u-from must be labels or random-pairs/);
    const sample = await runCli(['--db', join(dir, 'other.db'), '--tenant', 'plain', 'sandbox', 'init']);
    expect(sample.code).toBe(0);
    const noTruth = await runCli(['--db', join(dir, 'other.db'), '--tenant', 'plain', 'labels', 'sample']);
    expect(noTruth.code).toBe(1);
    expect(noTruth.stderr).toMatch(/no ground truth/);
  });

  it('refuses a label file of 10,001 pairs as a label file, not with schema paths', async () => {
    const dir = tempDir();
    const db = ['--db', join(dir, 's.db'), '--tenant', 'demo'];
    expect((await runCli([...db, 'sandbox', 'init'])).code).toBe(0);
    const labels = join(dir, 'big.tsv');
    const rows = Array.from(
      { length: 10_001 },
      (_, i) => `northside-gp\tNG${String(i)}\tnorthside-gp\tNG${String(i + 1)}-b\tmatch`,
    );
    writeFileSync(labels, `${rows.join('\n')}\n`);
    for (const command of [
      ['evaluate', '--labels', labels, '--dataset', 'd', '--thresholds', '0.5'],
      calibrateArgs(labels, { dataset: 'd', modelVersion: 'm', prior: '0.01' }),
    ]) {
      const run = await runCli([...db, ...command, '--json']);
      expect(run.code).toBe(1);
      const error = JSON.parse(run.stderr) as { message: string; issues: { path: string; message: string }[] };
      expect(error.message).toMatch(/the label file has 10,001 pairs; at most 10,000/);
      expect(error.issues).toEqual([{ path: 'label file', message: '10,001 pairs; at most 10,000' }]);
    }
  });
});
