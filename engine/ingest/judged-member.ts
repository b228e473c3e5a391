/**
 * Which of a candidate identity's records an arriving record is judged on: the one whose pair is the stronger
 * evidence (stronger-outcome.ts), unless that is a record without a given name while the arriving record carries
 * one that every named record of the identity gives another name to. A record of a family name and a birth date
 * alone cannot tell two people of one family and one birth date apart (spouses, twins): it agrees with both. Judged
 * on it, the second person's records would join the identity such a record had joined first, through it (single
 * linkage through a bare record). The identity's named records then decide: the arriving record is judged on the
 * strongest of them, whose given name disagrees.
 *
 * A named record whose given name agrees at least Strong keeps the judgement on the best pair, the bare record's
 * included. A trusted identifier, which decides before any score (scorer.ts), counts on any record.
 *
 * On the names-and-dates extract of 20,000 records with about nine records per person (no sex recorded), six
 * identities held two people, each through a record of a family name and a birth date: in four it had carried the
 * other spouse's or twin's named records in. Judged so, none holds another person's named records (auto-link
 * precision 0.9960 → 0.9993, recall 0.6448 → 0.6408); five still hold a bare record that met the wrong person first.
 * The cost is on typo-heavy records: on the typo-heavy extract of 20,000 records, 25 more review cases (557 → 582)
 * where a given name mistyped beyond Strong on every named record had joined through a bare record carrying the
 * identity's address and phone; the pairs linked or under review are as many as before. On FEBRL 3 reduced to names
 * and birth dates it costs 0.0015 of recall (0.6976 → 0.6961). Counting only given names below Partial as
 * disagreeing cost almost nothing there, but kept the second person's named records in two of the four identities.
 */
import { BAND_FLOORS } from '../contract/fields.ts';
import type { PairOutcome } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { isStronger } from '../scoring/stronger-outcome.ts';

export interface MemberPair {
  readonly outcome: PairOutcome;
  /** The identity's record. */
  readonly right: PreparedRecord;
  /** The given names' similarity in this pair; NaN when either record has none. */
  readonly givenSimilarity: number;
}

/** The pair the arriving record (left) is judged on among its pairs with one identity's records; undefined for none. */
export function judgedMember<P extends MemberPair>(left: PreparedRecord, pairs: readonly P[]): P | undefined {
  let best: P | undefined;
  let bestNamed: P | undefined;
  let namedAgree = false;
  for (const pair of pairs) {
    if (isStronger(pair.outcome, best?.outcome)) best = pair;
    if (pair.right.given === null) continue;
    if (!(pair.givenSimilarity < BAND_FLOORS.Strong)) namedAgree = true;
    if (isStronger(pair.outcome, bestNamed?.outcome)) bestNamed = pair;
  }
  const bareBest = best !== undefined && best.right.given === null && best.outcome.decidedBy !== 'trusted-identifier';
  return left.given !== null && bareBest && bestNamed !== undefined && !namedAgree ? bestNamed : best;
}
