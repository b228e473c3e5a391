/**
 * `audit sample --out SAMPLE.json [--labels N] [--seed S] [--ground-truth]`: a stratified sample of the registry's
 * decisions to label (also written as SAMPLE.tsv, five columns with the isMatch column to fill; filled from the
 * ground truth of a synthetic sandbox or benchmark load with --ground-truth);
 * `audit estimate --sample SAMPLE.json --labels LABELS.tsv`: the registry's precision, recall and F1 of its links.
 */
import { readFileSync } from 'node:fs';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { checkInputFile, checkOutputTarget, writeOutput } from '../files.ts';
import { fixed, json, keyValues, table } from '../format.ts';
import {
  AuditSampleSchema,
  AUDIT_STRATUM_TEXT,
  auditSampleText,
  type AuditSample,
} from '../../../engine/contract/audit.ts';
import { readLabelTsv } from '../../../engine/contract/label-tsv.ts';
import { countText } from '../../../engine/contract/count-text.ts';

const refKey = (r: { sourceSystem: string; localId: string }): string => `${r.sourceSystem}\u0000${r.localId}`;

/** Rows of an existing label file whose isMatch column a person has filled (0 when there is no such file). */
function labelledRows(path: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 0;
  }
  return text
    .split('\n')
    .slice(1)
    .filter((line) => (line.split('\t')[4] ?? '').trim() !== '').length;
}

export async function auditSample(cli: CliContext): Promise<number> {
  const out = cli.required('out');
  if (!out.endsWith('.json'))
    throw usage('--out names the sample file, ending in .json (the pairs to label go beside it as .tsv)');
  const tsvPath = out.replace(/\.json$/, '.tsv');
  // Both files are checked before the sample is drawn, so a refusal writes neither.
  const inUse = cli.filesInUse();
  checkOutputTarget(out, inUse);
  checkOutputTarget(tsvPath, inUse);
  const labelled = labelledRows(tsvPath);
  if (labelled > 0)
    throw usage(
      `${tsvPath} already holds ${countText(labelled)} label${labelled === 1 ? '' : 's'}; a new sample would replace ${labelled === 1 ? 'it' : 'them'}. Estimate with that sample first (audit estimate --sample ${out} --labels ${tsvPath}), or give another --out`,
    );
  const sample = await cli.longCall('audit/sample', {
    labels: cli.integer('labels', 400),
    seed: cli.integer('seed', 1),
    groundTruth: cli.values['ground-truth'] === true,
  });
  const saved = writeOutput(out, `${JSON.stringify(sample, null, 2)}\n`, inUse);
  // The five label columns; isMatch is left for the person labelling (match or non-match), or the ground truth's.
  const tsv =
    [
      'leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch',
      ...sample.pairs.map(
        (p) =>
          `${p.left.sourceSystem}\t${p.left.localId}\t${p.right.sourceSystem}\t${p.right.localId}\t${p.isMatch === undefined ? '' : p.isMatch ? 'match' : 'non-match'}`,
      ),
    ].join('\n') + '\n';
  writeOutput(tsvPath, tsv, inUse);
  if (cli.json) {
    cli.write(json({ out, tsv: tsvPath, strata: sample.strata, pairs: sample.pairs.length }));
    return 0;
  }
  cli.write(
    table(
      ['stratum', 'pairs', 'to label', 'what'],
      sample.strata.map((s) => [s.name, String(s.population), String(s.sampled), AUDIT_STRATUM_TEXT[s.name]]),
    ),
  );
  const fromTruth = sample.pairs.filter((p) => p.isMatch !== undefined).length;
  cli.write(
    fromTruth > 0
      ? `\nWrote the sample to ${out}${saved.note} and its ${countText(sample.pairs.length)} pairs to ${tsvPath}, ${countText(fromTruth)} of them labelled from the ground truth, not by a person${fromTruth < sample.pairs.length ? ' (fill the isMatch column of the others)' : ''}; then\nmpi-console audit estimate --sample ${out} --labels ${tsvPath}\n`
      : `\nWrote the sample to ${out}${saved.note} and the ${countText(sample.pairs.length)} pairs to label to ${tsvPath}: fill its isMatch column (match or non-match), then\nmpi-console audit estimate --sample ${out} --labels ${tsvPath}\n`,
  );
  if (sample.sampledIdentities !== undefined)
    cli.write(`${auditSampleText(sample.sampledIdentities, sample.identities ?? 0)}\n`);
  if (sample.candidatePairsCapped) cli.write('Candidate pairs were capped: the non-linked strata are lower bounds.\n');
  return 0;
}

/** Said beside the labels' count when the ground truth gave some: the figures are then the truth's, not a person's. */
function truthText(fromTruth: number, labels: number): string {
  if (fromTruth === 0) return '';
  return fromTruth === labels
    ? ', all from the ground truth, not a person'
    : `, ${countText(fromTruth)} of them from the ground truth, not a person`;
}

export async function auditEstimate(cli: CliContext): Promise<number> {
  const samplePath = cli.required('sample');
  const labelsPath = cli.required('labels');
  checkInputFile(samplePath);
  checkInputFile(labelsPath);
  let sample: AuditSample;
  try {
    sample = AuditSampleSchema.parse(JSON.parse(readFileSync(samplePath, 'utf8')));
  } catch {
    throw usage(`--sample ${samplePath} is not an audit sample written by \`audit sample\``);
  }
  const read = readLabelTsv(readFileSync(labelsPath, 'utf8'));
  if (read.issues.length > 0)
    throw usage(`--labels ${labelsPath}: ${read.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  const drawn = new Map(sample.pairs.map((p) => [`${refKey(p.left)}\u0001${refKey(p.right)}`, p]));
  const labels = read.pairs.map((pair, i) => {
    const sampled =
      drawn.get(`${refKey(pair.left)}\u0001${refKey(pair.right)}`) ??
      drawn.get(`${refKey(pair.right)}\u0001${refKey(pair.left)}`);
    if (sampled === undefined)
      throw usage(`--labels ${labelsPath}: line ${String(read.lineNumbers[i] ?? 0)} is not a pair of the sample`);
    // A label the sample's ground truth gave (--ground-truth) and nobody changed is the truth's, not a person's.
    const fromGroundTruth = sampled.isMatch !== undefined && sampled.isMatch === pair.isMatch;
    return {
      stratum: sampled.stratum,
      left: pair.left,
      right: pair.right,
      isMatch: pair.isMatch,
      ...(fromGroundTruth ? { fromGroundTruth } : {}),
    };
  });
  const estimate = await cli.client.call(
    'audit/estimate',
    { strata: sample.strata.map(({ name, linked, population }) => ({ name, linked, population })), labels },
    cli.call,
  );
  if (cli.json) {
    cli.write(json(estimate));
    return 0;
  }
  const interval = (b: { estimate: number | null; lower: number | null; upper: number | null }): string =>
    `${fixed(b.estimate)} (95%: ${fixed(b.lower)} to ${fixed(b.upper)})`;
  cli.write(
    keyValues([
      ['precision of links', interval(estimate.precision)],
      ['recall of links', interval(estimate.recall)],
      ['F1', interval(estimate.f1)],
      [
        'labels',
        `${countText(labels.length)}${truthText(estimate.labelsFromGroundTruth ?? 0, labels.length)}; about ${countText(estimate.labelsToHalveInterval)} in all would halve the intervals`,
      ],
    ]),
  );
  cli.write(
    '\n' +
      table(
        ['stratum', 'pairs', 'labelled', 'matches'],
        estimate.byStratum.map((s) => [s.name, String(s.population), String(s.labelled), String(s.matches)]),
      ),
  );
  cli.write(`\n${estimate.method}\n`);
  return 0;
}
