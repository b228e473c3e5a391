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
 * The true pairs are always every true pair of the tenant. That read grows with the registry, so it holds a record ID
 * and a person number per record (typed arrays; the source and local IDs are read only for the pairs drawn), and
 * the sample's records are found among them by binary search rather than a map of every record.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import { validationError } from '../contract/errors.ts';
import type { MatchFields } from '../contract/fields.ts';
import { keyRingFor } from '../config/key-ring.ts';
import { activeProfile } from '../store/profiles.ts';
import { hasTruth, recordRefsByIds, truthPersons } from '../store/assurance.ts';
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

/**
 * Every true pair (two records of one person) as a * n + b with a < b, persons in order of their first record and
 * each person's pairs in record order. `person[i]`: record i's person, numbered 0 .. persons - 1.
 */
function truePairsOf(person: Int32Array, persons: number): number[] {
  const n = person.length;
  // Each person's records, contiguous (counting sort by person; records stay in index order within a person).
  const start = new Int32Array(persons + 1);
  for (let i = 0; i < n; i++) {
    const slot = (person[i] ?? 0) + 1;
    start[slot] = (start[slot] ?? 0) + 1;
  }
  for (let p = 0; p < persons; p++) start[p + 1] = (start[p + 1] ?? 0) + (start[p] ?? 0);
  const next = start.slice(0, persons);
  const members = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = person[i] ?? 0;
    members[next[p] ?? 0] = i;
    next[p] = (next[p] ?? 0) + 1;
  }
  const pairs: number[] = [];
  for (let p = 0; p < persons; p++) {
    const end = start[p + 1] ?? 0;
    for (let x = start[p] ?? 0; x < end; x++)
      for (let y = x + 1; y < end; y++) pairs.push((members[x] ?? 0) * n + (members[y] ?? 0));
  }
  return pairs;
}

/** The index of a record ID among ascending IDs, or -1. */
function indexOfRecord(recordIds: Float64Array, recordId: number): number {
  let low = 0;
  let high = recordIds.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = recordIds[mid] ?? 0;
    if (value === recordId) return mid;
    if (value < recordId) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
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
    const truth = truthPersons(store, ctx.tenantId);
    const n = truth.recordIds.length;
    // Record IDs ascending, and each record's person as a dense number, in order of first record.
    const byRecord = new Uint32Array(n);
    for (let i = 0; i < n; i++) byRecord[i] = i;
    byRecord.sort((x, y) => (truth.recordIds[x] ?? 0) - (truth.recordIds[y] ?? 0));
    const recordIds = new Float64Array(n);
    const person = new Int32Array(n);
    const personNumber = new Map<string, number>();
    byRecord.forEach((from, i) => {
      recordIds[i] = truth.recordIds[from] ?? 0;
      const personId = truth.personIds[from] ?? '';
      let p = personNumber.get(personId);
      if (p === undefined) {
        p = personNumber.size;
        personNumber.set(personId, p);
      }
      person[i] = p;
    });
    truth.recordIds.length = 0;
    truth.personIds.length = 0;
    const truePairs = truePairsOf(person, personNumber.size);
    personNumber.clear();

    // Blocking candidates: records sharing a usable key, among all the records or a seeded uniform sample of them
    // (record-sample.ts). Only records with ground truth count; `at` maps a record read to its index among those.
    const sampleRows = readRecordSample(store, ctx.tenantId, maxRecords, seed);
    const at: number[] = [];
    const read = sampleRows.rows.filter((row) => {
      const i = indexOfRecord(recordIds, row.recordId);
      if (i >= 0) at.push(i);
      return i >= 0;
    });
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
    // Pairs are a * n + b over record indexes; only the drawn ones' source and local IDs are read.
    const drawn = [
      ...sample(truePairs, matchCount, rng).map((key) => [key, true] as const),
      ...sample(nonMatches, nonMatchCount, rng).map((key) => [key, false] as const),
    ];
    const idOf = (i: number): number => recordIds[i] ?? 0;
    const refs = recordRefsByIds(store, ctx.tenantId, [
      ...new Set(drawn.flatMap(([key]) => [idOf(Math.floor(key / n)), idOf(key % n)])),
    ]);
    const ref = (i: number): LabelPair['left'] => {
      const found = refs.get(idOf(i));
      if (found === undefined) throw new Error('unreachable: a drawn record was not read');
      return found;
    };
    const pairs: LabelPair[] = drawn.map(([key, isMatch]) => ({
      left: ref(Math.floor(key / n)),
      right: ref(key % n),
      isMatch,
    }));
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
