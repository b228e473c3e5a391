/**
 * The audit sample's population and draw. Strata of record pairs:
 *
 *   linked        every pair of records of one identity (the registry's links; an identity's first 100 records)
 *   review-band   pairs of records of two identities that are blocking candidates of each other, as reconciliation
 *                 meets them (jobs/reconcile.ts laterCandidates: rarest shared keys first, at most 8 a identity),
 *                 scored ≥ Probable
 *   near          the same, scored from 0.01 to below Probable
 *   far           the same, scored below 0.01
 *
 * The registry is read in batches of identities with a bounded cache of prepared records, never whole: every pair
 * is counted in its stratum and offered to a seeded reservoir (stats/stratified-reservoir.ts) holding at most as
 * many pairs as labels are asked for, so memory is bounded by the labels, not the registry. The draw is a simple
 * random sample without replacement in each stratum: 40% of the labels for the linked pairs (precision), the rest
 * shared equally by the three candidate strata (recall), each capped at its population.
 *
 * A registry of more than MAX_AUDITED_IDENTITIES active identities is walked over a seeded uniform sample of that many
 * (both walks): a pair is met exactly when the identity it is met from is sampled, which has the same chance S/N for
 * every pair, so each stratum's pairs met are a uniform sample of its pairs, and its size is estimated as the count
 * met scaled by N/S. The draw within a stratum stays uniform, so the estimate of precision and recall (weighted by
 * the strata's sizes) describes the registry as a walk of every identity would, at a cost bounded by the sample: at
 * a million records the whole walk took over three minutes.
 */
import type { AuditStratumName } from '../contract/audit.ts';
import { AUDIT_STRATA } from '../contract/audit.ts';
import type { RunControl } from '../run-control.ts';
import type { Store } from '../store/store.ts';
import type { StoredProfile } from '../store/profiles.ts';
import type { CandidateMember } from '../store/records.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import { createScorer } from '../scoring/scorer.ts';
import { createRng, deriveSeed } from '../synthetic/prng.ts';
import { PreparedCache } from '../ingest/prepared-cache.ts';
import { StratifiedReservoir } from '../stats/stratified-reservoir.ts';
import { sampleKeys } from '../stats/sample-keys.ts';
import { activeIdentityIds } from '../jobs/population.ts';
import { candidateBatches, linkedBatches } from './identity-batches.ts';

const FAR = 0.01;
const LINKED_SHARE = 0.4;
const AUDIT_STREAM = 53;
const PREPARED_CACHE_RECORDS = 100_000;
const IDENTITY_SAMPLE_STREAM = 59;

/** The most active identities the audit walks: a larger registry is walked over a seeded sample of this many. */
export const MAX_AUDITED_IDENTITIES = 50_000;

/** The identities an audit walks: all (`sampled` null), or a seeded uniform sample of `max` of them, ascending. */
export interface AuditScope {
  /** The tenant's active identities. */
  readonly identities: number;
  readonly sampled: readonly number[] | null;
}

export function auditScope(store: Store, tenantId: string, max: number, seed: number): AuditScope {
  const ids = activeIdentityIds(store, tenantId);
  if (ids.length <= max) return { identities: ids.length, sampled: null };
  return {
    identities: ids.length,
    sampled: sampleKeys(ids, max, seed, IDENTITY_SAMPLE_STREAM).sort((a, b) => a - b),
  };
}

export interface AuditRecord {
  readonly sourceSystem: string;
  readonly localId: string;
}

export type AuditVisit = (stratum: AuditStratumName, left: AuditRecord, right: AuditRecord) => void;

const ref = (m: CandidateMember): AuditRecord => ({ sourceSystem: m.sourceSystem, localId: m.localId });

/**
 * Every pair of every stratum, in a fixed order (identities ascending), to `visit`; met from `only`'s identities
 * alone when given (ascending IDs). Use inside one read transaction.
 */
export function forEachAuditPair(
  store: Store,
  tenantId: string,
  stored: StoredProfile,
  control: RunControl,
  visit: AuditVisit,
  only?: readonly number[],
): void {
  for (const batch of linkedBatches(store, tenantId, control, 'listing the records each identity links', only)) {
    for (const members of batch.values()) {
      for (let x = 0; x < members.length; x++) {
        for (let y = x + 1; y < members.length; y++) {
          const a = members[x];
          const b = members[y];
          if (a !== undefined && b !== undefined) visit('linked', ref(a), ref(b));
        }
      }
    }
  }

  const scorer = createScorer(stored.profile, termFrequencySnapshot(store, tenantId));
  const cache = new PreparedCache(scorer, PREPARED_CACHE_RECORDS);
  const probable = stored.profile.MatchingRules.Thresholds.Probable;
  const phase = 'scoring each identity against its blocking candidates';
  for (const { batch, candidatesOf, prepared } of candidateBatches(store, tenantId, [cache], control, phase, only)) {
    for (const left of batch) {
      const leftRecords = prepared.get(left.identityId) ?? [];
      for (const rightId of candidatesOf.get(left.identityId) ?? []) {
        for (const a of leftRecords) {
          for (const b of prepared.get(rightId) ?? []) {
            const [pa] = a.prepared;
            const [pb] = b.prepared;
            if (pa === undefined || pb === undefined) continue;
            const score = scorer.outcome(pa, pb).score;
            visit(score >= probable ? 'review-band' : score >= FAR ? 'near' : 'far', ref(a.member), ref(b.member));
          }
        }
      }
    }
  }
}

/** How many labels each stratum gets: 40% linked, the rest shared by the candidate strata, each capped at its size. */
export function allocate(sizes: ReadonlyMap<AuditStratumName, number>, labels: number): Map<AuditStratumName, number> {
  const size = (s: AuditStratumName): number => sizes.get(s) ?? 0;
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

/** The draw from the pairs met: each stratum's count met, its quota and the pairs drawn. */
export interface DrawnPairs {
  readonly sizes: Map<AuditStratumName, number>;
  /** Labels allocated to each stratum. */
  readonly quota: Map<AuditStratumName, number>;
  readonly pairs: { readonly stratum: AuditStratumName; readonly left: AuditRecord; readonly right: AuditRecord }[];
}

export interface DrawnAuditSample extends DrawnPairs {
  /** Pairs in each stratum: estimated (rounded) when the walk was held to a sample of identities. */
  readonly sizes: Map<AuditStratumName, number>;
  /** The tenant's active identities, and how many of them were walked when a sample was (else absent). */
  readonly identities: number;
  readonly sampledIdentities?: number;
}

/** A sampler of the pair stream: offer each pair, then draw. The same seed over the same stream draws the same sample. */
export class AuditSampler {
  private readonly reservoir;
  constructor(
    private readonly labels: number,
    seed: number,
  ) {
    this.reservoir = new StratifiedReservoir<AuditStratumName, readonly [AuditRecord, AuditRecord]>(
      labels,
      createRng(deriveSeed(seed, AUDIT_STREAM)),
    );
  }

  readonly visit: AuditVisit = (stratum, left, right) => {
    this.reservoir.offer(stratum, [left, right]);
  };

  draw(): DrawnPairs {
    const sizes = new Map(AUDIT_STRATA.map((s) => [s, this.reservoir.size(s)]));
    const quota = allocate(sizes, this.labels);
    const pairs = AUDIT_STRATA.flatMap((stratum) =>
      this.reservoir.take(stratum, quota.get(stratum) ?? 0).map(([left, right]) => ({ stratum, left, right })),
    );
    return { sizes, quota, pairs };
  }
}

/**
 * The seeded stratified sample of `labels` pairs of the registry's decisions, over at most `maxIdentities` of its
 * identities (a seeded sample of them beyond). Use inside one read transaction.
 */
export function drawAuditSample(
  store: Store,
  tenantId: string,
  stored: StoredProfile,
  labels: number,
  seed: number,
  control: RunControl,
  maxIdentities = MAX_AUDITED_IDENTITIES,
): DrawnAuditSample {
  const scope = auditScope(store, tenantId, maxIdentities, seed);
  const sampler = new AuditSampler(labels, seed);
  forEachAuditPair(store, tenantId, stored, control, sampler.visit, scope.sampled ?? undefined);
  const drawn = sampler.draw();
  if (scope.sampled === null) return { ...drawn, identities: scope.identities };
  // Each pair was met with chance S/N: the strata's sizes are the counts met, scaled by N/S.
  const scale = scope.identities / scope.sampled.length;
  const sizes = new Map([...drawn.sizes].map(([stratum, met]) => [stratum, Math.round(met * scale)]));
  return { ...drawn, sizes, identities: scope.identities, sampledIdentities: scope.sampled.length };
}
