/**
 * A pair's score taken apart field by field: the waterfall the console draws for an error example or a
 * workbench pair. It is built from the evidence the scorer produced and the scorer's own basis (below), and
 * it must end on the score the scorer gave (a unit test checks this for many pairs under both methods):
 *
 *   fellegi-sunter        log-odds = ln(prior / (1 − prior)) [+ priorAdjustment, the prior lowered for a registry
 *                         larger than the model's] + Σ ln(m/u) of each compared field's band
 *                         (evidence.logLikelihood; a missing comparison adds 0; an exactly agreeing name's
 *                         includes its term-frequency adjustment, evidence.termFrequencyAdjustment);
 *                         score = 1 / (1 + e^−log-odds)
 *   weighted-similarity   score = Σ wᵢ·sᵢ / max(Σ wᵢ over present fields, minimum evidence weight); field i
 *                         contributes wᵢ·sᵢ / that denominator (evidence.weight and .similarity)
 *
 * A household field (address, contact details, a non-personal identifier) whose agreement the given names or birth
 * dates leave uncounted (evidence.householdOnly) adds nothing under either method.
 *
 * then the scorer's precedence: a trusted identifier (score 1) or a hard conflict (score 0) decides before
 * the score method, and without name evidence the score is held to at most Thresholds.Probable.
 */
import { z } from 'zod';
import type { FieldEvidence, ScoreLimit, TwinReason } from './matching.ts';
import { ScoreMethodSchema } from './matching.ts';
import { sentenceStart } from './sentence-start.ts';

/** What a waterfall needs beside the evidence: the constant terms of the scorer's formula. */
export const ScoreBasisSchema = z.object({
  scoreMethod: ScoreMethodSchema,
  /** fellegi-sunter: ln(p / (1 − p)) of the model's priorMatchProbability. */
  priorLogOdds: z.number().optional(),
  /** weighted-similarity: the floor of the denominator (sparse records cannot reach a certain score). */
  minimumEvidenceWeight: z.number().optional(),
  /** The profile's thresholds (the decision, and the cap without name evidence). */
  thresholds: z.object({ probable: z.number(), certain: z.number() }),
});
export type ScoreBasis = z.infer<typeof ScoreBasisSchema>;

/** The parts of a scored pair a waterfall reads (a match result, an error example, a workbench pair). */
export interface ScoredEvidence {
  readonly score: number;
  readonly decidedBy: 'trusted-identifier' | 'hard-conflict' | 'score';
  readonly limitedBy?: ScoreLimit | undefined;
  /** With limitedBy `PossibleTwin`: which case of the twin rule held the pair (MatchResult.twinReason). */
  readonly twinReason?: TwinReason | undefined;
  /** Fellegi-Sunter: the prior lowered for the registry's size (MatchResult.priorAdjustment). */
  readonly priorAdjustment?: number | undefined;
  readonly evidence: readonly FieldEvidence[];
}

export interface WaterfallStep {
  readonly kind: 'start' | 'field' | 'cap';
  readonly label: string;
  /** Running total before and after this step, on the waterfall's scale. */
  readonly from: number;
  readonly to: number;
  /** to − from: the field's contribution on the scale. */
  readonly delta: number;
  readonly evidence?: FieldEvidence;
}

export interface Waterfall {
  /** log-odds (fellegi-sunter) or score (weighted-similarity). */
  readonly scale: 'log-odds' | 'score';
  readonly steps: readonly WaterfallStep[];
  /** The score method's score from the steps (a probability for fellegi-sunter). */
  readonly methodScore: number;
  /** The pair's score after the precedence and the caps (no name evidence, possible twin): equals the scorer's score. */
  readonly score: number;
  /** Plain words on how the steps become the score. */
  readonly note: string;
}

/**
 * Why a household field's agreement was not counted (FieldEvidence.householdOnly; scoring/household-evidence.ts), in
 * plain words: no name part or birth date was compared at all, or the given names or birth dates disagree.
 */
export function householdOnlyReason(evidence: readonly FieldEvidence[]): string {
  const compared = (field: string): boolean => evidence.some((e) => e.field === field && e.similarity != null);
  return ['familyName', 'givenName', 'birthDate'].some(compared)
    ? 'the given name or birth date disagrees'
    : 'no name or birth date to tell the person apart';
}

function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}

/**
 * Why a pair's score is not what its fields add up to, in plain words: a trusted identifier or a hard conflict
 * decided first, or a rule held the score to Probable (`probable`, the threshold). Null when the fields decide.
 */
export function scoreRuleText(
  result: Pick<ScoredEvidence, 'decidedBy' | 'limitedBy' | 'twinReason'>,
  probable: number,
): string | null {
  if (result.decidedBy === 'trusted-identifier')
    return 'A trusted identifier is equal on both records: the pair is certain (score 1) before any field is weighed.';
  if (result.decidedBy === 'hard-conflict')
    return 'A hard-conflict rule fired: the pair is no match (score 0) before any field is weighed.';
  if (result.limitedBy === undefined) return null;
  const why =
    result.limitedBy === 'PossibleTwin' && result.twinReason !== undefined
      ? `${TWIN_REASON_TEXT[result.twinReason]}; shared contact details and family numbers do not tell twins apart`
      : LIMIT_TEXT[result.limitedBy].why;
  return `${why}, so the score is held to the Probable threshold (${String(probable)}): such a pair may go to review but is never linked automatically.`;
}

function precedence(
  result: ScoredEvidence,
  basis: ScoreBasis,
  methodScore: number,
  steps: WaterfallStep[],
  scale: Waterfall['scale'],
): { score: number; note: string } {
  const fieldsAlone = ' The steps show what the fields alone would give.';
  if (result.decidedBy === 'trusted-identifier')
    return { score: 1, note: `${scoreRuleText(result, basis.thresholds.probable) ?? ''}${fieldsAlone}` };
  if (result.decidedBy === 'hard-conflict')
    return { score: 0, note: `${scoreRuleText(result, basis.thresholds.probable) ?? ''}${fieldsAlone}` };
  const probable = basis.thresholds.probable;
  if (methodScore >= probable && result.limitedBy !== undefined) {
    const last = steps.at(-1)?.to ?? 0;
    const capped = scale === 'log-odds' ? Math.log(probable / (1 - probable)) : probable;
    steps.push({
      kind: 'cap',
      label: limitLabel(result.limitedBy, result.twinReason),
      from: last,
      to: capped,
      delta: capped - last,
    });
    return { score: probable, note: scoreRuleText(result, probable) ?? '' };
  }
  return { score: methodScore, note: '' };
}

/**
 * What each score limit (scoring/scorer.ts) says: its name (a list's cell, and its waterfall step's label through
 * limitLabel), the reason it holds, and the reason in brief (a table cell, the CLI's explain).
 */
export const LIMIT_TEXT: Readonly<Record<ScoreLimit, { name: string; why: string; brief: string }>> = {
  NoNameEvidence: {
    name: 'no name evidence',
    brief: 'no name part compared on both sides',
    why: 'No family or given name was compared on both records',
  },
  PossibleTwin: {
    name: 'possible twin',
    brief:
      'same family name and birth date (or nearly), and given names that do not tell twins or household members of one age apart: another, alike in sound, missing or an initial on one record, other middle names at one home, a newborn placeholder, a boy’s and a girl’s form without a sex, or any difference in a multiple birth',
    why: 'The records share family name and birth date (or, with another sex recorded, birth dates a keying error apart; or, for given names that only sound alike or differ in their first sound, birth dates a day apart, as twins born either side of midnight), and their given names leave it open whether they are one person or twins: another given name, one that only sounds alike (Anais and Janis) or differs in its first sound (Emma and Gemma), none or an initial alone (J) on one of them, or the same first name with other middle names at one home (Maria Fernanda and Maria José), with a sex on both records; a newborn’s placeholder (Baby Boy, Twin A) on one of them; or given names that differ at all (Jayden and Jaydon) when both records say a multiple birth; or, with a sex missing on either record, a boy’s and a girl’s form of one given name (Daniel and Danielle, Paul and Paula). Possible twins or household members of one age; shared contact details and family numbers do not tell them apart',
  },
  SharedIdentifier: {
    name: 'shared number',
    brief:
      'a personal identifier agrees, but the given names and birth dates both disagree (a newborn placeholder counts as another given name), with a sex on both records',
    why: 'A personal identifier such as a social-security number agrees, but the given names and the birth dates both say two people (or one record is a newborn’s placeholder, such as Baby Girl, with another birth date), and both records carry a sex: one person’s number is copied onto a relative’s record (a mother’s on her newborn’s, a parent’s on a child’s, a spouse’s) far more often than one record carries two errors',
  },
  BirthDateConflict: {
    name: 'birth dates disagree',
    brief: 'birth dates within a year but beyond a keying error, no personal identifier agrees',
    why: 'The birth dates are within a year of each other but further apart than a keying error, and no personal identifier agrees (two people of one name born months apart; shared contact details do not tell them apart)',
  },
  MiddleNameConflict: {
    name: 'middle names disagree',
    brief:
      'both records carry middle names, none of one can be one of the other, no address line, phone or personal identifier agrees',
    why: 'Both records carry middle names and they are different names (not a typo, an initial or a nickname of one another), and no address line, phone or personal identifier agrees (two people of one given name and birth date, such as Edward Alejandro and Edward Leonardo)',
  },
  NamesOnly: {
    name: 'names only',
    brief:
      'no birth date compared on both sides, no address line, postcode or identifier agrees, and no phone but from an address that disagrees (an e-mail does not count); or no given name either, and no personal identifier agrees',
    why: "Only the names tell these records apart: one of them has no birth date, no address line, postcode or identifier agrees, and a phone that agrees comes from an address that does not; an e-mail does not count, since one made from the name is a namesake's too and a family shares one (two people of one name, a Junior and a Senior or namesakes, look the same, and relatives share contact details). Or one of them has neither a given name nor a birth date: then only the family name is the person's, and the contact details and numbers are the household's",
  },
  BareRecord: {
    name: 'record without a name part or birth date',
    brief:
      'one identity’s record that agrees best carries no given name, family name or birth date, and none of that identity’s records that carry one agrees with the other record’s (a birth date: none within a generation)',
    why: 'One identity’s record that agrees best carries no given name, family name or birth date, so it agrees with everyone who shares the rest: spouses and twins of one family name and birth date, or a father and son of one name at one home. That identity’s records that do carry it all name another person (for a birth date, one born a generation apart): the record without it may belong to either person, and nothing was linked through it. Decide on the complete records of both identities, check the record without the name part or birth date at its source, and say in the reason whose it is, for your organisation’s process to move it if needed',
  },
  IdentitiesApart: {
    name: 'fits two people',
    brief:
      'an identity is certain against two identities that are two people: its records have no birth date and theirs are a generation apart, or a reviewer decided they are different people',
    why: 'One of this case’s identities is certain against the other and against one more identity, and those two are two people: its records have no birth date and theirs are a generation apart (a father and son, or a mother and daughter, of one name at one home), or a reviewer decided they are different people. Linking it to either would be a guess, so it was linked to neither: it is an identity of its own, with a case about each. Find out at its source whose record it is (its correct birth date settles it), then answer same person on that case and different people on the other',
  },
};

/**
 * Why the twin rule held this pair, case by case (MatchResult.twinReason; scoring/possible-twin.ts): what the console
 * and the CLI say in place of the rule's every case.
 */
export const TWIN_REASON_TEXT: Readonly<Record<TwinReason, string>> = {
  'newborn-placeholder':
    'A newborn’s placeholder given name (Baby Boy, Twin A) is on one record or both, and the family name and birth date agree: newborn twins are registered so before they are named, and one baby’s two records look the same',
  'multiple-birth':
    'Both records say one of a multiple birth, the family name and birth date agree, and the given names are not the same: two twins are as likely as one twin’s typo',
  'another-sex':
    'The records carry another sex, the family name agrees and the birth dates agree or are a keying error apart, and the given names are not the same: twins of opposite sex are often named a letter or two apart (Daniel and Danielle)',
  'names-of-two-sexes':
    'The given names are a boy’s and a girl’s form of one name (Daniel and Danielle, Paul and Paula), the family name and birth date agree, and one of the records has no sex to tell them apart: they may be twins of opposite sex',
  'names-alike':
    'The given names only sound alike (Anais and Janis) or differ in their first sound (Emma and Gemma), and the family name, sex and birth date agree (or the dates are a day apart, as for twins born either side of midnight): parents name twins so',
  'given-name-missing':
    'One of the records has no given name, and the family name, sex and birth date agree: it could be either twin’s record',
  'initial-alone':
    'One of the records gives an initial alone (J), which agrees with every name of its letter (John, James, Jane): beside a name, whatever else agrees, or beside an initial with the family name, sex and birth date agreeing, it could be another person’s record, a twin’s or a relative’s',
  'another-given-name':
    'The given names are different, and the family name, sex and birth date agree: twins and household members of one age share a family name, a birth date and a home',
  'middle-names':
    'The middle names name two people (Maria Fernanda and Maria José), at one home, with the same family name and sex and birth dates that agree or are a keying error apart: twins of compound given names share the first, and one person’s records rarely differ in a middle name',
};

/** A score limit as the CLI states it: 'PossibleTwin (same family name …: at most probable; held from 0.991128)'. */
export function limitLine(limit: ScoreLimit, heldFrom: number | null | undefined): string {
  const from = heldFrom === null || heldFrom === undefined ? '' : `; held from ${heldFrom.toFixed(6)}`;
  return `${limit} (${LIMIT_TEXT[limit].brief}: at most probable${from})`;
}

/**
 * The twin rule's cases in a few words, for a list's line beside the rule's name ('possible twin, names alike'): a
 * review list or a table of examples can then be read by case; the case's page says it in full (TWIN_REASON_TEXT).
 */
export const TWIN_REASON_NAME: Readonly<Record<TwinReason, string>> = {
  'newborn-placeholder': 'newborn placeholder',
  'multiple-birth': 'multiple birth',
  'another-sex': 'another sex',
  'names-of-two-sexes': 'a boy’s and a girl’s name',
  'names-alike': 'names alike',
  'given-name-missing': 'no given name',
  'initial-alone': 'an initial alone',
  'another-given-name': 'another given name',
  'middle-names': 'other middle names',
};

/**
 * The rule that held a pair, named in a list: 'possible twin, names alike' where the twin rule's case is known, the
 * rule's name alone otherwise (another rule, or a case or report from before the registry recorded it).
 */
export function holdName(limit: ScoreLimit, twinReason?: TwinReason | null): string {
  const name = LIMIT_TEXT[limit].name;
  return limit === 'PossibleTwin' && twinReason != null ? `${name}, ${TWIN_REASON_NAME[twinReason]}` : name;
}

/**
 * Why a rule held a pair, in a sentence: the twin rule's case in full where it is known, the rule's reason otherwise,
 * in its brief form (a list's hover) or its full one (a case's page, for a hold on the identity).
 */
export function holdWhy(limit: ScoreLimit, twinReason: TwinReason | null | undefined, form: 'brief' | 'why'): string {
  return limit === 'PossibleTwin' && twinReason != null ? TWIN_REASON_TEXT[twinReason] : LIMIT_TEXT[limit][form];
}

/** A score limit's label in a waterfall or an example: 'Possible twin, names alike: held to Probable'. */
export function limitLabel(limit: ScoreLimit, twinReason?: TwinReason | null): string {
  return `${sentenceStart(holdName(limit, twinReason))}: held to Probable`;
}

/** The waterfall of a scored pair, or null when the evidence does not carry what the method needs. */
export function scoreWaterfall(result: ScoredEvidence, basis: ScoreBasis): Waterfall | null {
  const steps: WaterfallStep[] = [];
  if (basis.scoreMethod === 'fellegi-sunter') {
    if (basis.priorLogOdds === undefined) return null;
    let total = basis.priorLogOdds;
    steps.push({ kind: 'start', label: 'Prior log-odds', from: 0, to: total, delta: total });
    const sized = result.priorAdjustment ?? 0;
    if (sized !== 0) {
      steps.push({
        kind: 'start',
        label: 'Prior, for the registry’s size',
        from: total,
        to: total + sized,
        delta: sized,
      });
      total += sized;
    }
    for (const evidence of result.evidence) {
      if (evidence.logLikelihood === undefined) return null;
      const from = total;
      total += evidence.logLikelihood;
      steps.push({ kind: 'field', label: evidence.field, from, to: total, delta: evidence.logLikelihood, evidence });
    }
    const methodScore = logistic(total);
    const { score, note } = precedence(result, basis, methodScore, steps, 'log-odds');
    return {
      scale: 'log-odds',
      steps,
      methodScore,
      score,
      note:
        note ||
        'Log-odds: the prior plus ln(m/u) of each compared field’s band (for an exactly agreeing name, adjusted by how common the name is in this registry); the probability is 1 / (1 + e^−log-odds). A missing comparison adds 0.',
    };
  }
  if (basis.minimumEvidenceWeight === undefined) return null;
  let present = 0;
  for (const evidence of result.evidence) {
    if (evidence.weight === undefined) return null;
    if (evidence.similarity !== null) present += evidence.weight;
  }
  const denominator = Math.max(present, basis.minimumEvidenceWeight);
  let total = 0;
  steps.push({ kind: 'start', label: 'Start', from: 0, to: 0, delta: 0 });
  for (const evidence of result.evidence) {
    const delta =
      evidence.similarity === null || evidence.householdOnly === true
        ? 0
        : ((evidence.weight ?? 0) * evidence.similarity) / denominator;
    const from = total;
    total += delta;
    steps.push({ kind: 'field', label: evidence.field, from, to: total, delta, evidence });
  }
  const { score, note } = precedence(result, basis, total, steps, 'score');
  const floorNote =
    present < basis.minimumEvidenceWeight
      ? ` The fields present weigh ${String(present)} in all, below the floor of ${String(basis.minimumEvidenceWeight)}, so the floor divides.`
      : '';
  return {
    scale: 'score',
    steps,
    methodScore: total,
    score,
    note:
      note ||
      `Each compared field adds weight × similarity / ${String(denominator)} (the larger of the present fields’ weights and ${String(basis.minimumEvidenceWeight)}); a missing field adds nothing.${floorNote}`,
  };
}
