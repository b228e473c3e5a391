/**
 * A Fellegi-Sunter model's field weights: m and u per field and band and the log-likelihood ratio ln(m/u)
 * each band adds to the log-odds (Fellegi & Sunter 1969, "A theory for record linkage", JASA 64:1183-1210);
 * and what differs between two models (the active one and a produced one).
 */
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
  scalar('modelVersion', active.modelVersion, produced.modelVersion);
  scalar('priorMatchProbability', active.priorMatchProbability, produced.priorMatchProbability);
  // The registry size a prior was set for, beyond which the live scorer lowers it ('—': used as given).
  scalar('priorRecords', active.priorRecords ?? '—', produced.priorRecords ?? '—');
  scalar('smoothing', active.smoothing, produced.smoothing);
  scalar('datasetDigest', active.datasetDigest, produced.datasetDigest);
  const fields = [
    ...new Set([...Object.keys(active.fields), ...Object.keys(produced.fields)]),
  ].sort() as (keyof FellegiSunterModel['fields'])[];
  for (const field of fields) {
    const a = active.fields[field];
    const b = produced.fields[field];
    for (const band of BANDS) {
      if (a?.m[band] === b?.m[band] && a?.u[band] === b?.u[band]) continue;
      changes.push({
        what: `${field} ${band}: ln(m/u)`,
        active: `${weight(a?.m[band], a?.u[band])} (m ${a?.m[band].toFixed(4) ?? '—'}, u ${a?.u[band].toFixed(4) ?? '—'})`,
        produced: `${weight(b?.m[band], b?.u[band])} (m ${b?.m[band].toFixed(4) ?? '—'}, u ${b?.u[band].toFixed(4) ?? '—'})`,
      });
    }
  }
  return changes;
}
