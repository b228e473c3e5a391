/**
 * A Fellegi-Sunter model as text: m, u and ln(m/u) per field and band, with where each field's figures came from
 * (training labels for calibration, candidate and random pairs for the unsupervised estimate). u is printed in
 * exponent form: among random pairs it runs to 1e-5 and below.
 */
import { BANDS, FIELD_NAMES, type FieldName } from '../../engine/contract/fields.ts';
import type { FellegiSunterModel } from '../../engine/contract/profile.ts';
import { json, table } from './format.ts';

export function modelWeightsTable(
  model: FellegiSunterModel,
  observationsHeading: string,
  observations: (field: FieldName) => string | undefined,
): string {
  return `m and u per field and band (${BANDS.join(' / ')}), and ln(m/u):\n${table(
    ['field', 'm', 'u', 'ln(m/u)', observationsHeading],
    FIELD_NAMES.map((field) => {
      const p = model.fields[field];
      if (p === undefined) return [field, '—', '—', '—', '—'];
      return [
        field,
        BANDS.map((b) => p.m[b].toFixed(4)).join(' '),
        BANDS.map((b) => p.u[b].toExponential(2)).join(' '),
        BANDS.map((b) => Math.log(p.m[b] / p.u[b]).toFixed(2)).join(' '),
        observations(field) ?? '—',
      ];
    }),
  )}`;
}

/**
 * What calibrate and estimate print after their own figures: the weights table, how the model was estimated, its
 * caveat, and the model itself, or where it was written (`written`: the file, what it holds, the writer's note).
 */
export function modelClosingText(
  model: FellegiSunterModel,
  weights: { readonly heading: string; readonly observations: (field: FieldName) => string | undefined },
  report: { readonly estimation: string; readonly caveat: string },
  written: { readonly out: string; readonly what: string; readonly note: string } | undefined,
): string {
  const saved =
    written === undefined
      ? `\nThe model (not activated; apply it with \`profile apply FILE\` after review):\n${json(model)}`
      : `\n${written.what} written to ${written.out}${written.note}. It is not activated: apply it with \`profile apply ${written.out}\` after review.\n`;
  return `\n${modelWeightsTable(model, weights.heading, weights.observations)}\n${report.estimation}\n\nCaveat: ${report.caveat}\n${saved}`;
}
