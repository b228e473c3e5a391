/**
 * Matching assurance on the command line: evaluate and calibrate against a label TSV (the portal's five
 * columns), draw a label file from a sandbox's ground truth, and load a FEBRL benchmark as a tenant.
 * Label files are checked line by line first (errors name TSV lines, never cell values); the engine then
 * checks the dataset rules with the same line numbers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { checkInputFile, checkOutputTarget, writeOutput } from '../files.ts';
import { fixed, json, keyValues, table } from '../format.ts';
import { NUMBER, numberOption, optionalNumber } from '../number-options.ts';
import { modelClosingText } from '../model-weights.ts';
import { parseLabelsTsv, type LabelPair } from '../../../engine/index.ts';
import { loadFebrl, type FebrlSource } from '../../../engine/benchmark/index.ts';
import { BANDS, FIELD_NAMES } from '../../../engine/contract/fields.ts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import type { OperationOutput } from '../../../engine/contract/operations.ts';
import {
  U_SOURCES,
  type LiveThresholds,
  type ThresholdMetrics,
  type USource,
} from '../../../engine/contract/assurance.ts';
import { rateText } from '../../../engine/contract/count-text.ts';
import { reviewLoadState } from '../../../engine/contract/review-load.ts';

function readLabels(cli: CliContext): { pairs: LabelPair[]; rowNumbers: number[] } {
  const file = cli.required('labels');
  checkInputFile(file, '--labels file');
  const { pairs, lineNumbers } = parseLabelsTsv(readFileSync(file, 'utf8'));
  return { pairs, rowNumbers: lineNumbers };
}

function interval(value: { lower: number; upper: number } | null): string {
  return value === null ? '—' : `[${value.lower.toFixed(3)}, ${value.upper.toFixed(3)}]`;
}

function metricsTable(rows: readonly ThresholdMetrics[], label = 'threshold'): string {
  return table(
    [label, 'TP', 'FP', 'TN', 'FN', 'precision', '95% CI', 'recall', '95% CI', 'specificity', 'NPV', 'F1', 'MCC'],
    rows.map((m) => [
      fixed(m.threshold),
      String(m.tp),
      String(m.fp),
      String(m.tn),
      String(m.fn),
      fixed(m.precision),
      interval(m.precisionInterval),
      fixed(m.recall),
      interval(m.recallInterval),
      fixed(m.specificity),
      fixed(m.npv),
      fixed(m.f1),
      fixed(m.mcc),
    ]),
  );
}

/** One letter per field in FIELD_NAMES order: E(xact) S(trong) P(artial) D(ifferent), '.' missing. */
function bandCode(evidence: readonly FieldEvidence[]): string {
  const byField = new Map(evidence.map((e) => [e.field, e.band]));
  return FIELD_NAMES.map((field) => {
    const band = byField.get(field);
    return band === null || band === undefined ? '.' : band.slice(0, 1);
  }).join('');
}

function examplesTable(examples: OperationOutput<'matching/evaluate'>['errorExamples']['falsePositives']): string {
  if (examples.length === 0) return '(none)\n';
  return table(
    ['left', 'right', 'score', 'decided by', 'bands'],
    examples.map((e) => [
      `${e.left.sourceSystem}/${e.left.localId}`,
      `${e.right.sourceSystem}/${e.right.localId}`,
      e.score.toFixed(6),
      e.decidedBy,
      bandCode(e.evidence),
    ]),
  );
}

export async function evaluateCommand(cli: CliContext): Promise<number> {
  const { pairs, rowNumbers } = readLabels(cli);
  const thresholds = cli
    .required('thresholds')
    .split(',')
    .map((t) => t.trim());
  if (thresholds.some((t) => !NUMBER.test(t)))
    throw usage('--thresholds is a comma-separated list of numbers between 0 and 1, e.g. 0.5,0.9,0.99');
  const report = await cli.longCall('matching/evaluate', {
    datasetId: cli.required('dataset'),
    pairs,
    rowNumbers,
    thresholds: thresholds.map(Number),
    maximumErrorExamples: cli.integer('max-errors', 10),
  });
  if (cli.json) {
    cli.write(json(report));
    return 0;
  }
  const r = report.blockingRecall;
  cli.write(
    keyValues([
      ['dataset', `${report.datasetId} (SHA-256 ${report.datasetDigest})`],
      ['profile version', String(report.versions.matchingProfileVersion)],
      ['comparator version', report.versions.comparatorVersion],
      ['score method', `${report.versions.scoreMethod} (${report.versions.scoreMethodVersion})`],
      [
        'labels',
        `${report.labels.pairs} pairs: ${report.labels.matches} matches, ${report.labels.nonMatches} non-matches; ${report.labels.distinctRecords} distinct records`,
      ],
      [
        'decided by',
        `trusted identifier ${report.decidedBy.trustedIdentifier}, hard conflict ${report.decidedBy.hardConflict}, score ${report.decidedBy.score}`,
      ],
      [
        'blocking recall',
        `${fixed(r.recall)} (${r.found} of ${r.truePairs} true pairs are candidates; ${r.missed} missed)`,
      ],
    ]),
  );
  cli.write(`\nScored pairs (the scorer alone, on every labelled pair):\n${metricsTable(report.thresholds)}`);
  const e2e = report.endToEnd;
  if (e2e !== undefined) {
    cli.write(
      `\nEnd to end (blocking misses count as false negatives; ${e2e.notCandidates.matches} true pairs and ${e2e.notCandidates.nonMatches} non-matches are never compared):\n${metricsTable(e2e.thresholds)}${e2e.explanation}\n`,
    );
  }
  cli.write(
    `\nMean similarity by field and class (pairs where both records have the field):\n${table(
      ['field', 'matches', 'observed', 'non-matches', 'observed'],
      report.fieldSimilarity.map((f) => [
        f.field,
        fixed(f.matchMean),
        String(f.matchObserved),
        fixed(f.nonMatchMean),
        String(f.nonMatchObserved),
      ]),
    )}`,
  );
  cli.write(
    `\nFalse positives (score >= lowest threshold, highest first):\n${examplesTable(report.errorExamples.falsePositives)}`,
  );
  cli.write(
    `\nFalse negatives (score < highest threshold, lowest first):\n${examplesTable(report.errorExamples.falseNegatives)}`,
  );
  cli.write(
    `\nbands: one letter per field (${FIELD_NAMES.join(', ')}): ${BANDS.map((b) => `${b.slice(0, 1)} ${b}`).join(', ')}, . missing\n`,
  );
  cli.write(`${report.scoreNote}\nBlocking recall: ${r.rule}\n`);
  return 0;
}

/** The live thresholds' review band against the review budget, in one line. */
function reviewLoadLine(load: NonNullable<LiveThresholds['reviewLoad']>): string {
  const budget = `budget ${String(load.budgetPerThousandRecords)}`;
  const against = {
    over: `over the ${budget}: pairs the limits hold at or above Certain`,
    stopped: `${budget}; ${rateText(load.unbudgetedPairsPerThousandRecords)} without it`,
    within: budget,
  }[reviewLoadState(load)];
  return `${rateText(load.pairsPerThousandRecords)} candidate pairs per 1,000 records (${against})`;
}

/** --review-budget: only with u from random pairs, which count the registry's candidates the budget is read against. */
function reviewBudget(cli: CliContext): number | undefined {
  const budget = optionalNumber(cli, 'review-budget');
  if (budget !== undefined && uSource(cli) === 'labels')
    throw usage(
      '--review-budget needs u from random pairs: with --u-from labels nothing of the registry is read, so there are no candidate pairs to count (profile apply --preview counts the review cases instead)',
    );
  return budget;
}

/** --u-from: random pairs of the registry unless the specification's way (the labelled non-matches) is asked. */
function uSource(cli: CliContext): USource {
  const raw = cli.string('u-from') ?? 'random-pairs';
  const source = U_SOURCES.find((s) => s === raw);
  if (source === undefined) throw usage(`--u-from must be ${U_SOURCES.join(' or ')}`);
  return source;
}

export async function calibrateCommand(cli: CliContext): Promise<number> {
  const { pairs, rowNumbers } = readLabels(cli);
  const out = cli.string('out');
  const inUse = cli.filesInUse();
  if (out !== undefined) checkOutputTarget(out, inUse);
  const withThresholds = cli.values['with-thresholds'] === true;
  if (withThresholds && out === undefined) throw usage('--with-thresholds needs --out FILE');
  const { model, report } = await cli.longCall('matching/calibrate', {
    datasetId: cli.required('dataset'),
    modelVersion: cli.required('model-version'),
    pairs,
    rowNumbers,
    priorMatchProbability: numberOption(cli, 'prior'),
    smoothing: numberOption(cli, 'smoothing'),
    validationFraction: numberOption(cli, 'validation-fraction'),
    targetPrecision: numberOption(cli, 'target-precision'),
    uFrom: uSource(cli),
    reviewBudget: reviewBudget(cli),
  });
  const live = report.liveThresholds ?? null;
  if (withThresholds && live === null) {
    throw usage(
      '--with-thresholds: the held-out pairs lack matches or non-matches, so no live thresholds can be measured; write the model alone and choose thresholds after an evaluation',
    );
  }
  const document =
    withThresholds && live !== null
      ? { MatchingRules: { FellegiSunter: model, Thresholds: { Certain: live.Certain, Probable: live.Probable } } }
      : model;
  const written = out === undefined ? undefined : writeOutput(out, json(document), inUse);
  if (cli.json) {
    cli.write(json({ model, report }));
    return 0;
  }
  const keepProfile = live?.againstProfile?.keepProfile === true;
  if (keepProfile)
    cli.write(
      'The calibrated model does no better than the active profile on the held-out labels: keep the profile (see "live thresholds" below).\n\n',
    );
  cli.write(
    keyValues([
      ['dataset', `${report.datasetId} (SHA-256 ${report.datasetDigest})`],
      ['model version', report.modelVersion],
      [
        'trained against',
        `profile version ${report.trainedAgainst.matchingProfileVersion}, comparators ${report.trainedAgainst.comparatorVersion}, score method ${report.trainedAgainst.scoreMethod} (${report.trainedAgainst.scoreMethodVersion})`,
      ],
      [
        'labels',
        `${report.labels.pairs} pairs: ${report.labels.matches} matches, ${report.labels.nonMatches} non-matches`,
      ],
      [
        'training',
        `${report.training.matches} matches, ${report.training.nonMatches} non-matches (${report.training.decidedOutsideModel} decided outside the model)`,
      ],
      [
        'validation',
        `${report.validation.matches} matches, ${report.validation.nonMatches} non-matches (${report.validation.decidedOutsideModel} decided outside the model)`,
      ],
      ['held-out Brier score', fixed(report.heldOut.brierScore, 6)],
      ['held-out log loss', fixed(report.heldOut.logLoss, 6)],
      [
        'F1-optimal threshold',
        `${report.f1Optimal.threshold === null ? '—' : String(report.f1Optimal.threshold)}: ${report.f1Optimal.explanation}`,
      ],
      // The threshold is the simplest number in its gap of held-out scores: printed as it is, never padded.
      [
        `precision >= ${String(report.targetPrecision)}`,
        `${report.meetingTargetPrecision.threshold === null ? '—' : String(report.meetingTargetPrecision.threshold)}: ${report.meetingTargetPrecision.explanation}`,
      ],
      [
        'u-probabilities',
        report.uSource?.from === 'random-pairs'
          ? report.uSource.explanation
          : 'from the labelled non-matches (the specification’s way); the prior is the one you gave',
      ],
      [
        'live thresholds',
        live === null
          ? '— (the held-out pairs lack a class)'
          : `Certain ${String(live.Certain)}, Probable ${String(live.Probable)}: ${live.explanation}`,
      ],
      ...(live?.reviewLoad === undefined ? [] : [['review load', reviewLoadLine(live.reviewLoad)] as [string, string]]),
    ]),
  );
  cli.write(`\nHeld-out metrics:\n${metricsTable(report.heldOut.thresholds)}`);
  const recommended = [
    report.f1Optimal.metrics,
    report.meetingTargetPrecision.metrics,
    report.meetingTargetPrecision.bestAchievable?.metrics ?? null,
  ].filter((m): m is ThresholdMetrics => m !== null);
  if (recommended.length > 0) cli.write(`\nAt the recommended thresholds:\n${metricsTable(recommended)}`);
  cli.write(
    modelClosingText(
      model,
      {
        heading: 'training observations (matches / non-matches)',
        observations: (field) => {
          const obs = report.fieldObservations.find((o) => o.field === field);
          return obs === undefined ? undefined : `${obs.matches} / ${obs.nonMatches}`;
        },
      },
      report,
      out === undefined || written === undefined
        ? undefined
        : {
            out,
            what: withThresholds ? 'The model and its live thresholds were' : 'The model was',
            note: `${written.note}${keepProfile ? ', though the report advises keeping the active profile' : ''}`,
          },
    ),
  );
  return 0;
}

export async function labelsSample(cli: CliContext): Promise<number> {
  const out = cli.string('out');
  const inUse = cli.filesInUse();
  if (out !== undefined) checkOutputTarget(out, inUse);
  const result = await cli.longCall('labels/sample', {
    maxPairs: cli.integer('max-pairs', 10_000),
    seed: cli.integer('seed', 1),
  });
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  // No header and outcomes as 1/0: the file is then exactly the dataset digest's serialisation, so
  // `sha256sum FILE` equals the datasetDigest that evaluation and calibration report.
  const text = result.pairs
    .map(
      (p) =>
        `${p.left.sourceSystem}\t${p.left.localId}\t${p.right.sourceSystem}\t${p.right.localId}\t${p.isMatch ? '1' : '0'}\n`,
    )
    .join('');
  if (out === undefined) {
    cli.write(text);
    return 0;
  }
  const { note } = writeOutput(out, text, inUse);
  const matches = result.pairs.filter((p) => p.isMatch).length;
  const c = result.candidates;
  cli.write(
    `Wrote ${result.pairs.length} labelled pairs (${matches} matches, ${result.pairs.length - matches} non-matches from blocking candidates) to ${out}${note}.\n` +
      (c.sampledRecords === undefined
        ? `Blocking candidates: ${c.pairs}${c.truncated ? '+' : ''} record pairs, ${c.truePairs}${c.truncated ? '+' : ''} of them true`
        : `Blocking candidates, estimated from a seeded sample of ${c.sampledRecords} of the ${c.records} records: about ${Number(c.pairs.toPrecision(3))} record pairs, about ${Number(c.truePairs.toPrecision(3))} of them true`) +
      ` (share ${fixed(c.matchShare, 6)}: an estimate of --prior for calibration).\n`,
  );
  return 0;
}

/** FEBRL's files in the shared folder beside the project, found from package.json (this module also runs from dist/js). */
function febrlDir(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return join(dir, '..', 'shared', 'data', 'febrl');
  return join('..', 'shared', 'data', 'febrl');
}

/** `febrl load --dataset 4|3 [--dir DIR]`: a tenant holding a FEBRL benchmark, with its ground truth. */
export async function febrlLoad(cli: CliContext): Promise<number> {
  const dir = cli.string('dir') ?? febrlDir();
  const dataset = cli.required('dataset');
  const sources: FebrlSource[] =
    dataset === '4'
      ? [
          { sourceSystem: 'febrl-4a', path: `${dir}/dataset4a.csv` },
          { sourceSystem: 'febrl-4b', path: `${dir}/dataset4b.csv` },
        ]
      : dataset === '3'
        ? [{ sourceSystem: 'febrl-3', path: `${dir}/dataset3.csv` }]
        : [];
  if (sources.length === 0)
    throw usage('--dataset is 4 (dataset4a + dataset4b, two sources) or 3 (one source, deduplication)');
  for (const s of sources)
    if (!existsSync(s.path)) throw usage(`file ${s.path} does not exist (give the FEBRL folder with --dir)`);
  for (const s of sources) checkInputFile(s.path, 'FEBRL file');
  // --profile FILE: the new tenant starts with that profile (e.g. `profile show` of a tenant where an estimated
  // or calibrated model was applied), so the benchmark can be re-matched under it from the first record on.
  const profileFile = cli.string('profile');
  let profile: unknown;
  if (profileFile !== undefined) {
    checkInputFile(profileFile, '--profile file');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(profileFile, 'utf8'));
    } catch {
      throw usage(`file ${profileFile} is not valid JSON`);
    }
    profile = typeof parsed === 'object' && parsed !== null && 'profile' in parsed ? parsed.profile : parsed;
  }
  const { reports } = await loadFebrl(
    cli.creatingEngine,
    cli.call,
    sources,
    ...(profile === undefined ? [] : [profile]),
  );
  if (cli.json) {
    cli.write(json(reports));
    return 0;
  }
  cli.write(
    `FEBRL ${dataset} loaded into tenant "${cli.call.tenantId}" of ${cli.registryLabel}, with its ground truth:\n`,
  );
  cli.write(
    table(
      ['source', 'records', 'auto-linked', 'new identities', 'review cases', 'rejected'],
      reports.map((r) => [
        r.sourceSystem,
        String(r.created),
        String(r.autoLinked),
        String(r.newIdentities),
        String(r.reviewCasesCreated),
        String(r.rejected.length),
      ]),
    ),
  );
  return 0;
}
