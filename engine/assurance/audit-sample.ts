/**
 * The audit sample's population and draw. Strata of record pairs:
 *
 *   linked        every pair of records of one identity (the registry's links)
 *   review-band   pairs of records of two identities sharing a usable blocking key, scored ≥ Probable
 *   near          the same, scored from 0.01 to below Probable
 *   far           the same, scored below 0.01
 *
 * Candidate pairs are blocking-candidates.ts's (records sharing a usable key material), without ground truth. A
 * seeded simple random sample without replacement is drawn in each stratum: 40% of the labels for the linked pairs
 * (precision), the rest shared equally by the three candidate strata (recall), each capped at its population.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { AuditSample, AuditStratumName } from '../contract/audit.ts';
import { AUDIT_STRATA } from '../contract/audit.ts';
import type { RunControl } from '../run-control.ts';
import type { Store } from '../store/db.ts';
import type { StoredProfile } from '../store/profiles.ts';
import { tenantRecordFields } from '../store/candidate-records.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import type { KeyRing } from '../blocking/tags.ts';
import { createScorer } from '../scoring/scorer.ts';
import { createRng, deriveSeed } from '../synthetic/prng.ts';
import { BlockingKeyOverlap } from './blocking-recall.ts';
import { blockingCandidatePairs } from './blocking-candidates.ts';

export const MAX_AUDIT_CANDIDATE_PAIRS = 5_000_000;
const FAR = 0.01;
const LINKED_SHARE = 0.4;
const AUDIT_STREAM = 53;

export interface AuditRecord {
  readonly sourceSystem: string;
  readonly localId: string;
}

/** Every pair of every stratum (record indexes), with the records they index. */
export interface AuditPopulation {
  readonly records: readonly AuditRecord[];
  readonly strata: ReadonlyMap<AuditStratumName, readonly (readonly [number, number])[]>;
  readonly capped: boolean;
}

export function auditPopulation(store: Store, tenantId: string, stored: StoredProfile, ring: KeyRing, control: RunControl): AuditPopulation {
  const rows = tenantRecordFields(store, tenantId);
  const index = new Map(rows.map((r, i) => [r.recordId, i]));
  const identityOf = new Int32Array(rows.length).fill(-1);
  for (const [recordId, identityId] of store
    .statement("SELECT l.record_id, l.identity_id FROM identity_link l JOIN identity i ON i.tenant_id = l.tenant_id AND i.identity_id = l.identity_id WHERE l.tenant_id = ? AND i.status = 'active'")
    .raw()
    .all(tenantId) as [number, number][]) {
    const i = index.get(recordId);
    if (i !== undefined) identityOf[i] = identityId;
  }
  const strata = new Map<AuditStratumName, [number, number][]>(AUDIT_STRATA.map((s) => [s, []]));
  const linked = strata.get('linked') ?? [];
  const members = new Map<number, number[]>();
  identityOf.forEach((identity, i) => {
    if (identity < 0) return;
    const list = members.get(identity);
    if (list === undefined) members.set(identity, [i]);
    else list.push(i);
  });
  for (const list of members.values()) for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) linked.push([list[x] ?? 0, list[y] ?? 0]);

  const fields = rows.map((r) => JSON.parse(r.fieldsJson) as MatchFields);
  const overlap = new BlockingKeyOverlap(store, tenantId, stored.profile.Blocking, ring);
  const { pairs, truncated: capped } = blockingCandidatePairs(overlap, fields, MAX_AUDIT_CANDIDATE_PAIRS, control);
  const scorer = createScorer(stored.profile, termFrequencySnapshot(store, tenantId));
  const prepared = fields.map((f) => scorer.prepare(f));
  const probable = stored.profile.MatchingRules.Thresholds.Probable;
  const n = rows.length;
  let scored = 0;
  for (const key of pairs) {
    const a = Math.floor(key / n);
    const b = key % n;
    if (identityOf[a] === identityOf[b]) continue;
    const pa = prepared[a];
    const pb = prepared[b];
    if (pa === undefined || pb === undefined) continue;
    const score = scorer.outcome(pa, pb).score;
    const stratum: AuditStratumName = score >= probable ? 'review-band' : score >= FAR ? 'near' : 'far';
    strata.get(stratum)?.push([a, b]);
    if (++scored % 65536 === 0) control.step('scoring blocking candidates', scored, null);
  }
  return { records: rows.map((r) => ({ sourceSystem: r.sourceSystem, localId: r.localId })), strata, capped };
}

/** How many labels each stratum gets: 40% linked, the rest shared by the candidate strata, each capped at its size. */
export function allocate(population: AuditPopulation, labels: number): Map<AuditStratumName, number> {
  const size = (s: AuditStratumName): number => population.strata.get(s)?.length ?? 0;
  const out = new Map<AuditStratumName, number>();
  out.set('linked', Math.min(size('linked'), Math.round(labels * LINKED_SHARE)));
  let left = labels - (out.get('linked') ?? 0);
  const others = AUDIT_STRATA.filter((s) => s !== 'linked').sort((a, b) => size(a) - size(b));
  others.forEach((s, i) => {
    const share = Math.min(size(s), Math.floor(left / (others.length - i)));
    out.set(s, share);
    left -= share;
  });
  return out;
}

/** A seeded simple random sample without replacement in each stratum (partial Fisher-Yates over indexes). */
export function drawAuditSample(population: AuditPopulation, labels: number, seed: number): AuditSample['pairs'] {
  const rng = createRng(deriveSeed(seed, AUDIT_STREAM));
  const quota = allocate(population, labels);
  const pairs: AuditSample['pairs'] = [];
  for (const stratum of AUDIT_STRATA) {
    const all = population.strata.get(stratum) ?? [];
    const k = quota.get(stratum) ?? 0;
    const order = Array.from({ length: all.length }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + rng.int(order.length - i);
      const pick = order[j] ?? 0;
      order[j] = order[i] ?? 0;
      order[i] = pick;
      const [a, b] = all[pick] ?? [0, 0];
      const left = population.records[a];
      const right = population.records[b];
      if (left !== undefined && right !== undefined) pairs.push({ stratum, left, right });
    }
  }
  return pairs;
}
