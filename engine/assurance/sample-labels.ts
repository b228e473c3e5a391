/**
 * Labelled pairs drawn from a tenant's ground truth (the synthetic_truth of a synthetic sandbox or of a
 * benchmark load): every true pair (two registry records of one person), and hard non-matches drawn from
 * the blocking candidates, i.e. records of different people that share a usable blocking key (the same
 * notion of "candidate" as blocking recall, blocking-recall.ts). Non-matches drawn at random from the
 * whole population would be trivially easy; candidates are the pairs the scorer actually meets.
 *
 * Sizes: matches take up to half of maxPairs (rounded up), non-matches the rest; when either class is
 * short, the other fills the remainder. A class larger than its share is sampled uniformly with a PRNG
 * seeded by `seed` (the same seed and registry always give the same file). Each pair is written with the
 * lower record ID on the left, and the pairs are shuffled so the file is not sorted by class.
 *
 * The candidate population is reported too: the share of true pairs among all candidate pairs estimates
 * the priorMatchProbability a calibration should use for ingestion.
 *
 * On a tenant of more than MAX_SAMPLED_RECORDS records, the candidate pairs are those among a seeded uniform sample
 * of that many records (record-sample.ts, as the estimate and the workbench read): a uniform sample of the
 * registry's candidate pairs, from which the non-matches are drawn and the candidate figures estimated (the
 * counts scaled up, the share as it is). Enumerating a million records' candidates stopped at MAX_CANDIDATE_PAIRS
 * in record order, so the non-matches came from the earliest records only and the share described them alone.
 * The true pairs are always every true pair of the tenant.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { validationError } from '../contract/errors.ts';
import type { MatchFields } from '../contract/fields.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { activeProfile } from '../store/profiles.ts';
import { hasTruth, truthRecords } from '../store/assurance.ts';
import { requireTenant } from '../store/tenants.ts';
import { createRng, deriveSeed, type Rng } from '../synthetic/prng.ts';
import type { EngineEnv } from '../env.ts';
import { BlockingKeyOverlap } from './blocking-recall.ts';
import { MAX_SAMPLED_RECORDS, readRecordSample } from './record-sample.ts';
import { blockingCandidatePairs } from './blocking-candidates.ts';
import type { LabelPair } from './labels.ts';

/** Stops enumerating candidate pairs beyond this many (memory bound on very large sandboxes). */
export const MAX_CANDIDATE_PAIRS = 5_000_000;
const SAMPLE_STREAM = 41;

/** The first k of a seeded partial Fisher-Yates shuffle (all of them, shuffled, when k >= length). */
function sample<T>(items: T[], k: number, rng: Rng): T[] {
  const n = Math.min(k, items.length);
  for (let i = 0; i < n; i++) {
    const j = i + rng.int(items.length - i);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items.slice(0, n);
}

export function sampleLabels(
  env: EngineEnv,
  input: OperationInput<'labels/sample'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
  /** The most records whose candidate pairs are enumerated; a larger registry is sampled (tests lower it). */
  maxRecords = MAX_SAMPLED_RECORDS,
): OperationOutput<'labels/sample'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  const maxPairs = input.maxPairs ?? 10_000;
  const seed = input.seed ?? 1;
  const rng = createRng(deriveSeed(seed, SAMPLE_STREAM));
  return store.read(() => {
    if (!hasTruth(store, ctx.tenantId)) {
      throw validationError(
        `tenant "${ctx.tenantId}" has no ground truth: labelled pairs can only be sampled from a synthetic sandbox (sandbox init --synthetic N) or a benchmark load; label a registry of real patients by hand (the console's Workbench, or decided review cases with reviews labels)`,
      );
    }
    const stored = activeProfile(store, ctx.tenantId);
    control.step('reading the records', 0, null);
    const rows = truthRecords(store, ctx.tenantId);
    const n = rows.length;
    const person = rows.map((row) => row.personId);

    const truePairs: [number, number][] = [];
    const byPerson = new Map<string, number[]>();
    person.forEach((p, i) => {
      const members = byPerson.get(p);
      if (members === undefined) byPerson.set(p, [i]);
      else members.push(i);
    });
    for (const members of byPerson.values()) {
      for (let x = 0; x < members.length; x++)
        for (let y = x + 1; y < members.length; y++) truePairs.push([members[x] ?? 0, members[y] ?? 0]);
    }

    // Blocking candidates: records sharing a usable key, among all the records or a seeded uniform sample of them
    // (record-sample.ts). Only records with ground truth count; `at` maps a record read to its index among those.
    const indexOf = new Map(rows.map((row, i) => [row.recordId, i]));
    const sampleRows = readRecordSample(store, ctx.tenantId, maxRecords, seed);
    const read = sampleRows.rows.filter((row) => indexOf.has(row.recordId));
    const at = read.map((row) => indexOf.get(row.recordId) ?? 0);
    const fields = read.map((row) => JSON.parse(row.fieldsJson) as MatchFields);
    const s = read.length;
    const sampled = sampleRows.population > sampleRows.rows.length;
    const ring = keyRingFor(stored.profile.Blocking, env.settings(), ctx.tenantId);
    const overlap = new BlockingKeyOverlap(store, ctx.tenantId, stored.profile.Blocking, ring);
    const { pairs: candidates, truncated } = blockingCandidatePairs(overlap, fields, MAX_CANDIDATE_PAIRS, control, {
      sampled,
    });
    let trueCandidates = 0;
    const nonMatches: number[] = [];
    for (const key of candidates.keys()) {
      const a = at[Math.floor(key / s)] ?? 0;
      const b = at[key % s] ?? 0;
      if (person[a] === person[b]) trueCandidates++;
      else nonMatches.push(a * n + b);
    }
    nonMatches.sort((a, b) => a - b);
    // Each pair of the registry is among a uniform sample's pairs with the same chance, s(s-1) / (n(n-1)).
    const scale = sampled && s > 1 ? (n * (n - 1)) / (s * (s - 1)) : 1;

    const matchQuota = Math.min(truePairs.length, Math.ceil(maxPairs / 2));
    const nonMatchCount = Math.min(nonMatches.length, maxPairs - matchQuota);
    const matchCount = Math.min(truePairs.length, maxPairs - nonMatchCount);
    const ref = (i: number): LabelPair['left'] => {
      const row = rows[i];
      if (row === undefined) throw new Error('unreachable: record index out of range');
      return { sourceSystem: row.sourceSystem, localId: row.localId };
    };
    const pairs: LabelPair[] = [
      ...sample(truePairs, matchCount, rng).map(([a, b]) => ({ left: ref(a), right: ref(b), isMatch: true })),
      ...sample(nonMatches, nonMatchCount, rng).map((key) => ({
        left: ref(Math.floor(key / n)),
        right: ref(key % n),
        isMatch: false,
      })),
    ];
    return {
      pairs: sample(pairs, pairs.length, rng),
      candidates: {
        pairs: Math.round(candidates.size * scale),
        truePairs: Math.round(trueCandidates * scale),
        matchShare: candidates.size === 0 ? null : trueCandidates / candidates.size,
        records: n,
        ...(sampled ? { sampledRecords: s } : {}),
        truncated,
      },
    };
  });
}
