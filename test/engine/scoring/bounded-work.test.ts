import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../engine/scoring/scorer.ts';
import {
  MAX_COMPARED_ADDRESS_LENGTH,
  MAX_COMPARED_IDENTIFIER_SYSTEMS,
  MAX_COMPARED_LENGTH,
  MAX_COMPARED_PREVIOUS_FAMILY_NAMES,
  type PreparedRecord,
} from '../../../engine/scoring/prepared-record.ts';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { matchFieldsOf } from '../../../engine/normalise/record.ts';
import { MAX_LINE_BYTES } from '../../../engine/ingest/ndjson-lines.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient, testProfile } from '../../helpers/registry.ts';
import { Ingestor } from '../../../engine/ingest/ingestor.ts';
import { MAX_COMPARED_RECORDS_PER_IDENTITY } from '../../../engine/ingest/candidates.ts';

/** A hostile but valid Patient: hundreds of identifier systems with values of thousands of characters, huge names. */
function hostile(id: string, seed: string): Record<string, unknown> {
  const filler = (n: number, i: number): string =>
    `${seed}${String(i)}`.repeat(Math.ceil(n / (seed.length + 4))).slice(0, n);
  return {
    ...patient({ id }),
    identifier: Array.from({ length: 250 }, (_, i) => ({
      system: `urn:hostile:${String(i).padStart(3, '0')}`,
      value: filler(3500, i),
    })),
    name: [
      { use: 'official', family: filler(4000, 1), given: [filler(4000, 2)] },
      ...Array.from({ length: 20 }, (_, i) => ({ use: 'old', family: filler(1000, 100 + i) })),
    ],
    address: [
      { use: 'home', line: [filler(4000, 3), filler(4000, 4)], city: filler(4000, 5), postalCode: filler(4000, 6) },
    ],
  };
}

function fieldsOf(resource: Record<string, unknown>): MatchFields {
  const v = validatePatient(resource);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return matchFieldsOf(v.patient, {});
}

/** What the documented caps leave of a record: the test's own statement of the rule. */
function capped(fields: MatchFields): MatchFields {
  const cut = (s: string | null): string | null => (s === null ? null : s.slice(0, MAX_COMPARED_LENGTH));
  const systems = [...new Set(fields.identifiers.map((i) => i.system))].slice(0, MAX_COMPARED_IDENTIFIER_SYSTEMS);
  return {
    ...fields,
    familyName: cut(fields.familyName),
    givenName: cut(fields.givenName),
    previousFamilyNames: fields.previousFamilyNames
      .slice(0, MAX_COMPARED_PREVIOUS_FAMILY_NAMES)
      .map((n) => n.slice(0, MAX_COMPARED_LENGTH)),
    addressLine: fields.addressLine === null ? null : fields.addressLine.slice(0, MAX_COMPARED_ADDRESS_LENGTH),
    city: cut(fields.city),
    postalCode: cut(fields.postalCode),
    phone: cut(fields.phone),
    identifiers: fields.identifiers
      .filter((i) => systems.includes(i.system))
      .map((i) => ({ ...i, value: i.value.slice(0, MAX_COMPARED_LENGTH) })),
  };
}

/** Every string a quadratic comparator (Jaro-Winkler, Damerau-Levenshtein) can be given from a prepared record. */
function quadraticInputs(p: PreparedRecord): string[] {
  const c = p.compared;
  return [
    ...[p.family, p.given, ...p.previousFamilies].flatMap((n) => (n === null ? [] : [n.text])),
    ...[c.city, c.postalCode, c.phone, p.birthDigits].flatMap((s) => (s === null ? [] : [s])),
    ...p.otherIdentifiers.map(([, value]) => value),
  ];
}

describe('comparison work per record is bounded', () => {
  it('two hostile lines under 1 MiB are compared as their capped forms: bounded strings, systems and names', () => {
    const a = hostile('a', 'QWERTYUIOP');
    const b = hostile('b', 'QWERTYUIOX');
    for (const r of [a, b]) expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(MAX_LINE_BYTES);
    const scorer = createScorer(testProfile());
    const [fa, fb] = [fieldsOf(a), fieldsOf(b)];
    expect(fa.identifiers.length).toBe(250);
    const [pa, pb] = [scorer.prepare(fa), scorer.prepare(fb)];
    for (const p of [pa, pb]) {
      expect(p.otherIdentifiers.length).toBe(MAX_COMPARED_IDENTIFIER_SYSTEMS);
      expect(p.previousFamilies.length).toBe(MAX_COMPARED_PREVIOUS_FAMILY_NAMES);
      for (const s of quadraticInputs(p)) expect(s.length).toBeLessThanOrEqual(MAX_COMPARED_LENGTH);
      expect(p.compared.addressLine?.length).toBe(MAX_COMPARED_ADDRESS_LENGTH);
      // The record itself keeps every value: only what comparators see is capped.
      expect(p.fields.identifiers.length).toBe(250);
    }
    // The work done is that of the capped inputs: the same evidence, score and decision.
    expect(scorer.explain(pa, pb)).toEqual(scorer.explain(scorer.prepare(capped(fa)), scorer.prepare(capped(fb))));
  });

  it('caps keep real records whole: nothing a real record carries is cut', () => {
    const scorer = createScorer(testProfile());
    const real = fieldsOf({
      ...patient({
        id: 'r',
        family: 'Wolfeschlegelsteinhausenbergerdorff-Featherstonehaugh',
        given: ['Maria', 'del', 'Carmen'],
        line: 'Flat 12, The Old Brewery Buildings, 1234 Long Acre Industrial Estate Road',
      }),
    });
    const p = scorer.prepare(real);
    expect(p.compared).toEqual(real);
  });

  it('ingests the two hostile lines, linking nothing wrongly and writing both', async () => {
    const engine = openRegistry(tempDir());
    const report = await engine.call(
      'records/ingest',
      { sourceSystem: 'clinic', ndjson: ndjson(hostile('a', 'QWERTYUIOP'), hostile('b', 'QWERTYUIOX')) },
      ctx(),
    );
    expect(report).toMatchObject({ created: 2, rejected: [] });
    engine.close();
  });

  it('compares at most MAX_COMPARED_RECORDS_PER_IDENTITY records of a candidate identity, and still rebuilds it from all of them', async () => {
    const engine = openRegistry(tempDir());
    // A placeholder national ID reused by a source: every record links to one identity through it.
    const records = Array.from({ length: MAX_COMPARED_RECORDS_PER_IDENTITY + 30 }, (_, i) =>
      patient({ id: `h${String(i)}`, mrn: `H${String(i)}`, nhi: '9999999999' }),
    );
    const loaded = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(...records) }, ctx());
    expect(loaded).toMatchObject({ created: records.length, newIdentities: 1, autoLinked: records.length - 1 });

    const ingestor = new Ingestor(engine.env.store, 't1', 'hospital', engine.env.settings());
    const { scorer } = ingestor;
    const outcome = scorer.outcome.bind(scorer);
    let comparisons = 0;
    scorer.outcome = (a, b, scratch) => {
      comparisons++;
      return outcome(a, b, scratch);
    };
    const next = patient({ id: 'next', mrn: 'NEXT', nhi: '9999999999' });
    const result = engine.env.store.write(() => ingestor.ingestResource(next, JSON.stringify(next)));
    expect(result).toMatchObject({ kind: 'created', linked: 'auto-linked' });
    expect(comparisons).toBe(MAX_COMPARED_RECORDS_PER_IDENTITY);
    const canonical = JSON.parse(
      engine.env.store.statement('SELECT canonical_json FROM identity').pluck().get() as string,
    ) as { recordCount: number };
    expect(canonical.recordCount).toBe(records.length + 1);
    engine.close();
  });
});
