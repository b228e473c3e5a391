/**
 * A Fellegi-Sunter model's field weights: m and u per field and band and the log-likelihood ratio ln(m/u)
 * each band adds to the log-odds (Fellegi & Sunter 1969, "A theory for record linkage", JASA 64:1183-1210);
 * and what differs between two models (the active one and a produced one).
 */
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import type { FellegiSunterModel } from '../../../engine/contract/profile.ts';

export const BANDS = ['Exact', 'Strong', 'Partial', 'Different'] as const;

export interface FieldWeight {
  field: string;
  band: string;
  m: number;
  u: number;
  weight: number;
}

export function fieldWeights(model: FellegiSunterModel): FieldWeight[] {
  const rows: FieldWeight[] = [];
  for (const [field, probabilities] of Object.entries(model.fields)) {
    for (const band of BANDS) {
      const m = probabilities.m[band];
      const u = probabilities.u[band];
      rows.push({ field, band, m, u, weight: Math.log(m / u) });
    }
  }
  return rows;
}

export interface ModelChange {
  readonly what: string;
  readonly active: string;
  readonly produced: string;
}

function weight(m: number | undefined, u: number | undefined): string {
  return m === undefined || u === undefined ? '—' : Math.log(m / u).toFixed(3);
}

/** What differs between the active model and the produced one (fields present in either). */
export function modelChanges(active: FellegiSunterModel, produced: FellegiSunterModel): ModelChange[] {
  const changes: ModelChange[] = [];
  const scalar = (what: string, a: string | number, b: string | number): void => {
    if (a !== b) changes.push({ what, active: String(a), produced: String(b) });
  };
  scalar('Model version', active.modelVersion, produced.modelVersion);
  scalar('Prior match probability', active.priorMatchProbability, produced.priorMatchProbability);
  // The registry size a prior was set for, beyond which the live scorer lowers it ('—': used as given).
  scalar('Registry size the prior is set for', active.priorRecords ?? '—', produced.priorRecords ?? '—');
  scalar('Smoothing', active.smoothing, produced.smoothing);
  // A SHA-256 digest is told apart by its first 12 hex digits, as the saved runs list shows it.
  scalar('Dataset digest', `${active.datasetDigest.slice(0, 12)}…`, `${produced.datasetDigest.slice(0, 12)}…`);
  // In evidence order (the contract's), as the weights table reads; a field this console does not know comes last.
  const present = new Set([...Object.keys(active.fields), ...Object.keys(produced.fields)]);
  const fields = [
    ...FIELD_NAMES.filter((f) => present.has(f)),
    ...[...present].filter((f) => !(FIELD_NAMES as readonly string[]).includes(f)).sort(),
  ] as (keyof FellegiSunterModel['fields'])[];
  for (const field of fields) {
    const a = active.fields[field];
    const b = produced.fields[field];
    for (const band of BANDS) {
      if (a?.m[band] === b?.m[band] && a?.u[band] === b?.u[band]) continue;
      changes.push({
        what: `${fieldTitle(field)}, ${band}: ln(m/u)`,
        active: `${weight(a?.m[band], a?.u[band])} (m ${a?.m[band].toFixed(4) ?? '—'}, u ${a?.u[band].toFixed(4) ?? '—'})`,
        produced: `${weight(b?.m[band], b?.u[band])} (m ${b?.m[band].toFixed(4) ?? '—'}, u ${b?.u[band].toFixed(4) ?? '—'})`,
      });
    }
  }
  return changes;
}
