/**
 * The registry audit's labels: the verdicts given to the audit sample's pairs (kept by pair, workbench-labels.ts),
 * turned into the audit estimate's request (each label with its pair's stratum; unsure ones left out), and a saved
 * audit turned back into a sample and verdicts so the analyst can read it again or go on labelling.
 */
import type { z } from 'zod';
import type { AuditEstimateInputSchema, AuditSample, AuditStratumName } from '../../../engine/contract/audit.ts';
import { pairKey, withVerdicts, type KeptVerdict } from './workbench-labels.ts';

export type AuditRequest = z.input<typeof AuditEstimateInputSchema>;

/** The estimate's request: the sample's strata and, in the sample's order, each pair given a match or non-match. */
export function auditRequest(sample: AuditSample, verdicts: ReadonlyMap<string, KeptVerdict>): AuditRequest {
  const labels: AuditRequest['labels'] = [];
  for (const pair of sample.pairs) {
    const kept = verdicts.get(pairKey(pair));
    if (kept === undefined || kept.verdict === 'unsure') continue;
    labels.push({
      stratum: pair.stratum,
      left: pair.left,
      right: pair.right,
      isMatch: kept.verdict === 'match',
      ...(kept.fromGroundTruth === true ? { fromGroundTruth: true } : {}),
    });
  }
  return { strata: sample.strata.map(({ name, linked, population }) => ({ name, linked, population })), labels };
}

/** Labels so far per stratum (matches and non-matches; unsure ones are not labels). */
export function labelledByStratum(
  sample: AuditSample,
  verdicts: ReadonlyMap<string, KeptVerdict>,
): Map<AuditStratumName, number> {
  const counts = new Map<AuditStratumName, number>();
  for (const pair of sample.pairs) {
    const kept = verdicts.get(pairKey(pair));
    if (kept !== undefined && kept.verdict !== 'unsure') counts.set(pair.stratum, (counts.get(pair.stratum) ?? 0) + 1);
  }
  return counts;
}

/**
 * A saved audit as a sample (its labelled pairs, each stratum's sampled count being those labelled) and its verdicts.
 * The pairs drawn but not labelled are not saved: drawing again with the same size and seed on an unchanged registry
 * gives the same sample, and the verdicts, kept by pair, attach to it again.
 */
export function reopenedAudit(
  request: AuditRequest,
  matchingProfileVersion: number,
): { sample: AuditSample; verdicts: Map<string, KeptVerdict> } {
  const verdicts = withVerdicts(
    new Map(),
    request.labels.map(({ left, right, isMatch, fromGroundTruth }) => ({
      left,
      right,
      verdict: isMatch ? 'match' : 'non-match',
      ...(fromGroundTruth === true ? { fromGroundTruth: true } : {}),
    })),
  );
  return {
    sample: {
      matchingProfileVersion,
      strata: request.strata.map((s) => ({ ...s, sampled: request.labels.filter((l) => l.stratum === s.name).length })),
      pairs: request.labels.map(({ stratum, left, right }) => ({ stratum, left, right })),
      candidatePairsCapped: false,
    },
    verdicts,
  };
}

/**
 * The verdicts with the ground truth's labels of a sample drawn with it (pairs the truth does not know keep theirs):
 * the registry's figures on a synthetic sandbox without labelling by hand. Each says it is the truth's, and keeps the
 * verdict a person had given its pair, which withoutTruthVerdicts gives back.
 */
export function withTruthVerdicts(
  verdicts: ReadonlyMap<string, KeptVerdict>,
  sample: AuditSample,
): Map<string, KeptVerdict> {
  return withVerdicts(
    verdicts,
    sample.pairs.flatMap(({ left, right, isMatch }): KeptVerdict[] => {
      if (isMatch === undefined) return [];
      const before = verdicts.get(pairKey({ left, right }));
      const byHand = before?.fromGroundTruth === true ? before.byHand : before?.verdict;
      return [
        {
          left,
          right,
          verdict: isMatch ? 'match' : 'non-match',
          fromGroundTruth: true,
          ...(byHand === undefined ? {} : { byHand }),
        },
      ];
    }),
  );
}

/**
 * The verdicts without the ground truth's, for a sample a person labels: each pair the truth labelled gets back the
 * verdict a person had given it, or none. The same map when the truth gave none.
 */
export function withoutTruthVerdicts(verdicts: Map<string, KeptVerdict>): Map<string, KeptVerdict> {
  if (![...verdicts.values()].some((kept) => kept.fromGroundTruth === true)) return verdicts;
  const next = new Map<string, KeptVerdict>();
  for (const [key, kept] of verdicts) {
    if (kept.fromGroundTruth !== true) next.set(key, kept);
    else if (kept.byHand !== undefined) next.set(key, { left: kept.left, right: kept.right, verdict: kept.byHand });
  }
  return next;
}

/** Whether the sample was drawn with the ground truth (its pairs come labelled). */
export function drawnWithTruth(sample: AuditSample): boolean {
  return sample.pairs.some((p) => p.isMatch !== undefined);
}

/** How many of the sample's pairs hold the ground truth's label (a person's verdict since replaces it). */
export function truthLabelled(sample: AuditSample, verdicts: ReadonlyMap<string, KeptVerdict>): number {
  return sample.pairs.filter((p) => verdicts.get(pairKey(p))?.fromGroundTruth === true).length;
}
