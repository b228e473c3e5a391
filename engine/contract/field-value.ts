/**
 * A record's field value as text, as the console's tables and the CLI show it: missing as "—", a list joined,
 * an identifier as `system: value`. Browser-safe.
 */
import type { DisplayFields } from './workbench.ts';

/** A record's value in a display row: a partial birth date in the birth date's row, marked so. */
export function fieldValue(fields: DisplayFields, field: keyof DisplayFields): string {
  if (field === 'birthDate' && fields.birthDate === null && fields.partialBirthDate !== undefined)
    return `${fields.partialBirthDate} (partial)`;
  return showValue(fields[field]);
}

export function showValue(value: DisplayFields[keyof DisplayFields]): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return 'yes';
  if (value.length === 0) return '—';
  return value.map((v) => (typeof v === 'string' ? v : `${v.system}: ${v.value}`)).join(', ');
}

/** The fields survivorship takes from every record rather than one (ingest/survivorship.ts). */
const UNION_FIELDS: ReadonlySet<keyof DisplayFields> = new Set(['previousFamilyNames', 'identifiers']);

/**
 * Where a canonical record's field came from, in words: the record (`system/localId`), "every record" for the
 * fields survivorship gathers from all of them, "—" when no record has it.
 */
export function survivingFrom(
  canonical: { readonly fields: DisplayFields; readonly provenance: Readonly<Record<string, string>> },
  field: keyof DisplayFields,
): string {
  if (fieldValue(canonical.fields, field) === '—') return '—';
  if (UNION_FIELDS.has(field)) return 'every record';
  const key = field === 'birthDate' && canonical.fields.birthDate === null ? 'partialBirthDate' : field;
  return canonical.provenance[key] ?? '—';
}
