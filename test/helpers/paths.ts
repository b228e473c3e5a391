import { isR4ElementName } from '../../engine/fhir/element-names.ts';

/** Paths a rejection may carry about a whole line or record. */
const WHOLE = new Set(['line', 'record', 'Patient']);
const SEGMENT = /^([^.[\]]+)((?:\[\d+\])*)$/;
const PLACEHOLDER = /^<unknown element \d+>$/;

/**
 * True when a rejection path names only schema elements: `line`, `record`, `Patient`, or dot-separated
 * R4 element names (or `_name` forms, or `<unknown element N>` placeholders) with array indexes.
 */
export function isSchemaPath(path: string): boolean {
  if (WHOLE.has(path)) return true;
  // A placeholder holds a space but no dot, so splitting on dots keeps it whole.
  return path.split('.').every((segment) => {
    const m = SEGMENT.exec(segment);
    const name = m?.[1];
    return name !== undefined && (isR4ElementName(name) || PLACEHOLDER.test(name));
  });
}
