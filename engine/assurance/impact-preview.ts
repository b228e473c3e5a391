/**
 * Impact preview: what a candidate profile would change, scored against the active one on the same registry in one
 * read snapshot, writing nothing.
 *
 *   Links: in every identity holding two or more records, each record's best score to the identity's other records
 *   (the score that made or would make it join: ingestion links a record when its best candidate is Certain). A
 *   record Certain under the active profile and not under the candidate is a link the candidate would not make.
 *   Pairs: every active identity against its blocking candidates with a higher identity ID (reconciliation's pairs,
 *   from the stored index), each pair's best record pair under either profile; a change of decision between them is
 *   counted (new Certain, new review, leaving review), and the pairs the candidate scores at or above Probable that no
 *   open case asks about are the cases a reconciliation would open.
 *
 * Decisions are the scorers' own (holds and hard conflicts included), so the active profile previewed against
 * itself changes nothing.
 */
import { SCORE_BAND_EDGES, scoreBand } from '../contract/score-bands.ts';
import type { RunControl } from '../run-control.ts';
import type { MatchingProfile } from '../contract/profile.ts';
import { IMPACT_KINDS, type ImpactKind, type ImpactPreview } from '../contract/impact-preview.ts';
import type { Store } from '../store/store.ts';
import type { StoredProfile } from '../store/profiles.ts';
import type { CandidateMember } from '../store/records.ts';
import { countIdentities } from '../store/identities.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import { createScorer, type PairOutcome } from '../scoring/scorer.ts';
import { isStronger } from '../scoring/stronger-outcome.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { PreparedCache, preparedMembers, type PreparedMember } from '../ingest/prepared-cache.ts';
import { identityKeys, type IdentityHead } from '../jobs/population.ts';
import { opensReviewCase } from '../ingest/review-gate.ts';
import { decidedDistinct, hasOpenCaseFor } from '../store/reviews.ts';
import { countSeveral } from './link-quality.ts';
import { candidateBatches, linkedBatches } from './identity-batches.ts';

const PREPARED_CACHE_RECORDS = 100_000;

interface Both {
  readonly member: CandidateMember;
  readonly now: PreparedRecord;
  readonly candidate: PreparedRecord;
}

/** A pair's outcome, as much as the preview compares (stronger-outcome.ts) and reports. */
type Scored = Pick<PairOutcome, 'score' | 'decision' | 'heldFrom'>;

/** The stronger of the best so far and another pair's outcome, as ingestion and reconciliation choose it. */
function better(a: Scored | undefined, b: Scored): Scored {
  return isStronger(b, a) ? b : (a ?? b);
}

export function previewImpact(
  store: Store,
  tenantId: string,
  active: StoredProfile,
  candidate: MatchingProfile,
  maxExamples: number,
  control: RunControl,
): ImpactPreview {
  const tf = termFrequencySnapshot(store, tenantId);
  const now = createScorer(active.profile, tf);
  const next = createScorer(candidate, tf);
  const changes = Object.fromEntries(IMPACT_KINDS.map((k) => [k, 0])) as Record<ImpactKind, number>;
  const bySource = new Map<string, Record<ImpactKind, number>>();
  const byScoreBand = Object.fromEntries(IMPACT_KINDS.map((k) => [k, [...SCORE_BAND_EDGES.map(() => 0), 0]])) as Record<
    ImpactKind,
    number[]
  >;
  const examples: ImpactPreview['examples'] = [];
  const examplesOf = new Map<ImpactKind, number>();
  // A two-record identity counts once per record, each with the other as its best partner: one example shows it.
  const shown = new Set<string>();
  const note = (
    kind: ImpactKind,
    a: CandidateMember,
    b: CandidateMember,
    scoreNow: Scored,
    scoreCandidate: Scored,
  ): void => {
    changes[kind]++;
    const band = scoreBand(scoreCandidate.score);
    byScoreBand[kind][band] = (byScoreBand[kind][band] ?? 0) + 1;
    for (const source of new Set([a.sourceSystem, b.sourceSystem])) {
      const counts =
        bySource.get(source) ?? (Object.fromEntries(IMPACT_KINDS.map((k) => [k, 0])) as Record<ImpactKind, number>);
      counts[kind]++;
      bySource.set(source, counts);
    }
    if ((examplesOf.get(kind) ?? 0) >= maxExamples) return;
    const pair = `${kind} ${String(Math.min(a.recordId, b.recordId))} ${String(Math.max(a.recordId, b.recordId))}`;
    if (shown.has(pair)) return;
    shown.add(pair);
    examplesOf.set(kind, (examplesOf.get(kind) ?? 0) + 1);
    examples.push({
      kind,
      left: { sourceSystem: a.sourceSystem, localId: a.localId },
      right: { sourceSystem: b.sourceSystem, localId: b.localId },
      scoreNow: scoreNow.score,
      scoreCandidate: scoreCandidate.score,
      decisionNow: scoreNow.decision,
      decisionCandidate: scoreCandidate.decision,
    });
  };
  // Records met again in later batches (candidates are spread over the population) are prepared once per scorer,
  // in bounded caches, as reconciliation's matching phase keeps them.
  const cacheNow = new PreparedCache(now, PREPARED_CACHE_RECORDS);
  const cacheNext = new PreparedCache(next, PREPARED_CACHE_RECORDS);
  // Each record with its prepared form under the active profile and under the candidate.
  const both = (prepared: ReadonlyMap<number, readonly PreparedMember[]>): Map<number, Both[]> =>
    new Map(
      [...prepared].map(([identityId, rows]) => [
        identityId,
        rows.map(({ member, prepared: [preparedNow, preparedNext] }) => ({
          member,
          now: preparedNow as PreparedRecord,
          candidate: preparedNext as PreparedRecord,
        })),
      ]),
    );
  const belowProbableUnderBoth = (leftRecords: readonly Both[], rightRecords: readonly Both[]): boolean => {
    for (const a of leftRecords)
      for (const b of rightRecords)
        if (
          now.outcomeFromProbable(a.now, b.now) !== undefined ||
          next.outcomeFromProbable(a.candidate, b.candidate) !== undefined
        )
          return false;
    return true;
  };

  // Links inside identities.
  const several = countSeveral(store, tenantId);
  let linkedRecordsCompared = 0;
  for (const members of linkedBatches(store, tenantId, control, 'scoring the records inside each identity')) {
    const prepared = both(preparedMembers([cacheNow, cacheNext], members));
    for (const records of prepared.values()) {
      for (const record of records) {
        let bestNow: Scored | undefined;
        let bestNext: Scored | undefined;
        let partner: CandidateMember | undefined;
        for (const other of records) {
          if (other === record) continue;
          const scoredNow = now.outcome(record.now, other.now);
          if (isStronger(scoredNow, bestNow)) partner = other.member;
          bestNow = better(bestNow, scoredNow);
          bestNext = better(bestNext, next.outcome(record.candidate, other.candidate));
        }
        if (bestNow === undefined || bestNext === undefined || partner === undefined) continue;
        linkedRecordsCompared++;
        if (bestNow.decision === 'certain' && bestNext.decision !== 'certain')
          note('link-below-certain', record.member, partner, bestNow, bestNext);
      }
    }
  }

  // Pairs of identities.
  const identities = countIdentities(store, tenantId);
  const candidateProbable = candidate.MatchingRules.Thresholds.Probable;
  let candidatePairsCompared = 0;
  let wouldOpen = 0;
  const phase = 'scoring each identity against its blocking candidates';
  for (const walked of candidateBatches(store, tenantId, [cacheNow, cacheNext], control, phase)) {
    const { batch, candidatesOf } = walked;
    const prepared = both(walked.prepared);
    const opening: { left: IdentityHead; rightId: number }[] = [];
    for (const left of batch) {
      const leftRecords = prepared.get(left.identityId) ?? [];
      for (const rightId of candidatesOf.get(left.identityId) ?? []) {
        const rightRecords = prepared.get(rightId) ?? [];
        // A pair below Probable under both profiles on every record pair changes nothing and opens nothing: it is
        // counted, and its household fields are not compared (scorer.outcomeFromProbable). Any other pair is
        // scored in full under both, as before.
        if (leftRecords.length > 0 && rightRecords.length > 0 && belowProbableUnderBoth(leftRecords, rightRecords)) {
          candidatePairsCompared++;
          continue;
        }
        let bestNow: Scored | undefined;
        let bestNext: Scored | undefined;
        let pair: [CandidateMember, CandidateMember] | undefined;
        for (const a of leftRecords) {
          for (const b of rightRecords) {
            const scoredNow = now.outcome(a.now, b.now);
            const scoredNext = next.outcome(a.candidate, b.candidate);
            if (isStronger(scoredNext, bestNext)) pair = [a.member, b.member];
            bestNow = better(bestNow, scoredNow);
            bestNext = better(bestNext, scoredNext);
          }
        }
        if (bestNow === undefined || bestNext === undefined || pair === undefined) continue;
        candidatePairsCompared++;
        if (bestNext.decision === 'certain' && bestNow.decision !== 'certain')
          note('new-certain', pair[0], pair[1], bestNow, bestNext);
        else if (bestNext.decision === 'probable' && bestNow.decision === 'no-match')
          note('new-review', pair[0], pair[1], bestNow, bestNext);
        else if (bestNext.decision === 'no-match' && bestNow.decision === 'probable')
          note('leaves-review', pair[0], pair[1], bestNow, bestNext);
        if (opensReviewCase(bestNext, candidateProbable)) opening.push({ left, rightId });
      }
    }
    // As reconciliation decides (jobs/reconcile.ts): not a pair already open at these versions, nor one decided
    // different people while neither identity's records changed.
    const keys = identityKeys(store, tenantId, [...new Set(opening.map((o) => o.rightId))]);
    for (const { left, rightId } of opening) {
      const right = keys.get(rightId);
      if (
        right?.active !== true ||
        hasOpenCaseFor(store, tenantId, left, right) ||
        decidedDistinct(store, tenantId, left.identityId, rightId)
      )
        continue;
      wouldOpen++;
    }
  }

  const sameBlocking = JSON.stringify(active.profile.Blocking) === JSON.stringify(candidate.Blocking);
  return {
    activeVersion: active.version,
    thresholds: {
      active: {
        probable: active.profile.MatchingRules.Thresholds.Probable,
        certain: active.profile.MatchingRules.Thresholds.Certain,
      },
      candidate: { probable: candidateProbable, certain: candidate.MatchingRules.Thresholds.Certain },
    },
    identitiesWithSeveralRecords: several,
    linkedRecordsCompared,
    identitiesCompared: identities,
    candidatePairsCompared,
    changes,
    bySource: Object.fromEntries([...bySource.entries()].sort((a, b) => a[0].localeCompare(b[0]))),
    byScoreBand,
    reviewCasesReconciliationWouldOpen: wouldOpen,
    examples,
    blockingNote: sameBlocking
      ? null
      : 'The candidate changes blocking: its pairs here are those of the stored index (the active rules and keys). After applying it, a re-index builds the new index; a reconciliation then meets the candidate’s own pairs.',
  };
}
