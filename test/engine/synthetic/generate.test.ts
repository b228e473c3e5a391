import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_RATES } from '../../../engine/synthetic/errors.ts';
import type { SyntheticErrorKind } from '../../../engine/synthetic/errors.ts';
import { NATIONAL_ID_SYSTEM, SYNTHETIC_SOURCES, generatePopulation } from '../../../engine/synthetic/generate.ts';
import type { SyntheticPopulation, SyntheticRecord } from '../../../engine/synthetic/generate.ts';
import { NICKNAMES } from '../../../engine/synthetic/names.ts';
import { groundTruthPairs, labelsTsv, toNdjsonBySource, writePopulation } from '../../../engine/synthetic/write.ts';

// The R4 Patient shape the generator promises, checked directly (engine/fhir is not used here).
const Instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/);
const HumanName = z.strictObject({
  use: z.enum(['official', 'maiden']),
  family: z.string().min(1).optional(),
  given: z.array(z.string().min(1)).min(1).max(2).optional(),
});
const Address = z.strictObject({
  use: z.literal('home'),
  type: z.literal('physical'),
  line: z.array(z.string().min(1)).min(1),
  city: z.string().min(1),
  state: z.string().regex(/^[A-Z]{2}$/),
  postalCode: z.string().regex(/^\d{5}$/),
  country: z.literal('US'),
});
const Telecom = z.strictObject({
  system: z.enum(['phone', 'email']),
  value: z.string().min(1),
  use: z.enum(['home', 'mobile']).optional(),
});
const Patient = z.strictObject({
  resourceType: z.literal('Patient'),
  id: z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/),
  meta: z.strictObject({ lastUpdated: Instant }),
  identifier: z.array(z.strictObject({ system: z.string().min(1), value: z.string().min(1) })).min(1),
  name: z.array(HumanName).min(1),
  telecom: z.array(Telecom).min(1).optional(),
  gender: z.enum(['male', 'female', 'other', 'unknown']),
  birthDate: z.string().optional(),
  address: z.array(Address).length(1).optional(),
});
type PatientView = z.infer<typeof Patient>;

const views = new WeakMap<SyntheticRecord, PatientView>();
/** Parses once per record: the checks below look at the same records many times. */
function view(record: SyntheticRecord): PatientView {
  let parsed = views.get(record);
  if (parsed === undefined) {
    parsed = Patient.parse(record.patient);
    views.set(record, parsed);
  }
  return parsed;
}

function isRealDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const official = (p: PatientView) => p.name.find((n) => n.use === 'official');
const phoneOf = (p: PatientView) => p.telecom?.find((t) => t.system === 'phone')?.value;
const emailOf = (p: PatientView) => p.telecom?.find((t) => t.system === 'email')?.value;
/** National significant number: digits without a leading US country code. */
const phoneDigits = (value: string) => value.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

function byPerson(pop: SyntheticPopulation): Map<string, number[]> {
  const map = new Map<string, number[]>();
  pop.records.forEach((r, i) => {
    map.set(r.personId, [...(map.get(r.personId) ?? []), i]);
  });
  return map;
}

/** The person's clean first record. */
function cleanRecords(pop: SyntheticPopulation): Map<string, SyntheticRecord> {
  const map = new Map<string, SyntheticRecord>();
  for (const r of pop.records) if (r.variant === 0) map.set(r.personId, r);
  return map;
}

const small = generatePopulation({ people: 400, seed: 11 });
const large = generatePopulation({ people: 5000, seed: 20260101 });

describe('generatePopulation determinism', () => {
  it('gives identical NDJSON and labels for the same seed', () => {
    const again = generatePopulation({ people: 400, seed: 11 });
    expect([...toNdjsonBySource(again)]).toEqual([...toNdjsonBySource(small)]);
    expect(labelsTsv(groundTruthPairs(again))).toBe(labelsTsv(groundTruthPairs(small)));
  });

  it('gives different output for a different seed', () => {
    const other = generatePopulation({ people: 400, seed: 12 });
    const a = toNdjsonBySource(small);
    const b = toNdjsonBySource(other);
    for (const { sourceSystem } of SYNTHETIC_SOURCES) expect(b.get(sourceSystem)).not.toBe(a.get(sourceSystem));
    expect(labelsTsv(groundTruthPairs(other))).not.toBe(labelsTsv(groundTruthPairs(small)));
  });

  describe('writePopulation', () => {
    let dir = '';
    afterAll(async () => {
      if (dir !== '') await rm(dir, { recursive: true, force: true });
    });

    it('writes the same bytes as toNdjsonBySource and labelsTsv, creating the directory', async () => {
      dir = await mkdtemp(join(tmpdir(), 'mpi-synthetic-'));
      const target = join(dir, 'nested', 'out');
      const { files } = await writePopulation(small, target);
      const names = SYNTHETIC_SOURCES.map((s) => `${s.sourceSystem}.ndjson`);
      expect(files).toEqual([...names, 'labels.tsv'].map((n) => join(target, n)));
      const ndjson = toNdjsonBySource(small);
      for (const { sourceSystem } of SYNTHETIC_SOURCES) {
        expect(await readFile(join(target, `${sourceSystem}.ndjson`), 'utf8')).toBe(ndjson.get(sourceSystem));
      }
      expect(await readFile(join(target, 'labels.tsv'), 'utf8')).toBe(labelsTsv(groundTruthPairs(small)));
    });
  });

  it('handles empty and one-person populations', () => {
    expect(generatePopulation({ people: 0, seed: 1 }).records).toEqual([]);
    const one = generatePopulation({ people: 1, seed: 1 });
    expect(new Set(one.records.map((r) => r.personId)).size).toBe(1);
    expect(groundTruthPairs(one).every((p) => p.isMatch)).toBe(true);
  });

  it('rejects a bad people count or seed', () => {
    expect(() => generatePopulation({ people: -1, seed: 1 })).toThrow(/people/);
    expect(() => generatePopulation({ people: 1.5, seed: 1 })).toThrow(/people/);
    expect(() => generatePopulation({ people: 1, seed: -1 })).toThrow(/seed/);
  });
});

describe('generated records', () => {
  it('are R4 Patients carrying their source local identifier', () => {
    const systems = new Map(SYNTHETIC_SOURCES.map((s) => [s.sourceSystem, s.localIdentifierSystem]));
    for (const record of large.records) {
      const p = view(record);
      expect(p.identifier).toContainEqual({ system: systems.get(record.sourceSystem), value: record.localId });
      expect(record.localId).toMatch(/^(SM|RC|NG|CP)\d{7,}$/);
      const name = official(p);
      expect((name?.family ?? '') + (name?.given?.join('') ?? '')).not.toBe('');
      expect(p.meta.lastUpdated >= '2020-01-01' && p.meta.lastUpdated < '2026-01-01').toBe(true);
      for (const address of p.address ?? []) expect(address.line.length).toBeGreaterThan(0);
      if (p.birthDate !== undefined) {
        expect(isRealDate(p.birthDate)).toBe(true);
        // A clean record is aged 0–100 at 2026-01-01; a mistyped digit can move it further.
        const earliest = record.variant === 0 ? '1926-01-01' : '1900-01-01';
        expect(p.birthDate >= earliest && p.birthDate <= '2025-12-31').toBe(true);
      }
      const phone = phoneOf(p);
      if (phone !== undefined) expect(phoneDigits(phone)).toMatch(/^\d{10}$/);
      const email = emailOf(p);
      if (email !== undefined) expect(email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    }
  });

  it('have unique local and resource ids per source, at most one record per source per person', () => {
    for (const { sourceSystem } of SYNTHETIC_SOURCES) {
      const records = large.records.filter((r) => r.sourceSystem === sourceSystem);
      expect(records.length).toBeGreaterThan(0);
      expect(new Set(records.map((r) => r.localId)).size).toBe(records.length);
      expect(new Set(records.map((r) => view(r).id)).size).toBe(records.length);
    }
    const people = byPerson(large);
    expect(people.size).toBe(5000);
    for (const indices of people.values()) {
      const sources = indices.map((i) => large.records[i]?.sourceSystem);
      expect(new Set(sources).size).toBe(sources.length);
      expect(sources.length).toBeGreaterThanOrEqual(1);
      expect(sources.length).toBeLessThanOrEqual(4);
    }
    const mean = large.records.length / people.size;
    expect(mean).toBeGreaterThan(2.0);
    expect(mean).toBeLessThan(2.4);
  });

  it('never places two records of one person next to each other', () => {
    for (const pop of [small, large]) {
      pop.records.forEach((r, i) => {
        if (i > 0) expect(r.personId).not.toBe(pop.records[i - 1]?.personId);
      });
    }
  });

  it('carry a national id only on the first two sources, on about 60% of their records, never wrong', () => {
    const trusted = new Set(SYNTHETIC_SOURCES.slice(0, 2).map((s) => s.sourceSystem));
    const idOfPerson = new Map<string, string>();
    const personOfId = new Map<string, string>();
    let eligible = 0;
    let carrying = 0;
    for (const record of large.records) {
      const ids = view(record).identifier.filter((i) => i.system === NATIONAL_ID_SYSTEM);
      if (trusted.has(record.sourceSystem)) eligible++;
      if (ids.length === 0) continue;
      carrying++;
      expect(trusted.has(record.sourceSystem)).toBe(true);
      expect(ids).toHaveLength(1);
      const value = ids[0]?.value ?? '';
      expect(value).toMatch(/^[1-9]\d{9}$/);
      expect(idOfPerson.get(record.personId) ?? value).toBe(value);
      expect(personOfId.get(value) ?? record.personId).toBe(record.personId);
      idOfPerson.set(record.personId, value);
      personOfId.set(value, record.personId);
    }
    expect(carrying / eligible).toBeGreaterThan(0.5);
    expect(carrying / eligible).toBeLessThan(0.7);
  });

  it('carry a phone on about 80% and an email on about 40% of records', () => {
    const n = large.records.length;
    const phones = large.records.filter((r) => phoneOf(view(r)) !== undefined).length;
    const emails = large.records.filter((r) => emailOf(view(r)) !== undefined).length;
    expect(phones / n).toBeGreaterThan(0.72);
    expect(phones / n).toBeLessThan(0.88);
    expect(emails / n).toBeGreaterThan(0.33);
    expect(emails / n).toBeLessThan(0.47);
  });
});

describe('injected errors', () => {
  const clean = cleanRecords(large);
  const noisy = large.records.filter((r) => r.variant > 0);
  const cleanOf = (r: SyntheticRecord): PatientView => {
    const c = clean.get(r.personId);
    if (c === undefined) throw new Error(`no clean record for ${r.personId}`);
    return view(c);
  };
  const has = (r: SyntheticRecord, kind: SyntheticErrorKind) => r.errors.includes(kind);

  /** Observed rate of `kind` among the noisy records where it can apply. */
  function rate(kind: SyntheticErrorKind, eligible: (r: SyntheticRecord, c: PatientView) => boolean) {
    const pool = noisy.filter((r) => eligible(r, cleanOf(r)));
    return { n: pool.length, rate: pool.filter((r) => has(r, kind)).length / pool.length };
  }

  const always = () => true;
  const eligibility: Record<SyntheticErrorKind, (r: SyntheticRecord, c: PatientView) => boolean> = {
    nameTypo: always,
    nameTransposition: always,
    nickname: (_r, c) => NICKNAMES.has((official(c)?.given?.[0] ?? '').toLowerCase()),
    marriedName: (_r, c) => c.gender === 'female' && (c.birthDate ?? '') < '2008-01-01',
    maidenNameKept: (r) => has(r, 'marriedName'),
    diacriticsStripped: (_r, c) => /\P{ASCII}/u.test(JSON.stringify(c.name)),
    nameCase: always,
    missingBirthDate: always,
    dayMonthSwap: (r, c) => {
      const [, month = '', day = ''] = (c.birthDate ?? '').split('-');
      return !has(r, 'missingBirthDate') && Number(day) <= 12 && day !== month;
    },
    birthDateDigit: (r) => !has(r, 'missingBirthDate'),
    missingAddress: always,
    movedHouse: (r) => !has(r, 'missingAddress'),
    postcodeTypo: (r) => !has(r, 'missingAddress'),
    missingPhone: (_r, c) => phoneOf(c) !== undefined,
    phoneFormat: (r, c) => phoneOf(c) !== undefined && !has(r, 'missingPhone'),
    missingEmail: (_r, c) => emailOf(c) !== undefined,
  };

  it('never touch the first record of a person', () => {
    expect(clean.size).toBe(5000);
    for (const r of clean.values()) expect(r.errors).toEqual([]);
  });

  it.each(Object.keys(ERROR_RATES) as SyntheticErrorKind[])('%s lands near its configured probability', (kind) => {
    const { n, rate: observed } = rate(kind, eligibility[kind]);
    expect(n).toBeGreaterThan(100);
    expect(observed).toBeGreaterThan(ERROR_RATES[kind] * 0.6);
    expect(observed).toBeLessThan(ERROR_RATES[kind] * 1.4);
  });

  it('show up in the records exactly as traced', () => {
    const nameKinds: SyntheticErrorKind[] = ['nameTypo', 'nameTransposition', 'nameCase', 'diacriticsStripped'];
    for (const r of noisy) {
      const p = view(r);
      const c = cleanOf(r);
      expect(p.birthDate === undefined).toBe(has(r, 'missingBirthDate'));
      expect(p.address === undefined).toBe(has(r, 'missingAddress'));
      expect(phoneOf(p) === undefined).toBe(phoneOf(c) === undefined || has(r, 'missingPhone'));
      expect(emailOf(p) === undefined).toBe(emailOf(c) === undefined || has(r, 'missingEmail'));
      expect(p.gender).toBe(c.gender);
      expect(p.name.some((n) => n.use === 'maiden')).toBe(has(r, 'maidenNameKept'));

      const phone = phoneOf(p);
      const cleanPhone = phoneOf(c);
      if (phone !== undefined && cleanPhone !== undefined) {
        expect(phoneDigits(phone)).toBe(phoneDigits(cleanPhone));
        expect(phone !== cleanPhone).toBe(has(r, 'phoneFormat'));
      }
      if (!nameKinds.some((k) => has(r, k))) {
        const given = official(p)?.given ?? [];
        const cleanGiven = official(c)?.given ?? [];
        const expectedFirst = has(r, 'nickname')
          ? NICKNAMES.get((cleanGiven[0] ?? '').toLowerCase())
          : (cleanGiven[0] ?? '').toLowerCase();
        expect(given[0]?.toLowerCase()).toBe(expectedFirst);
        expect(official(p)?.family !== official(c)?.family).toBe(has(r, 'marriedName'));
      }
      if (has(r, 'dayMonthSwap') && !has(r, 'birthDateDigit')) {
        const [y, m, d] = (c.birthDate ?? '').split('-');
        expect(p.birthDate).toBe(`${y ?? ''}-${d ?? ''}-${m ?? ''}`);
      }
      if (p.birthDate !== undefined && !has(r, 'dayMonthSwap') && !has(r, 'birthDateDigit')) {
        expect(p.birthDate).toBe(c.birthDate);
      }
      if (p.address !== undefined && c.address !== undefined) {
        const [now] = p.address;
        const [before] = c.address;
        expect(JSON.stringify(now?.line) !== JSON.stringify(before?.line)).toBe(has(r, 'movedHouse'));
        if (!has(r, 'movedHouse')) expect(now?.postalCode !== before?.postalCode).toBe(has(r, 'postcodeTypo'));
      }
    }
  });
});

describe('hard negatives', () => {
  const clean = cleanRecords(large);
  const cleanView = (personId: string): PatientView => {
    const r = clean.get(personId);
    if (r === undefined) throw new Error(`no clean record for ${personId}`);
    return view(r);
  };
  const twins = large.relations.filter((r) => r.kind === 'twin');
  const households = large.relations.filter((r) => r.kind === 'household');

  it('have about 2% of people in twin pairs and about 5% in households', () => {
    expect((twins.length * 2) / large.people).toBeGreaterThan(0.01);
    expect((twins.length * 2) / large.people).toBeLessThan(0.03);
    expect((households.length * 2) / large.people).toBeGreaterThan(0.03);
    expect((households.length * 2) / large.people).toBeLessThan(0.07);
  });

  it('twins share family name, birth date, address and phone but are different people', () => {
    let oppositeSex = 0;
    for (const { personIds } of twins) {
      const [a, b] = personIds.map(cleanView);
      if (a === undefined || b === undefined) throw new Error('twin without records');
      expect(personIds[0]).not.toBe(personIds[1]);
      expect(official(a)?.family).toBe(official(b)?.family);
      expect(a.birthDate).toBe(b.birthDate);
      expect(a.address).toEqual(b.address);
      expect(phoneOf(a)).toBe(phoneOf(b));
      expect(official(a)?.given?.[0]).not.toBe(official(b)?.given?.[0]);
      if (a.gender !== b.gender) oppositeSex++;
    }
    expect(oppositeSex / twins.length).toBeGreaterThan(0.5);
  });

  it('household members share an address but differ in age', () => {
    for (const { personIds } of households) {
      const [a, b] = personIds.map(cleanView);
      if (a === undefined || b === undefined) throw new Error('household member without records');
      expect(a.address).toEqual(b.address);
      const years = Math.abs(Number(a.birthDate?.slice(0, 4)) - Number(b.birthDate?.slice(0, 4)));
      expect(years).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('labels', () => {
  const pairs = groundTruthPairs(large);
  const text = labelsTsv(pairs);
  const lines = text.split('\n');
  const position = new Map(large.records.map((r, i) => [`${r.sourceSystem}\t${r.localId}`, i]));
  const indexOf = (ref: { sourceSystem: string; localId: string }) =>
    position.get(`${ref.sourceSystem}\t${ref.localId}`) ?? -1;
  const pairKey = (a: number, b: number) => `${String(Math.min(a, b))}:${String(Math.max(a, b))}`;

  it('has the five columns in order, match/non-match spellings and LF endings', () => {
    expect(lines[0]).toBe('leftSource\tleftLocalId\trightSource\trightLocalId\tisMatch');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('\r');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(pairs.length);
    // Collected rather than asserted row by row: tens of thousands of expect calls are slow.
    const bad = rows.filter((row) => {
      const [leftSource = '', leftLocalId = '', rightSource = '', rightLocalId = '', outcome = '', ...rest] =
        row.split('\t');
      return (
        rest.length > 0 ||
        !['match', 'non-match'].includes(outcome) ||
        !position.has(`${leftSource}\t${leftLocalId}`) ||
        !position.has(`${rightSource}\t${rightLocalId}`)
      );
    });
    expect(bad).toEqual([]);
  });

  it('contains every true pair exactly once, no pair twice in either orientation, and correct outcomes', () => {
    const seen = new Set<string>();
    const matches = new Set<string>();
    for (const row of lines.slice(1, -1)) {
      const [ls = '', lid = '', rs = '', rid = '', outcome] = row.split('\t');
      const l = indexOf({ sourceSystem: ls, localId: lid });
      const r = indexOf({ sourceSystem: rs, localId: rid });
      expect(l).toBeLessThan(r);
      const key = pairKey(l, r);
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      const samePerson = large.records[l]?.personId === large.records[r]?.personId;
      expect(outcome === 'match').toBe(samePerson);
      if (samePerson) matches.add(key);
    }
    let truePairs = 0;
    for (const indices of byPerson(large).values()) {
      for (let a = 0; a < indices.length; a++) {
        for (let b = a + 1; b < indices.length; b++) {
          truePairs++;
          expect(matches.has(pairKey(indices[a] ?? -1, indices[b] ?? -1))).toBe(true);
        }
      }
    }
    expect(matches.size).toBe(truePairs);
  });

  it('lists every twin and household cross pair, plus as many random non-matches as true pairs', () => {
    const people = byPerson(large);
    const keys = new Set(pairs.map((p) => pairKey(indexOf(p.left), indexOf(p.right))));
    let hard = 0;
    for (const { personIds } of large.relations) {
      for (const a of people.get(personIds[0]) ?? []) {
        for (const b of people.get(personIds[1]) ?? []) {
          hard++;
          expect(keys.has(pairKey(a, b))).toBe(true);
        }
      }
    }
    const matchCount = pairs.filter((p) => p.isMatch).length;
    expect(pairs.length - matchCount).toBe(hard + matchCount);
  });
});
