/**
 * `estimate`: a Fellegi-Sunter model fitted to the tenant's own records without labels (matching/estimate),
 * printed with its convergence, its own estimate of precision and recall per threshold and the thresholds it
 * suggests. Never activated: `--out FILE` writes the model for `profile apply FILE` (with
 * `--with-thresholds`, a MatchingRules document carrying the model and the suggested thresholds).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { checkOutputTarget, writeOutput } from '../files.ts';
import { fixed, json, keyValues, table } from '../format.ts';
import { NUMBER, optionalNumber } from '../number-options.ts';
import { modelClosingText } from '../model-weights.ts';
import type { EstimatedThreshold, EstimateReport } from '../../../engine/contract/estimate.ts';
import { rateText } from '../../../engine/contract/count-text.ts';

function optionalInteger(cli: CliContext, name: string): number | undefined {
  return cli.string(name) === undefined ? undefined : cli.integer(name);
}

function thresholdsOption(cli: CliContext): number[] | undefined {
  const raw = cli.string('thresholds');
  if (raw === undefined) return undefined;
  const parts = raw.split(',').map((t) => t.trim());
  if (parts.some((t) => !NUMBER.test(t)))
    throw usage('--thresholds is a comma-separated list of numbers between 0 and 1, e.g. 0.5,0.9,0.99');
  return parts.map(Number);
}

function estimatedTable(rows: readonly EstimatedThreshold[]): string {
  return table(
    ['threshold', 'pairs at or above', 'expected TP', 'expected FP', 'expected FN', 'precision', 'recall', 'F1'],
    rows.map((r) => [
      fixed(r.threshold, 6),
      String(r.pairsAtOrAbove),
      r.expectedTruePositives.toFixed(1),
      r.expectedFalsePositives.toFixed(1),
      r.expectedFalseNegatives.toFixed(1),
      fixed(r.precision, 5),
      fixed(r.recall, 5),
      fixed(r.f1, 5),
    ]),
  );
}

/** Which fields took m from the person-rule sessions, and how each session went. */
function sessionsText(report: EstimateReport): string {
  if (report.mSessions === undefined) return 'not reported (an older registry): m from EM over all candidates';
  const { fields, sessions } = report.mSessions;
  if (sessions.length === 0)
    return 'none (no blocking rule over names, birth date or identifier only); m from EM over all candidates';
  const each = sessions.map((s) =>
    s.matchShare === null
      ? `${s.rule} (${s.pairs} pairs, too few to fit)`
      : `${s.rule} (${s.pairs} pairs, λ ${fixed(s.matchShare, 3)}, ${s.converged ? 'converged' : 'NOT converged'} after ${s.iterations})`,
  );
  return `${fields.length === 0 ? 'no field' : fields.join(', ')}; sessions: ${each.join('; ')}`;
}

/** What a failed fit's report says in place of the model-estimated figures. */
const NO_FIGURES =
  'No precision or recall is estimated: the fit failed its checks, and a refused fit says nothing about how well any model links. Measure the fallback model with labels (sample labels, then evaluate) before relying on it.';

/** The fit's verdict in one line, and each check on its own line. */
function fitText(report: EstimateReport): { verdict: string; checks: string } {
  const fit = report.fit;
  if (fit === undefined) return { verdict: 'not checked (an older registry)', checks: '' };
  const verdict =
    fit.status === 'fitted'
      ? `passed every check (from the ${fit.start ?? ''} start, best of ${String(fit.attempts.length)} starts)`
      : `FAILED its checks from all ${String(fit.attempts.length)} starts: the model is a fallback, ${fit.fallback ?? ''}; no thresholds are suggested beyond the profile's`;
  const checks = fit.checks.map((c) => `  ${c.passed ? 'ok    ' : 'FAILED'} ${c.check}: ${c.detail}`).join('\n');
  return { verdict, checks };
}

/** The review band at the suggested thresholds against the review budget. */
function reviewBandText(report: EstimateReport): string {
  const band = report.reviewBand;
  if (report.fit?.status === 'fallback') return "none estimated (the fit failed; the profile's thresholds stay)";
  if (band === undefined) return 'not reported (an older registry)';
  const raised = band.budgetRaisedProbable
    ? `; the budget raised Probable, leaving about ${band.expectedTruePairsLeftOut.toFixed(0)} expected true pairs neither linked nor reviewed`
    : '';
  return `${rateText(band.pairsPerThousandRecords)} candidate pairs per 1,000 records (budget ${String(band.budgetPerThousandRecords)})${raised}`;
}

export async function estimateCommand(cli: CliContext): Promise<number> {
  const out = cli.string('out');
  const inUse = cli.filesInUse();
  if (out !== undefined) checkOutputTarget(out, inUse);
  const withThresholds = cli.values['with-thresholds'] === true;
  if (withThresholds && out === undefined) throw usage('--with-thresholds needs --out FILE');
  const { model, report } = await cli.longCall('matching/estimate', {
    modelVersion: cli.required('model-version'),
    seed: optionalInteger(cli, 'seed'),
    randomPairs: optionalInteger(cli, 'random-pairs'),
    maxCandidatePairs: optionalInteger(cli, 'max-candidates'),
    maxRecords: optionalInteger(cli, 'max-records'),
    maxIterations: optionalInteger(cli, 'max-iterations'),
    smoothing: optionalNumber(cli, 'smoothing'),
    thresholds: thresholdsOption(cli),
    targetPrecision: optionalNumber(cli, 'target-precision'),
    targetRecall: optionalNumber(cli, 'target-recall'),
    reviewBudget: optionalNumber(cli, 'review-budget'),
  });
  const document = withThresholds
    ? { MatchingRules: { FellegiSunter: model, Thresholds: report.suggestedThresholds } }
    : model;
  const written = out === undefined ? undefined : writeOutput(out, json(document), inUse);
  if (cli.json) {
    cli.write(json({ model, report }));
    return 0;
  }
  const c = report.candidates;
  const v = report.convergence;
  const fit = fitText(report);
  const failed = report.fit?.status === 'fallback';
  if (failed)
    cli.write(`The estimate did not pass its checks: do not apply it as a fitted model. ${report.suggestion}\n\n`);
  cli.write(
    keyValues([
      ['model version', report.modelVersion],
      [
        'estimated against',
        `profile version ${report.trainedAgainst.matchingProfileVersion}, comparators ${report.trainedAgainst.comparatorVersion}, score method ${report.trainedAgainst.scoreMethod} (${report.trainedAgainst.scoreMethodVersion})`,
      ],
      [
        'records',
        report.sampledRecords === undefined
          ? String(report.records)
          : `${report.records} (estimated on a seeded sample of ${report.sampledRecords})`,
      ],
      [
        'random pairs (u)',
        `${report.randomPairs.compared} compared (seed ${report.randomPairs.seed}); ${report.randomPairs.decidedOutsideModel} decided outside the model; about ${Math.round(report.randomPairs.matchesWeightedOut)} taken for one person and weighted out of u`,
      ],
      [
        'blocking candidates',
        `${c.enumerated}${c.truncated ? ' (enumeration stopped at its cap)' : ''}; ${c.compared} compared, ${c.modelled} modelled in ${c.distinctPatterns} band patterns; ${c.decidedByTrustedIdentifier} trusted identifier, ${c.decidedByHardConflict} hard conflict`,
      ],
      ['fit', fit.verdict],
      [
        'EM',
        `${failed ? "NOT reported as converged (no start passed its checks); the first start, the profile's model, ran" : v.converged ? 'converged after' : 'NOT converged after'} ${v.iterations} of at most ${v.maxIterations} iterations (tolerance ${String(v.tolerance)}); log-likelihood ${v.logLikelihood.toFixed(3)}, last change ${v.finalObjectiveChange.toExponential(2)}, largest parameter change ${v.finalParameterChange.toExponential(2)}`,
      ],
      ['m from sessions', sessionsText(report)],
      [
        'match share among candidates',
        `${fixed(report.candidateMatchShare, 6)}${failed ? " (not estimated: the fit failed, so the profile's prior over the candidates)" : ''}`,
      ],
      ['prior', `${report.priorMatchProbability.toPrecision(4)}: ${report.prior}`],
      [
        'suggested thresholds',
        `Certain ${fixed(report.suggestedThresholds.Certain, 6)}, Probable ${fixed(report.suggestedThresholds.Probable, 6)}`,
      ],
      ['review band', reviewBandText(report)],
    ]),
  );
  if (fit.checks !== '') cli.write(`\nFit checks:\n${fit.checks}\n`);
  if (failed) cli.write(`\n${NO_FIGURES}\n\n${report.suggestion}\n`);
  else {
    cli.write(
      `\nModel-estimated (not measured) precision and recall among blocking candidates:\n${estimatedTable(report.thresholds)}`,
    );
    cli.write(
      `\nAt the suggested thresholds:\n${estimatedTable(report.suggestedThresholdsAt)}\n${report.suggestion}\n`,
    );
  }
  cli.write(
    modelClosingText(
      model,
      {
        heading: 'observations (candidates / random pairs)',
        observations: (field) => {
          const obs = report.fieldObservations.find((o) => o.field === field);
          return obs === undefined ? undefined : `${obs.candidatePairs} / ${obs.randomPairs}`;
        },
      },
      report,
      out === undefined || written === undefined
        ? undefined
        : {
            out,
            what: failed
              ? withThresholds
                ? "The fallback model (not a fit of these records) and the active profile's thresholds were"
                : 'The fallback model (not a fit of these records) was'
              : withThresholds
                ? 'The model and the suggested thresholds were'
                : 'The model was',
            note: written.note,
          },
    ),
  );
  return 0;
}
