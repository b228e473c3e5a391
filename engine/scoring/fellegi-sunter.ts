/**
 * Fellegi-Sunter scoring (Fellegi & Sunter 1969, "A Theory for Record Linkage", JASA 64:1183-1210): the
 * log-odds of a match are the prior log-odds plus, for each compared field, ln(m/u) of the band the field's
 * similarity falls in, where m = P(band | match) and u = P(band | non-match). A missing comparison adds 0
 * (neutral). Fields are assumed conditionally independent given the match status, so correlated fields
 * can overstate the evidence. The strongest such dependence is built in and removed: postcode, city and
 * state are coarser parts of the address, and a phone is shared by the people of one household (a landline),
 * so when the address line agrees (Exact or Strong) their agreement is implied by it and adds nothing (their
 * disagreement still counts): P(phone agrees | address agrees, two people) is near P(phone agrees | one
 * person), so ln(m/u) given the address is near 0. Without this, two members of one household (another given
 * name, another birth date) would collect the household's evidence five times over. And when the given names or
 * birth dates disagree, no household field's agreement counts at all (household-evidence.ts).
 */
import { BANDS, BAND_FLOORS, FIELD_INDEX, FIELD_NAMES, type FieldName } from '../contract/fields.ts';
import type { FellegiSunterModel } from '../contract/profile.ts';
import { householdGate, notCounted } from './household-evidence.ts';

export interface CompiledModel {
  readonly priorLogOdds: number;
  /** The prior, and the registry size it was set for when the model scales it (FellegiSunterModel.priorRecords). */
  readonly prior: number;
  readonly priorRecords: number | undefined;
  /** ln(m/u) per field and band, at index field * 4 + band; NaN where the model has no parameters for the field. */
  readonly logRatios: Float64Array;
  /** ln u of the Exact band per field; NaN where the model has no parameters for the field (term-frequency.ts). */
  readonly exactLogU: Float64Array;
}

/** The index in BANDS of a similarity's band (same floors as bandOf, without allocation). */
export function bandIndex(similarity: number): number {
  if (similarity >= BAND_FLOORS.Exact) return 0;
  if (similarity >= BAND_FLOORS.Strong) return 1;
  if (similarity >= BAND_FLOORS.Partial) return 2;
  return 3;
}

export function compileModel(model: FellegiSunterModel): CompiledModel {
  const logRatios = new Float64Array(FIELD_NAMES.length * BANDS.length).fill(Number.NaN);
  const exactLogU = new Float64Array(FIELD_NAMES.length).fill(Number.NaN);
  FIELD_NAMES.forEach((field, f) => {
    const params = model.fields[field];
    if (params === undefined) return;
    if (params.u.Exact > 0) exactLogU[f] = Math.log(params.u.Exact);
    BANDS.forEach((band, b) => {
      logRatios[f * BANDS.length + b] = Math.log(params.m[band] / params.u[band]);
    });
  });
  const p = model.priorMatchProbability;
  return { priorLogOdds: Math.log(p / (1 - p)), logRatios, exactLogU, prior: p, priorRecords: model.priorRecords };
}

/**
 * The prior of two records picked at random, in a registry of `records` records: about (duplicate pairs) / (N² / 2),
 * so a model that names the registry size its prior was set for (priorRecords) has it lowered in proportion in a
 * larger registry: ten times the records, a tenth of the prior. Never raised in a smaller one (the model's own
 * prior is the cautious side there). Without priorRecords, the prior as given.
 */
export function registryPrior(prior: number, priorRecords: number | undefined, records: number): number {
  return priorRecords !== undefined && records > priorRecords ? (prior * priorRecords) / records : prior;
}

/** What registryPrior moves the prior log-odds by (0 when it leaves the prior as given). */
export function priorAdjustment(model: CompiledModel, records: number): number {
  const p = registryPrior(model.prior, model.priorRecords, records);
  return p === model.prior ? 0 : Math.log(p / (1 - p)) - model.priorLogOdds;
}

/** The field's contribution: 0 when missing or when the model does not cover the field. */
export function fieldLogRatio(model: CompiledModel, field: number, similarity: number): number {
  if (Number.isNaN(similarity)) return 0;
  const ratio = model.logRatios[field * BANDS.length + bandIndex(similarity)] ?? Number.NaN;
  return Number.isNaN(ratio) ? 0 : ratio;
}

const ADDRESS_LINE = FIELD_INDEX.addressLine;
/** The fields whose agreement an agreeing address line implies. */
export const IMPLIED_BY_ADDRESS: readonly FieldName[] = ['postalCode', 'city', 'state', 'phone'];
const IMPLIED = new Uint8Array(FIELD_NAMES.length);
for (const field of IMPLIED_BY_ADDRESS) IMPLIED[FIELD_INDEX[field]] = 1;

/**
 * True when the field's agreement is implied by an agreeing address line (its contribution is then 0).
 *
 * A mirror rule for a move (city and state that differ beside a different address line add nothing) was tried
 * and withdrawn: it gated a field on its own value, so among the pairs where the field is counted its
 * disagreement is seen almost only beside an agreeing address. u from random pairs and m by EM, estimated on
 * what scoring counts, then gave a differing state +3.0 of evidence FOR a match, and the unsupervised estimate
 * lost its precision on FEBRL 4. Gating on the address alone is unbiased but drops city evidence for moves
 * within a town; neither paid for itself on the benchmarks (docs/matching.md, "The matching method").
 */
export function impliedByAddress(field: number, similarity: Float64Array): boolean {
  return (
    IMPLIED[field] === 1 &&
    (similarity[ADDRESS_LINE] ?? 0) >= BAND_FLOORS.Strong &&
    (similarity[field] ?? 0) >= BAND_FLOORS.Strong
  );
}

/**
 * True when a household field's agreement is not counted because the given names or birth dates tell two people
 * apart (household-evidence.ts): its contribution is then 0 instead of a positive ln(m/u).
 */
export function householdOnly(
  model: CompiledModel,
  field: number,
  similarity: Float64Array,
  personalIdentifier = false,
): boolean {
  return (
    notCounted(field, householdGate(similarity, personalIdentifier)) &&
    fieldLogRatio(model, field, similarity[field] ?? Number.NaN) > 0
  );
}

function contribution(model: CompiledModel, field: number, similarity: Float64Array, gate: number): number {
  if (impliedByAddress(field, similarity)) return 0;
  const ratio = fieldLogRatio(model, field, similarity[field] ?? Number.NaN);
  return ratio > 0 && notCounted(field, gate) ? 0 : ratio;
}

/**
 * The field's contribution to the log-odds: ln(m/u) of its band; 0 when missing or implied by the address, and at
 * most 0 for a household field when the given names or birth dates disagree.
 */
export function fieldContribution(
  model: CompiledModel,
  field: number,
  similarity: Float64Array,
  personalIdentifier = false,
): number {
  return contribution(model, field, similarity, householdGate(similarity, personalIdentifier));
}

/** `personalIdentifier`: the identifier field compared a personal system (FieldScratch.personalIdentifier). */
export function matchLogOdds(model: CompiledModel, similarity: Float64Array, personalIdentifier = false): number {
  const gate = householdGate(similarity, personalIdentifier);
  let logOdds = model.priorLogOdds;
  for (let f = 0; f < similarity.length; f++) logOdds += contribution(model, f, similarity, gate);
  return logOdds;
}

/**
 * An upper bound of matchLogOdds while the fields marked in `unknown` are not compared yet (their similarity is
 * not read): each adds at most its largest positive ln(m/u), or 0 when the gate already leaves its agreement
 * uncounted. The known fields add exactly what matchLogOdds adds. Sound because a field's contribution is never
 * above its largest ln(m/u), the gate only removes positive contributions, and an agreeing address only removes
 * them too (impliedByAddress). The gate is read from the known fields, so `unknown` must not hold a field it reads
 * (family and given name, birth date, sex, identifier).
 */
export function matchLogOddsBound(
  model: CompiledModel,
  similarity: Float64Array,
  personalIdentifier: boolean,
  unknown: Uint8Array,
): number {
  const gate = householdGate(similarity, personalIdentifier);
  let logOdds = model.priorLogOdds;
  for (let f = 0; f < similarity.length; f++) {
    if (unknown[f] !== 1) logOdds += contribution(model, f, similarity, gate);
    else if (!notCounted(f, gate)) logOdds += largestLogRatio(model, f);
  }
  return logOdds;
}

/** The field's largest ln(m/u) over its bands, at least 0 (0 when the model does not cover the field). */
function largestLogRatio(model: CompiledModel, field: number): number {
  let largest = 0;
  for (let b = 0; b < BANDS.length; b++) {
    const ratio = model.logRatios[field * BANDS.length + b] ?? Number.NaN;
    if (ratio > largest) largest = ratio;
  }
  return largest;
}

export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}
