/**
 * Saved assurance runs, kept on this workstation in the console's data folder: every evaluation, calibration, estimate
 * and registry audit asked through the console, with its request (the labelled pairs: record references), its
 * report, the versions it ran under and its time, so it can be reopened and compared with another. One
 * folder per connection (a local sandbox and tenant, or a remote registry and tenant), named by a digest of
 * the connection's storage key; folders 0700, files 0600 (they hold record references). Each run is two
 * files: a small summary (for the list) and the whole run. Files are written beside and renamed, so a crash
 * never leaves half a run. Beyond MAX_RUNS per connection the oldest are removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound, EngineError } from '../../engine/contract/errors.ts';
import {
  RunIdSchema,
  type SaveLabelsInputSchema,
  SavedRunSchema,
  SavedRunSummarySchema,
  type SavedRun,
  type SavedRunSummary,
} from '../../console-protocol/protocol.ts';
import type { OperationOutput } from '../../engine/contract/operations.ts';
import type { z } from 'zod';
import type { EvaluationRequestSchema, CalibrationRequestSchema } from '../../engine/contract/assurance.ts';
import type { EstimateRequestSchema } from '../../engine/contract/estimate.ts';
import type { AuditEstimateOutput, AuditEstimateRequest } from '../../engine/contract/audit.ts';
import type { VersionsSchema } from '../../engine/contract/assurance.ts';
import { datasetDigest } from '../../engine/host-side.ts';

export const MAX_RUNS = 200;
const SUMMARY = '.summary.json';
const RUN = '.run.json';

export type SavedRunInput =
  | {
      readonly kind: 'evaluation';
      readonly request: z.output<typeof EvaluationRequestSchema>;
      readonly report: OperationOutput<'matching/evaluate'>;
    }
  | {
      readonly kind: 'calibration';
      readonly request: z.output<typeof CalibrationRequestSchema>;
      readonly output: OperationOutput<'matching/calibrate'>;
    }
  | {
      readonly kind: 'estimate';
      readonly request: z.output<typeof EstimateRequestSchema>;
      readonly output: OperationOutput<'matching/estimate'>;
    }
  | { readonly kind: 'audit'; readonly request: AuditEstimateRequest; readonly output: AuditEstimateOutput }
  | {
      readonly kind: 'labels';
      readonly request: z.output<typeof SaveLabelsInputSchema>;
      readonly versions: z.output<typeof VersionsSchema>;
    };

/** A sortable, unguessable run ID: the UTC time to the second and 32 random bits. */
export function newRunId(at: Date = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `run-${stamp}-${randomBytes(4).toString('hex')}`;
}

function writeAtomically(path: string, text: string): void {
  const partial = `${path}.partial`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, path);
}

function summaryOf(run: SavedRunInput, runId: string, createdAt: string, actor: string): SavedRunSummary {
  if (run.kind === 'audit' || run.kind === 'labels') {
    const labels = run.kind === 'audit' ? run.request.labels : run.request.pairs;
    const matches = labels.filter((l) => l.isMatch).length;
    const fromTruth = run.kind === 'audit' ? run.request.labels.filter((l) => l.fromGroundTruth === true).length : 0;
    return {
      runId,
      createdAt,
      actor,
      kind: run.kind,
      datasetId: run.kind === 'audit' ? 'registry-audit-sample' : run.request.name,
      datasetDigest: datasetDigest(labels),
      pairs: labels.length,
      matches,
      nonMatches: labels.length - matches,
      versions: run.kind === 'audit' ? run.output.versions : run.versions,
      thresholds: [],
      modelVersion: null,
      ...(fromTruth > 0 ? { labelsFromGroundTruth: fromTruth } : {}),
    };
  }
  if (run.kind === 'estimate') {
    const { model, report } = run.output;
    const fitFailed = report.fit?.status === 'fallback';
    const expected = Math.min(report.candidates.modelled, Math.round(report.expectedMatches));
    return {
      runId,
      createdAt,
      actor,
      kind: 'estimate',
      datasetId: model.datasetId,
      datasetDigest: model.datasetDigest,
      pairs: report.candidates.modelled,
      matches: expected,
      nonMatches: report.candidates.modelled - expected,
      versions: report.trainedAgainst,
      thresholds: report.thresholds.map((t) => t.threshold),
      modelVersion: report.modelVersion,
      modelThresholds: fitFailed ? null : report.suggestedThresholds,
      ...(fitFailed ? { fitFailed } : {}),
    };
  }
  const report = run.kind === 'evaluation' ? run.report : run.output.report;
  const common = {
    runId,
    createdAt,
    actor,
    datasetId: report.datasetId,
    datasetDigest: report.datasetDigest,
    pairs: report.labels.pairs,
    matches: report.labels.matches,
    nonMatches: report.labels.nonMatches,
  };
  if (run.kind === 'evaluation') {
    return {
      ...common,
      kind: 'evaluation',
      versions: run.report.versions,
      thresholds: run.report.thresholds.map((t) => t.threshold),
      modelVersion: null,
    };
  }
  const calibration = run.output.report;
  return {
    ...common,
    kind: 'calibration',
    versions: calibration.trainedAgainst,
    thresholds: calibration.heldOut.thresholds.map((t) => t.threshold),
    modelVersion: calibration.modelVersion,
    modelThresholds:
      calibration.liveThresholds === null || calibration.liveThresholds === undefined
        ? null
        : {
            Certain: calibration.liveThresholds.Certain,
            Probable: calibration.liveThresholds.Probable,
            targetPrecision: calibration.targetPrecision,
          },
  };
}

function wholeRun(run: SavedRunInput, summary: SavedRunSummary): SavedRun {
  switch (run.kind) {
    case 'evaluation':
      return { kind: 'evaluation', summary, request: run.request, report: run.report };
    case 'calibration':
      return { kind: 'calibration', summary, request: run.request, output: run.output };
    case 'estimate':
      return { kind: 'estimate', summary, request: run.request, output: run.output };
    case 'audit':
      return { kind: 'audit', summary, request: run.request, output: run.output };
    case 'labels':
      return { kind: 'labels', summary, request: run.request };
  }
}

export class SavedRuns {
  constructor(private readonly dataFolder: string) {}

  /** The folder of one connection (its storage key is never written out, only its digest). */
  private folder(storageKey: string): string {
    return join(this.dataFolder, 'runs', createHash('sha256').update(storageKey).digest('hex').slice(0, 32));
  }

  save(storageKey: string, run: SavedRunInput, actor: string, at: Date = new Date()): SavedRunSummary {
    const folder = this.folder(storageKey);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const runId = newRunId(at);
    const summary = summaryOf(run, runId, at.toISOString(), actor);
    const whole = wholeRun(run, summary);
    // The whole run first: a summary is listed only once its run can be opened.
    writeAtomically(join(folder, `${runId}${RUN}`), JSON.stringify(whole));
    writeAtomically(join(folder, `${runId}${SUMMARY}`), JSON.stringify(summary));
    for (const old of this.list(storageKey).slice(MAX_RUNS)) this.remove(folder, old.runId);
    return summary;
  }

  /** Newest first; an unreadable summary is skipped (its run cannot be listed, the others still are). */
  list(storageKey: string): SavedRunSummary[] {
    const folder = this.folder(storageKey);
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    const summaries: SavedRunSummary[] = [];
    for (const name of names) {
      if (!name.endsWith(SUMMARY)) continue;
      try {
        const parsed = SavedRunSummarySchema.safeParse(JSON.parse(readFileSync(join(folder, name), 'utf8')));
        if (parsed.success && `${parsed.data.runId}${SUMMARY}` === name) summaries.push(parsed.data);
      } catch {
        // A damaged file is not worth failing the list over.
      }
    }
    return summaries.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.runId.localeCompare(a.runId));
  }

  get(storageKey: string, runId: string): SavedRun {
    const id = RunIdSchema.parse(runId);
    let text: string;
    try {
      text = readFileSync(join(this.folder(storageKey), `${id}${RUN}`), 'utf8');
    } catch {
      throw notFound(`there is no saved run ${id} for this connection`);
    }
    let parsed;
    try {
      parsed = SavedRunSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success !== true)
      throw new EngineError('internal', `saved run ${id} is damaged and cannot be opened; delete it`);
    return parsed.data;
  }

  delete(storageKey: string, runId: string): void {
    const id = RunIdSchema.parse(runId);
    if (!this.list(storageKey).some((run) => run.runId === id))
      throw notFound(`there is no saved run ${id} for this connection`);
    this.remove(this.folder(storageKey), id);
  }

  private remove(folder: string, runId: string): void {
    rmSync(join(folder, `${runId}${SUMMARY}`), { force: true });
    rmSync(join(folder, `${runId}${RUN}`), { force: true });
  }
}
