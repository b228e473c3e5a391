/**
 * Property-based tests of NDJSON ingestion (fast-check): hostile lines of every kind the engine has met,
 * planted canary values, random chunking of the bytes. Asserted on every run: no unexpected error, every
 * line accounted for, nothing partial written (table deltas match the report exactly), every rejection names
 * a line and schema-only paths, and no planted value appears in any report or stored evidence.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tempDir } from '../../helpers/temp.ts';
import { MRN_SYSTEM, ctx, openRegistry, tableCounts, testProfile } from '../../helpers/registry.ts';
import { isSchemaPath } from '../../helpers/paths.ts';
import { createTenant } from '../../../engine/operations/sandbox.ts';
import { ingestStream } from '../../../engine/operations/ingest.ts';
import { NdjsonLineReader, textLines, type NdjsonLine } from '../../../engine/ingest/ndjson-lines.ts';
import type { IngestReport } from '../../../engine/contract/ingest.ts';

/** Planted values: if one of these shows in a report, a path or stored evidence, a value leaked. */
const CANARY = {
  family: 'Qzvfamcanary',
  given: 'Wkgivcanary',
  id: 'XJIDCANARY',
  line: 'Ybstreetcanary',
  city: 'Vcitycanary',
  email: 'kcanary@mail.example',
  key: 'MRNcanaryKey',
};
const CANARY_VALUES = Object.values(CANARY);

/** 'warn': accepted with a birthDate warning (a valid Patient whose date cannot be a person's). */
type Expect = 'accept' | 'warn' | 'reject' | 'any' | 'blank';

const MUTATIONS = [
  'valid',
  'bidi',
  'crBetweenTokens',
  'crlf',
  'control',
  'unknownKey',
  'hugeString',
  'deep',
  'wrongType',
  'loneSurrogate',
  'invalidUtf8',
  'truncated',
  'misplacedBom',
  'longLocalId',
  'badDate',
  'overlong',
  'randomBytes',
  'randomJson',
  'blank',
] as const;
type Mutation = (typeof MUTATIONS)[number];

interface LineSpec {
  readonly mutation: Mutation;
  readonly pick: number;
  readonly bytes: Uint8Array;
  readonly json: unknown;
}

function basePatient(i: number): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id: `p${String(i)}`,
    meta: { lastUpdated: '2024-05-01T10:00:00+05:00' },
    identifier: [
      { system: MRN_SYSTEM, value: `M${String(i)}${CANARY.id}` },
      { system: 'urn:test:other', value: CANARY.id },
    ],
    name: [{ use: 'official', family: `${CANARY.family}${String.fromCharCode(97 + (i % 26))}`, given: [CANARY.given] }],
    gender: i % 2 === 0 ? 'female' : 'male',
    birthDate: `19${String(50 + (i % 40))}-0${String(1 + (i % 9))}-1${String(i % 9)}`,
    address: [
      { use: 'home', line: [`${String(i)} ${CANARY.line}`], city: CANARY.city, postalCode: `PO${String(i % 90)} 3AX` },
    ],
    telecom: [{ system: 'email', value: CANARY.email }],
  };
}

const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u202E', '\u2066', '\u200F', '\u00AD'];
const CONTROLS = ['\u0000', '\u0007', '\u001B', '\u007F', '\u0085', '\u009F', '\r', '\n', '\t'];
const BAD_UTF8 = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]];

/** Builds line i: its bytes (without the LF) and what ingestion must do with it. */
function buildLine(
  spec: LineSpec,
  i: number,
  lineNumber: number,
  textEntry: boolean,
): { bytes: Buffer; expect: Expect; localId?: string } {
  const p = basePatient(i);
  const localId = `M${String(i)}${CANARY.id}`;
  const text = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
  const name = (p.name as Record<string, unknown>[])[0] ?? {};
  switch (spec.mutation) {
    case 'valid':
      return { bytes: text(p), expect: 'accept', localId };
    case 'bidi':
      name.family = `${CANARY.family.slice(0, 4)}${INVISIBLES[spec.pick % INVISIBLES.length] ?? ''}${CANARY.family.slice(4)}`;
      return { bytes: text(p), expect: 'accept', localId };
    case 'crBetweenTokens': {
      const s = JSON.stringify(p);
      const commas = [...s.matchAll(/,"/g)].map((m) => m.index);
      const at = commas[spec.pick % commas.length] ?? 0;
      return { bytes: Buffer.from(`${s.slice(0, at + 1)}\r${s.slice(at + 1)}`), expect: 'accept', localId };
    }
    case 'crlf':
      return { bytes: Buffer.from(`${JSON.stringify(p)}\r`), expect: 'accept', localId };
    case 'control': {
      const c = CONTROLS[spec.pick % CONTROLS.length] ?? '\u0000';
      const target = spec.pick % 3;
      if (target === 0) name.family = `${CANARY.family}${c}`;
      else if (target === 1) (p.address as Record<string, unknown>[])[0] = { line: [`${CANARY.line}${c}x`] };
      else p.extension = [{ url: 'urn:x', valueString: `${CANARY.given}${c}` }];
      return { bytes: text(p), expect: 'reject', localId };
    }
    case 'unknownKey':
      if (spec.pick % 2 === 0) p[`${CANARY.key}${String(spec.pick)}`] = `v\u0001${CANARY.family}`;
      else p.contact = [{ name: { family: 'x' }, [CANARY.key]: [{ [CANARY.given]: `\u0002${CANARY.city}` }] }];
      return { bytes: text(p), expect: 'reject', localId };
    case 'hugeString':
      name.family = CANARY.family.repeat(Math.ceil(4200 / CANARY.family.length));
      return { bytes: text(p), expect: 'reject', localId };
    case 'deep': {
      let deep: unknown = CANARY.family;
      for (let d = 0; d < 120 + (spec.pick % 50); d++) deep = spec.pick % 2 === 0 ? { [CANARY.key]: deep } : [deep];
      p.extension = [{ url: 'urn:x', valueString: 'x', nested: deep }];
      return { bytes: text(p), expect: 'reject', localId };
    }
    case 'wrongType': {
      const variants: [string, unknown][] = [
        ['name', CANARY.family],
        ['birthDate', 19_840_317],
        ['identifier', { system: MRN_SYSTEM, value: localId }],
        ['gender', CANARY.given],
        ['telecom', [{ system: 'pigeon', value: CANARY.email }]],
      ];
      const [key, value] = variants[spec.pick % variants.length] ?? ['name', 1];
      p[key] = value;
      return { bytes: text(p), expect: 'reject', localId };
    }
    case 'loneSurrogate': {
      const s = JSON.stringify(p).replace(CANARY.given, `${CANARY.given}\\ud83d`);
      return { bytes: Buffer.from(s), expect: 'reject', localId };
    }
    case 'invalidUtf8': {
      const s = JSON.stringify(p);
      const at = s.indexOf(CANARY.family) + 3;
      const bad = Buffer.from(BAD_UTF8[spec.pick % BAD_UTF8.length] ?? [0xff]);
      return {
        bytes: Buffer.concat([Buffer.from(s.slice(0, at)), bad, Buffer.from(s.slice(at))]),
        expect: textEntry ? 'any' : 'reject',
        localId,
      };
    }
    case 'truncated': {
      const s = JSON.stringify(p);
      return { bytes: Buffer.from(s.slice(0, 1 + (spec.pick % (s.length - 1)))), expect: 'reject', localId };
    }
    case 'misplacedBom':
      return {
        bytes: Buffer.from(`\uFEFF${JSON.stringify(p)}`),
        expect: lineNumber === 1 ? 'accept' : 'reject',
        localId,
      };
    case 'longLocalId':
      (p.identifier as Record<string, unknown>[])[0] = { system: MRN_SYSTEM, value: `${localId}${'9'.repeat(200)}` };
      return { bytes: text(p), expect: 'reject' };
    case 'badDate':
      // Not the R4 date shape: invalid FHIR. The right shape but no such day, or in the future: a warning.
      if (spec.pick % 2 === 0) {
        p.birthDate = `19x4-${CANARY.given}`;
        return { bytes: text(p), expect: 'reject', localId };
      }
      p.birthDate = spec.pick % 4 === 1 ? '1984-02-30' : '2999-01-01';
      return { bytes: text(p), expect: 'warn', localId };
    case 'overlong':
      return { bytes: Buffer.from(`${JSON.stringify(p)}${' '.repeat(1024 * 1024)}`), expect: 'reject', localId };
    case 'randomBytes':
      return { bytes: Buffer.from(spec.bytes.filter((b) => b !== 0x0a)), expect: 'any' };
    case 'randomJson':
      return { bytes: Buffer.from(JSON.stringify(spec.json)), expect: 'any' };
    case 'blank':
      return { bytes: Buffer.from(' \t'.repeat(spec.pick % 4)), expect: 'blank' };
  }
}

const lineSpec = fc.record({
  mutation: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Mutation>('valid') },
    { weight: 1, arbitrary: fc.constant<Mutation>('overlong') },
    { weight: 28, arbitrary: fc.constantFrom<Mutation>(...MUTATIONS.filter((m) => m !== 'valid' && m !== 'overlong')) },
  ),
  pick: fc.nat(1000),
  bytes: fc.uint8Array({ maxLength: 60 }),
  json: fc.jsonValue({ maxDepth: 3 }),
});

/** Feeds the bytes in chunks of the given sizes (cycled), so lines and characters split anywhere. */
function* chunks(bytes: Buffer, sizes: readonly number[]): Generator<Uint8Array> {
  let at = 0;
  for (let k = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length] ?? 1;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return CANARY_VALUES.filter((c) => lower.includes(c.toLowerCase()));
}

describe('NDJSON ingestion under hostile input (property-based)', () => {
  it('never fails unexpectedly, writes nothing partial, and names lines and schema paths but no planted value', async () => {
    const engine = openRegistry(tempDir(), []);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineSpec, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }),
        async (specs, textEntry, sizes) => {
          const tenant = `fuzz${String(run++)}`;
          createTenant(engine.env, ctx(tenant), testProfile());
          const lines = specs.map((spec, index) => buildLine(spec, index, index + 1, textEntry));
          const file = Buffer.concat(lines.flatMap((l) => [l.bytes, Buffer.from('\n')]));
          const before = tableCounts(engine, tenant);
          let report: IngestReport;
          if (textEntry) {
            report = await engine.call(
              'records/ingest',
              { sourceSystem: 'hospital', ndjson: file.toString('utf8') },
              ctx(tenant),
            );
          } else {
            report = await ingestStream(engine.env, ctx(tenant), 'hospital', chunks(file, sizes));
          }
          const after = tableCounts(engine, tenant);

          expect(report.lines).toBe(lines.length);
          const rejected = new Map(report.rejected.map((r) => [r.line, r.issues]));
          const warned = new Map((report.warnings ?? []).map((w) => [w.line, w.issues]));
          lines.forEach((l, index) => {
            const line = index + 1;
            if (l.expect === 'warn') {
              expect(rejected.has(line), `line ${String(line)} (${specs[index]?.mutation ?? ''}) was rejected`).toBe(
                false,
              );
              expect(
                warned.get(line)?.map((i) => i.path),
                `line ${String(line)} warnings`,
              ).toEqual(['birthDate']);
            } else if (l.expect !== 'any')
              expect(warned.has(line), `line ${String(line)} (${specs[index]?.mutation ?? ''}) has a warning`).toBe(
                false,
              );
            if (l.expect === 'accept')
              expect(
                rejected.has(line),
                `line ${String(line)} (${specs[index]?.mutation ?? ''}) was rejected: ${JSON.stringify(rejected.get(line))}`,
              ).toBe(false);
            if (l.expect === 'reject')
              expect(rejected.has(line), `line ${String(line)} (${specs[index]?.mutation ?? ''}) was accepted`).toBe(
                true,
              );
            if (l.expect === 'blank') expect(rejected.has(line)).toBe(false);
          });
          for (const r of report.rejected) {
            expect(r.issues.length).toBeGreaterThan(0);
            for (const issue of r.issues) {
              expect(isSchemaPath(issue.path), issue.path).toBe(true);
              expect(issue.message.length).toBeGreaterThan(0);
            }
          }
          expect(leaks(JSON.stringify(report))).toEqual([]);

          // Nothing partial: every table grew by exactly what the report says was written.
          const outcomes = report.created + report.updated + report.unchanged + report.stale + report.rejected.length;
          const blank = (bytes: Buffer): boolean => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);
          expect(outcomes).toBe(lines.filter((l) => !blank(l.bytes)).length);
          const grew = (table: string): number => (after[table] ?? 0) - (before[table] ?? 0);
          expect(grew('source_record')).toBe(report.created);
          expect(grew('source_resource')).toBe(report.created);
          expect(grew('identity_link')).toBe(report.created);
          expect(grew('ingestion_receipt')).toBe(report.created + report.updated);
          expect(grew('identity')).toBe(report.newIdentities);
          expect(grew('review_case')).toBe(report.reviewCasesCreated);
          const stored = new Set(
            engine.env.store
              .statement('SELECT local_id FROM source_record WHERE tenant_id = ?')
              .pluck()
              .all(tenant) as string[],
          );
          lines.forEach((l, index) => {
            if (l.localId === undefined) return;
            if (l.expect === 'accept' || l.expect === 'warn') expect(stored.has(l.localId)).toBe(true);
            if (rejected.has(index + 1)) expect(stored.has(l.localId)).toBe(false);
          });
          const evidence = engine.env.store
            .statement('SELECT evidence_json FROM review_case WHERE tenant_id = ?')
            .pluck()
            .all(tenant) as string[];
          expect(leaks(evidence.join('\n'))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
    engine.close();
  });

  it('splits bytes into the same lines however they are chunked, and agrees with the text reader on UTF-8', async () => {
    const piece = fc.oneof(
      fc.constantFrom('\n', '\r', '\r\n', '\uFEFF', '{"a":1}', ' ', 'é', '😀', '\u2028'),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 3 }),
        async (pieces, sizes) => {
          const text = pieces.join('');
          const bytes = Buffer.from(text);
          const read = async (source: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>): Promise<NdjsonLine[]> => {
            const out: NdjsonLine[] = [];
            for await (const l of source) out.push(l);
            return out;
          };
          const whole = await read(new NdjsonLineReader([bytes], { maxLineBytes: 24 }));
          expect(await read(new NdjsonLineReader(chunks(bytes, sizes), { maxLineBytes: 24 }))).toEqual(whole);
          expect([...textLines(text, { maxLineBytes: 24 })]).toEqual(whole);
          expect(whole.length).toBe(text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
