/**
 * `labels/candidates`: pairs for the labelling workbench (engine/contract/workbench.ts). The population is
 * the tenant's blocking candidates (blocking-candidates.ts), the pairs the scorer meets in production, so
 * labels made here come from the population a calibration's prior and u-probabilities must describe.
 *
 * 1. The records are read (all of them, or a seeded uniform sample of MAX_SAMPLED_RECORDS on a larger registry:
 *    record-sample.ts, the blocking candidates among them a uniform sample of the registry's), and the candidate
 *    pairs among them enumerated (at most 1,000,000).
 * 2. At most MAX_SCORED_CANDIDATES of them are scored: all, or a uniform sample drawn with a PRNG seeded by
 *    `seed` (a partial Fisher-Yates shuffle of the pairs in enumeration order), so a seed gives the same list.
 * 3. Pairs scoring within [minScore, maxScore] are ordered: near-thresholds by the distance to the nearer of
 *    Thresholds.Probable and Thresholds.Certain (where labels move a threshold decision most), or by score;
 *    ties by the records' IDs. `offset` and `limit` page through that list; only the page gets evidence.
 *
 * Reads only; writes nothing (no audit record: nothing is evaluated and no label is stored). The output holds
 * the records' normalised fields for display: never logged, never in an error.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { MatchFields } from '../contract/fields.ts';
import { MAX_SCORED_CANDIDATES, type CandidatePair } from '../contract/workbench.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { newScratch } from '../scoring/field-comparison.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { scoreBasis } from '../scoring/score-basis.ts';
import { createScorer, outcomeDetails } from '../scoring/scorer.ts';
import { storedTermFrequencies } from '../store/term-frequency.ts';
import { activeProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import { sampleKeys } from '../stats/sample-keys.ts';
import type { EngineEnv } from '../env.ts';
import { BlockingKeyOverlap } from './blocking-recall.ts';
import { blockingCandidatePairs } from './blocking-candidates.ts';
import { MAX_SAMPLED_RECORDS, readRecordSample } from './record-sample.ts';

export const MAX_ENUMERATED_CANDIDATES = 1_000_000;

export function candidatePairs(
  env: EngineEnv,
  input: OperationInput<'labels/candidates'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
  /** The most records read; a larger registry is sampled (tests lower it). */
  maxRecords = MAX_SAMPLED_RECORDS,
): OperationOutput<'labels/candidates'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  const minScore = input.minScore ?? 0;
  const maxScore = input.maxScore ?? 1;
  const order = input.order ?? 'near-thresholds';
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 50;
  const seed = input.seed ?? 1;
  return store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    control.step('reading the records', 0, null);
    const { rows, population } = readRecordSample(store, ctx.tenantId, maxRecords, seed);
    const fields = rows.map((row) => JSON.parse(row.fieldsJson) as MatchFields);
    const n = rows.length;
    const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
    const overlap = new BlockingKeyOverlap(store, ctx.tenantId, stored.profile.Blocking, ring);
    const enumerated = blockingCandidatePairs(overlap, fields, MAX_ENUMERATED_CANDIDATES, control, {
      sampled: population > n,
    });
    const keys = sampleKeys(enumerated.pairs.keys(), MAX_SCORED_CANDIDATES, seed);

    const scorer = createScorer(stored.profile, storedTermFrequencies(store, ctx.tenantId));
    const prepared = new Map<number, PreparedRecord>();
    const prepare = (index: number): PreparedRecord => {
      let record = prepared.get(index);
      if (record === undefined) {
        record = scorer.prepare(fields[index] as MatchFields);
        prepared.set(index, record);
      }
      return record;
    };
    const { Probable, Certain } = stored.profile.MatchingRules.Thresholds;
    const scratch = newScratch();
    const inRange: { key: number; score: number; rank: number }[] = [];
    keys.forEach((key, k) => {
      if ((k & 4095) === 0) control.step('scoring candidate pairs', k, keys.length);
      const a = Math.floor(key / n);
      const b = key % n;
      const { score } = scorer.outcome(prepare(a), prepare(b), scratch);
      if (score < minScore || score > maxScore) return;
      const rank =
        order === 'near-thresholds'
          ? Math.min(Math.abs(score - Probable), Math.abs(score - Certain))
          : order === 'highest-first'
            ? -score
            : score;
      inRange.push({ key, score, rank });
    });
    // Keys order ties: a * n + b follows the records' IDs (rows are in record-ID order).
    inRange.sort((x, y) => x.rank - y.rank || x.key - y.key);

    const record = (index: number): CandidatePair['left'] => {
      const row = rows[index];
      if (row === undefined) throw new Error('unreachable: record index out of range');
      return {
        sourceSystem: row.sourceSystem,
        localId: row.localId,
        fields: fields[index] as CandidatePair['left']['fields'],
      };
    };
    const pairs = inRange.slice(offset, offset + limit).map(({ key }): CandidatePair => {
      const a = Math.floor(key / n);
      const b = key % n;
      const explained = scorer.explain(prepare(a), prepare(b));
      return {
        left: record(a),
        right: record(b),
        score: explained.score,
        decision: explained.decision,
        decidedBy: explained.decidedBy,
        ...outcomeDetails(explained),
        evidence: explained.evidence,
      };
    });
    return {
      versions: {
        matchingProfileVersion: stored.version,
        comparatorVersion: scorer.comparatorVersion,
        scoreMethod: scorer.method,
        scoreMethodVersion: scorer.methodVersion,
      },
      scoreBasis: scoreBasis(stored.profile),
      population: {
        records: population,
        ...(population > n ? { sampledRecords: n } : {}),
        candidatePairs: enumerated.pairs.size,
        truncated: enumerated.truncated,
        scoredPairs: keys.length,
        inRange: inRange.length,
      },
      order,
      offset,
      pairs,
    };
  });
}
