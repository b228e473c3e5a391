/**
 * Which of a candidate identity's records an arriving record is judged on: the one whose pair is the stronger evidence
 * (stronger-outcome.ts), unless that record lacks a name part (a given or a family name) which the arriving record
 * carries and which none of the identity's records that carry it agrees with, even Strong (a birth date too: below). A
 * record of a family name and a birth date alone cannot tell two people of one family and birth date apart (spouses,
 * twins), nor one of a given name and a birth date two people of one given name born on one day: it agrees with both.
 * Judged on it, the second person's records would join the identity such a record had joined first, through it (single
 * linkage through a bare record). The identity's records that carry the name part then decide: the arriving record is
 * judged on the strongest of them. A trusted identifier, which decides before any score (scorer.ts), counts on any
 * record.
 *
 * On the names-and-dates extract of 20,000 records with about nine records per person (no sex recorded), six
 * identities held two people, each through a record without a given name: in four it had carried the other spouse's
 * or twin's named records in. Judged so, none holds another person's named records (auto-link precision 0.9960 →
 * 0.9993, recall 0.6448 → 0.6408); five still hold a bare record that met the wrong person first. The cost is on
 * typo-heavy records: on the typo-heavy extract of 20,000 records, 25 more review cases (557 → 582) where a given name
 * mistyped beyond Strong on every named record had joined through a bare record carrying the identity's address and
 * phone; the pairs linked or under review are as many as before. On FEBRL 3 reduced to names and birth dates, whose
 * records lack a given name (3%) or a family name (2%), auto-link recall fell 0.6976 → 0.6947 (with review cases
 * 0.7862 → 0.7846; 249 → 251 cases). Counting only names below Partial as disagreeing cost almost nothing on the
 * typo-heavy extract, but kept the second person's named records in two of the four identities.
 *
 * A record without a birth date is bare too: it agrees with everyone of its name at its home, a father and son of one
 * name whose sources drop the suffix. John Smith born 1956, then a John Smith of that home without a birth date, then
 * John Smith born 1986: the son joined the father's identity through the record without a birth date, at a score of
 * 1, and no case asked. The identity's records with a birth date now decide when each is a generation apart from the
 * arriving record's (comparators/generation-apart.ts), or within a year of it but beyond a keying error (a pair the
 * birth-date rule would hold): the son is a new identity, and a case asks about the record without a birth date.
 * Counting every birth date beyond a keying error as disagreeing (as for names) cost 30 more review cases on
 * heavy-typos-many (582 → 612, auto-link F1 0.9667 → 0.9647), whose generator rewrites years. As chosen: FEBRL 3 one
 * automatic link to review (19 → 20 cases, F1 0.9899 → 0.9895: four records say 1959-03-08, the arriving one
 * 1936-05-12, joined through one without a date), heavy-typos-many 6 more review cases (582 → 588, F1 0.9667 →
 * 0.9662; the dates within a year), no other set anything.
 */
import { BAND_FLOORS, FIELD_INDEX } from '../contract/fields.ts';
import type { FieldScratch } from '../scoring/field-comparison.ts';
import type { PairOutcome, Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { isStronger } from '../scoring/stronger-outcome.ts';
import { bornAGenerationApart } from '../comparators/generation-apart.ts';
import { birthDateLevel } from '../comparators/birth-date-levels.ts';

export interface MemberPair {
  readonly outcome: PairOutcome;
  /** The identity's record. */
  readonly right: PreparedRecord;
  /** The family and given names' similarities in this pair; NaN where either record has none. */
  readonly familySimilarity: number;
  readonly givenSimilarity: number;
}

const FAMILY_NAME = FIELD_INDEX.familyName;
const GIVEN_NAME = FIELD_INDEX.givenName;

/** One pair scored, with its name parts' similarities as the scorer left them in the scratch. */
export function memberPair(
  scorer: Scorer,
  left: PreparedRecord,
  right: PreparedRecord,
  scratch: FieldScratch,
): MemberPair {
  const outcome = scorer.outcome(left, right, scratch);
  return {
    outcome,
    right,
    familySimilarity: scratch.similarity[FAMILY_NAME] ?? Number.NaN,
    givenSimilarity: scratch.similarity[GIVEN_NAME] ?? Number.NaN,
  };
}

/**
 * Whether an identity's birth date (b) leaves the arriving record's (a) one person's: unless the two are within a year
 * but beyond a keying error (a pair the birth-date rule holds: scorer.ts birthDateConflict) or a generation apart
 * (comparators/generation-apart.ts). Other dates further apart are left agreeing: a source that rewrites a year keeps
 * the day, and counting them cost heavy-typos-many 30 review cases of its own people.
 */
function birthDatesAgree(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  const level = birthDateLevel(a, b);
  return level !== 'same-year-month' && level !== 'within-year' && !bornAGenerationApart(a, b);
}

/**
 * The parts a bare record may lack, each with whether an identity's record that carries it agrees with the arriving
 * record's: a name part at least Strong; a birth date as birthDatesAgree says.
 */
const PARTS = [
  { part: 'family', agrees: (p: MemberPair) => p.familySimilarity >= BAND_FLOORS.Strong },
  { part: 'given', agrees: (p: MemberPair) => p.givenSimilarity >= BAND_FLOORS.Strong },
  {
    part: 'birthDigits',
    agrees: (p: MemberPair, left: PreparedRecord) => birthDatesAgree(left.birthDigits, p.right.birthDigits),
  },
] as const;

function strongest<P extends MemberPair>(pairs: readonly P[]): P | undefined {
  let best: P | undefined;
  for (const pair of pairs) if (isStronger(pair.outcome, best?.outcome)) best = pair;
  return best;
}

/**
 * The pair the arriving record (left) is judged on among its pairs with one identity's records; undefined for none.
 * When the rule turns the judgement away from a bare record that would have linked the arriving record (Certain),
 * and the identity's named records do not link it, the bare record's pair is the one judged, held at the Probable
 * threshold (BareRecord): the arriving record is not linked, and a review case asks about the bare record, which
 * may belong to either person. Judged on the named records, nobody would be asked where they score below Probable,
 * and where they score at Probable the case would give their score beside the pair a reviewer is shown first (the
 * bare record's), which scores otherwise. A bare record that agrees at Probable only is weak evidence for the
 * arriving record: on the typo-heavy extract of 20,000 records, every such case (3 of 17) asked about a bare record
 * that was the identity's own person's.
 */
export function judgedMember<P extends MemberPair>(
  left: PreparedRecord,
  pairs: readonly P[],
  probable: number,
): P | undefined {
  const best = strongest(pairs);
  if (best === undefined || best.outcome.decidedBy === 'trusted-identifier') return best;
  for (const { part, agrees } of PARTS) {
    if (left[part] === null || best.right[part] !== null) continue;
    const carrying = pairs.filter((p) => p.right[part] !== null);
    const named = strongest(carrying);
    if (named === undefined || carrying.some((p) => agrees(p, left))) continue;
    if (named.outcome.decision === 'certain' || best.outcome.decision !== 'certain') return named;
    return {
      ...best,
      outcome: {
        score: probable,
        decision: 'probable',
        decidedBy: 'score',
        limitedBy: 'BareRecord',
        heldFrom: best.outcome.score,
      },
    };
  }
  return best;
}

/**
 * A case's judgement of two identities whose strongest record pair (a of the one, b of the other) is Certain, where no
 * record arrives (reconciliation) or the arriving record was linked to another identity: the BareRecord hold when one
 * of the two records lacks a name part or birth date the other carries and its identity's records that carry it all
 * disagree with the other record's, as ingestion judges an arriving record (above); undefined otherwise. Without it,
 * the case read "Certain" on the bare record's pair, and a reviewer who answered "same person" would send two people to
 * the merge process.
 */
export function bareRecordHold(
  scorer: Scorer,
  a: { readonly record: PreparedRecord; readonly identity: readonly PreparedRecord[] },
  b: { readonly record: PreparedRecord; readonly identity: readonly PreparedRecord[] },
  probable: number,
  scratch: FieldScratch,
): PairOutcome | undefined {
  for (const [arriving, other] of [
    [a.record, b],
    [b.record, a],
  ] as const) {
    if (!PARTS.some(({ part }) => arriving[part] !== null && other.record[part] === null)) continue;
    const pairs = other.identity.map((right) => memberPair(scorer, arriving, right, scratch));
    const judged = judgedMember(arriving, pairs, probable);
    if (judged?.outcome.limitedBy === 'BareRecord') return judged.outcome;
  }
  return undefined;
}
