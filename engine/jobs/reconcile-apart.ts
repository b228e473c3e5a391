/**
 * Reconciliation's IdentitiesApart hold: ingestion's rule (ingest/identities-apart.ts) where no record arrives. An
 * identity whose records carry no birth date (a laboratory's John Smith of 4 Elm Street) is Certain against the father
 * and against the son of its name at its home, born a generation apart; or an identity, dated or not, is Certain
 * against two identities a reviewer decided are different people (John Smiths born 2 and 25 April 1956, and a record
 * of 22 April, a digit from each). Ingestion holds both pairs at Probable; but once that identity's record changes,
 * its cases go out of date, and reconciliation opened a case about it with each of the two reading Certain. A reviewer
 * who answered "same person" on both would send two people to the merge process through it.
 *
 * Reconciliation pairs each identity only with later ones, so the other Certain partners of each identity of a
 * Certain pair are looked up here: its blocking candidates in either direction (ranked as ingestion ranks them),
 * scored as reconciliation scores a pair (the strongest record pair, a BareRecord hold counted as not Certain). Only
 * for a Certain pair that no other rule held, so the search is rare: ingestion links a record to its Certain
 * candidate, and a Certain pair of identities apart is one it left apart or a profile change made. Measured: 2 pairs
 * of the jobs bench's 100k reconciliation take the search (its cost does not show); a registry of 5,000 families of
 * an undated identity, a father and a son (15,000 identities, 10,000 held cases) matched in 2.6–2.8 s against 2.2 s
 * without the hold. A pair decided by a trusted identifier, or an identity Certain against another by one, is not
 * held, as in ingestion. An identity with a birth date is judged by it: only a reviewer's decision counts for it.
 */
import type { Store } from '../store/store.ts';
import type { PairOutcome, Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { FieldScratch } from '../scoring/field-comparison.ts';
import type { PreparedCache } from '../ingest/prepared-cache.ts';
import { MAX_BLOCK_SIZE, MAX_COMPARED_RECORDS_PER_IDENTITY, rankCandidates } from '../ingest/candidates.ts';
import { bareRecordHold } from '../ingest/judged-member.ts';
import { fitsIdentitiesApart, identitiesApartOutcome } from '../ingest/identities-apart.ts';
import { strongestPair } from '../scoring/stronger-outcome.ts';
import { candidateMembers } from '../store/records.ts';
import { decidedDistinct } from '../store/reviews.ts';
import { identitiesWithTags, tagsOfIdentity } from '../store/tags.ts';
import { identityKeys } from './population.ts';

/** An identity of a compared pair, with its prepared records (at most MAX_COMPARED_RECORDS_PER_IDENTITY). */
export interface ComparedIdentity {
  readonly identityId: number;
  readonly records: readonly PreparedRecord[];
}

interface Partner extends ComparedIdentity {
  readonly outcome: PairOutcome;
}

/** One batch's checks, in its read snapshot: each identity's partners are looked up once per batch. */
export class IdentitiesApartCheck {
  private readonly partners = new Map<number, readonly Partner[]>();

  constructor(
    private readonly store: Store,
    private readonly tenantId: string,
    private readonly scorer: Scorer,
    private readonly cache: PreparedCache,
    private readonly probable: number,
    private readonly scratch: FieldScratch,
  ) {}

  /**
   * The IdentitiesApart hold of a pair whose strongest record pair scored `outcome` (Certain, not held otherwise), or
   * undefined when it is not held: neither identity fits two people.
   */
  hold(a: ComparedIdentity, b: ComparedIdentity, outcome: PairOutcome): PairOutcome | undefined {
    if (outcome.decision !== 'certain' || outcome.decidedBy === 'trusted-identifier') return undefined;
    for (const [one, other] of [
      [a, b],
      [b, a],
    ] as const) {
      if (one.records.length === 0) continue;
      // An identity with a birth date is judged by it: only a reviewer's decision makes the other two people.
      const born = one.records.find((r) => r.birthDigits !== null)?.birthDigits ?? null;
      const partners = this.certainPartners(one);
      if (partners.some((p) => p.outcome.decidedBy === 'trusted-identifier')) return undefined;
      const apart = partners.some(
        (third) =>
          third.identityId !== other.identityId &&
          fitsIdentitiesApart(born, births(other), births(third), () =>
            decidedDistinct(this.store, this.tenantId, other.identityId, third.identityId),
          ),
      );
      if (apart) return identitiesApartOutcome(this.probable, outcome.score);
    }
    return undefined;
  }

  /** The active identities this one is Certain against (not held by BareRecord), among its candidates. */
  private certainPartners(identity: ComparedIdentity): readonly Partner[] {
    const known = this.partners.get(identity.identityId);
    if (known !== undefined) return known;
    const tags = tagsOfIdentity(this.store, this.tenantId, identity.identityId).map((t) => t.tag);
    const ranked = rankCandidates(
      identitiesWithTags(this.store, this.tenantId, tags, MAX_BLOCK_SIZE + 1),
      (id) => id !== identity.identityId,
    );
    const keys = identityKeys(this.store, this.tenantId, ranked);
    const active = ranked.filter((id) => keys.get(id)?.active === true);
    const partners: Partner[] = [];
    for (const [identityId, rows] of candidateMembers(
      this.store,
      this.tenantId,
      active,
      MAX_COMPARED_RECORDS_PER_IDENTITY,
    )) {
      const records = rows.map((row) => this.cache.get(row));
      const best = strongestPair(this.scorer, identity.records, records, this.scratch);
      if (best?.outcome.decision !== 'certain') continue;
      const held = bareRecordHold(
        this.scorer,
        { record: best.a, identity: identity.records },
        { record: best.b, identity: records },
        this.probable,
        this.scratch,
      );
      if (held === undefined) partners.push({ identityId, records, outcome: best.outcome });
    }
    this.partners.set(identity.identityId, partners);
    return partners;
  }
}

function births(identity: ComparedIdentity): (string | null)[] {
  return identity.records.map((r) => r.birthDigits);
}
