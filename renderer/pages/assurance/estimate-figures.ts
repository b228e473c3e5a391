/**
 * The unsupervised estimate's report in words and rows: the EM convergence facts as sentences a person can
 * read, and the model-estimated precision/recall per threshold as ordered rows (one per distinct threshold,
 * the suggested ones included) for the curves, the table and its export.
 */
import type { EstimatedThreshold, EstimateReport } from '../../../engine/contract/estimate.ts';
import { formatCount, formatCountOf, recordSampleText } from '../../format.ts';
import { fieldList } from '../../../engine/contract/field-title.ts';
import { rateText } from '../../../engine/contract/count-text.ts';

export interface EstimatedRow {
  readonly threshold: number;
  readonly pairsAtOrAbove: number;
  readonly expectedTruePositives: number;
  readonly expectedFalsePositives: number;
  readonly expectedFalseNegatives: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  /** Which suggested threshold this row is, if any. */
  readonly suggested: 'Certain' | 'Probable' | 'Certain and Probable' | null;
}

/** The report's thresholds and the suggested ones, one row per distinct threshold, ascending. */
export function estimatedRows(
  report: Pick<EstimateReport, 'thresholds' | 'suggestedThresholdsAt' | 'suggestedThresholds'>,
): EstimatedRow[] {
  const byThreshold = new Map<number, EstimatedThreshold>();
  for (const row of [...report.thresholds, ...report.suggestedThresholdsAt])
    if (!byThreshold.has(row.threshold)) byThreshold.set(row.threshold, row);
  const { Certain, Probable } = report.suggestedThresholds;
  return [...byThreshold.values()]
    .sort((a, b) => a.threshold - b.threshold)
    .map((row) => ({
      ...row,
      suggested:
        row.threshold === Certain && row.threshold === Probable
          ? 'Certain and Probable'
          : row.threshold === Certain
            ? 'Certain'
            : row.threshold === Probable
              ? 'Probable'
              : null,
    }));
}

/** EM's convergence in plain words: whether it settled, how fast, and what the last step still moved. */
export function convergenceText(convergence: EstimateReport['convergence'], fit?: EstimateReport['fit']): string {
  const { converged, iterations, maxIterations, tolerance, finalParameterChange } = convergence;
  const steps = `${String(iterations)} iteration${iterations === 1 ? '' : 's'}`;
  // A failed fit is never called converged, whether or not its EM settled: what settled is what the checks refused.
  if (fit?.status === 'fallback')
    return `No fit is reported as converged: no start passed every check (above), so the model is the fallback, not a fit of these records. The first start (the profile's model) ${iterations >= maxIterations ? `stopped at its limit of ${String(maxIterations)} iterations` : `stopped after ${steps}`}.`;
  return converged
    ? `Converged after ${steps} (of at most ${String(maxIterations)}): in the last iteration no m, u or match share moved by more than ${String(tolerance)} (largest change ${finalParameterChange.toExponential(2)}).`
    : `Did not converge: stopped at the limit of ${String(maxIterations)} iterations while a parameter still moved by ${finalParameterChange.toExponential(2)}, more than the tolerance ${String(tolerance)}. Treat the model with caution: raise the iteration limit or the smoothing, or compare more candidates.`;
}

/** Which fields took m from the EM sessions over person blocking rules (engine/assurance/session-m.ts), in one sentence. */
export function sessionsText(sessions: EstimateReport['mSessions']): string {
  if (sessions === undefined) return 'The registry did not say how m was estimated (an older version).';
  const fitted = sessions.sessions.filter((s) => s.matchShare !== null);
  if (sessions.fields.length === 0)
    return 'm from EM over all candidate pairs: no blocking rule over names, birth date or identifier alone had enough pairs for a session of its own.';
  return `m of ${fieldList(sessions.fields)} from ${String(fitted.length)} EM session${fitted.length === 1 ? '' : 's'}, one per blocking rule over names, birth date or identifier, each leaving its rule's fields out (${fitted.map((s) => `${s.rule}: ${formatCount(s.pairs)} pairs`).join('; ')}); the other fields' m from EM over all candidate pairs.`;
}

/** The review band at the suggested thresholds against the review budget, in one sentence. */
export function reviewBandText(report: Pick<EstimateReport, 'reviewBand' | 'fit'>): string {
  const band = report.reviewBand;
  if (report.fit?.status === 'fallback')
    return "No review band is estimated: the fit failed its checks, so the profile's thresholds stay as they are.";
  if (band === undefined) return 'The registry did not report the review band against a budget (an older version).';
  const size = `The suggested thresholds leave ${rateText(band.pairsPerThousandRecords)} candidate pairs per 1,000 records for review (budget ${String(band.budgetPerThousandRecords)}).`;
  return band.budgetRaisedProbable
    ? `${size} The budget raised Probable: the model expects about ${formatCount(Math.round(band.expectedTruePairsLeftOut))} true pairs among the pairs it leaves below, neither linked nor reviewed.`
    : size;
}

/** The fit checks' verdict for the page: a title, whether it failed, and one sentence. */
export function fitVerdict(fit: EstimateReport['fit']): {
  readonly title: string;
  readonly failed: boolean;
  readonly text: string;
} {
  if (fit === undefined)
    return {
      title: 'Fit not checked',
      failed: false,
      text: 'The registry did not check the fit (an older version): treat the model with caution and measure it with labels.',
    };
  if (fit.status === 'fitted') {
    return {
      title: 'The fit passed every check',
      failed: false,
      text: `EM ran from ${formatCountOf(fit.attempts.length, 'start')}; the model is the best of those that passed every check (the ${fit.start ?? ''} start).`,
    };
  }
  return {
    title: 'The estimate failed its checks: do not apply it as a fitted model',
    failed: true,
    text: `None of the ${String(fit.attempts.length)} starts passed every check, so the model is a fallback: ${fit.fallback ?? ''}. No thresholds are suggested beyond the profile's own. Label a few hundred pairs and calibrate, or keep the default profile.`,
  };
}

/** Under the record count: whether the estimate read a seeded sample of the records, and how many (else null). */
export function sampleCaption(report: Pick<EstimateReport, 'records' | 'sampledRecords'>): string | null {
  if (report.sampledRecords === undefined) return null;
  return `estimated on ${recordSampleText(report.sampledRecords, report.records)}`;
}
