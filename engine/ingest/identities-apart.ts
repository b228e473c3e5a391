/**
 * Whether an arriving record that is Certain against two candidate identities fits two people the registry holds
 * apart, so that linking it to either would be a guess (the IdentitiesApart hold, ingestor.ts). Ingestion links a
 * record to its best Certain candidate and asks about the others in review cases; where two candidates tie, the best
 * is the older identity, whoever the record describes.
 *
 * Two cases, each evidence that the two identities are two people, not one person registered twice:
 * - **A generation apart, and the record has no birth date.** A father and son of one name at one home (a Junior and
 *   a Senior whose sources drop the suffix), or a mother and daughter: a record of that name and home without a birth
 *   date (a laboratory's, a referral's) is Certain against both, and was linked to whichever was registered first. The
 *   two identities' birth dates are a generation apart when every pair of them is (comparators/generation-apart.ts:
 *   at least 15 years, on days of the year not a keying error apart). A record with a birth date is judged by it, as
 *   before.
 * - **A reviewer decided they are different people** (distinct_pair, while neither identity's records changed): a
 *   record that fits both at Certain then fits two people a person has already told apart.
 *
 * Measured (`npm run quality`, every set): before the generation test, the dates differing at all (the Different band)
 * held 25 records of the 20,000 of heavy-typos-many, all its own person's (auto-link F1 0.9667 → 0.9656); with it, no
 * record of any set is held and every set's figures are unchanged. The gain is where the sets have no such families:
 * test/engine/ingest/identities-apart.test.ts.
 */
import { bornAGenerationApart } from '../comparators/generation-apart.ts';
import type { PairOutcome } from '../scoring/scorer.ts';

/**
 * Whether two identities' records were born a generation apart: at least one pair of their birth dates (YYYYMMDD;
 * null for a record without one, which says nothing) compared, and every such pair a generation apart.
 */
export function identitiesAGenerationApart(a: readonly (string | null)[], b: readonly (string | null)[]): boolean {
  let compared = 0;
  for (const x of a) {
    if (x === null) continue;
    for (const y of b) {
      if (y === null) continue;
      if (!bornAGenerationApart(x, y)) return false;
      compared++;
    }
  }
  return compared > 0;
}

/**
 * Whether the arriving record, Certain against both identities, fits two people the registry holds apart (see the
 * module comment). Birth dates as identitiesAGenerationApart takes them; decidedDistinct: whether a reviewer decided
 * the two are different people (read only when asked).
 */
export function fitsIdentitiesApart(
  arriving: string | null,
  a: readonly (string | null)[],
  b: readonly (string | null)[],
  decidedDistinct: () => boolean,
): boolean {
  if (arriving === null && identitiesAGenerationApart(a, b)) return true;
  return decidedDistinct();
}

/** The outcome of a Certain candidate held so (IdentitiesApart): at the Probable threshold, held from its score. */
export function identitiesApartOutcome(probable: number, heldFrom: number): PairOutcome {
  return { score: probable, decision: 'probable', decidedBy: 'score', limitedBy: 'IdentitiesApart', heldFrom };
}
