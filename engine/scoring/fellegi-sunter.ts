/**
 * Fellegi-Sunter scoring (Fellegi & Sunter 1969, "A Theory for Record Linkage", JASA 64:1183-1210): the
 * log-odds of a match are the prior log-odds plus, for each compared field, ln(m/u) of the band the field's
 * similarity falls in, where m = P(band | match) and u = P(band | non-match). A missing comparison adds 0
 * (neutral). Fields are assumed conditionally independent given the match status, so correlated fields
 * (e.g. postcode and city) can overstate the evidence.
 */
import { BANDS, BAND_FLOORS, FIELD_NAMES } from '../contract/fields.ts';
import type { FellegiSunterModel } from '../contract/profile.ts';

export interface CompiledModel {
  readonly priorLogOdds: number;
  /** ln(m/u) per field and band, at index field * 4 + band; NaN where the model has no parameters for the field. */
  readonly logRatios: Float64Array;
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
  FIELD_NAMES.forEach((field, f) => {
    const params = model.fields[field];
    if (params === undefined) return;
    BANDS.forEach((band, b) => {
      logRatios[f * BANDS.length + b] = Math.log(params.m[band] / params.u[band]);
    });
  });
  const p = model.priorMatchProbability;
  return { priorLogOdds: Math.log(p / (1 - p)), logRatios };
}

/** The field's contribution: 0 when missing or when the model does not cover the field. */
export function fieldLogRatio(model: CompiledModel, field: number, similarity: number): number {
  if (Number.isNaN(similarity)) return 0;
  const ratio = model.logRatios[field * BANDS.length + bandIndex(similarity)] ?? Number.NaN;
  return Number.isNaN(ratio) ? 0 : ratio;
}

export function matchLogOdds(model: CompiledModel, similarity: Float64Array): number {
  let logOdds = model.priorLogOdds;
  for (let f = 0; f < similarity.length; f++) logOdds += fieldLogRatio(model, f, similarity[f] ?? Number.NaN);
  return logOdds;
}

export function logistic(logOdds: number): number {
  return 1 / (1 + Math.exp(-logOdds));
}
