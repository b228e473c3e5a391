import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ErrorIssue } from '../../../engine/contract/errors.ts';
import {
  MAX_DEPTH,
  MAX_ISSUES,
  MAX_RESOURCE_BYTES,
  MAX_STRING_LENGTH,
  validatePatient,
  type R4Patient,
} from '../../../engine/fhir/patient.ts';

/** A marker that only appears in patient values: no message or path may ever contain it. */
const SECRET = 'Zebedee';

function base(): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id: 'pat-1.a',
    meta: { lastUpdated: '2024-01-02T03:04:05.678+10:00' },
    identifier: [{ system: 'urn:oid:1.2.36.146.595.217.0.1', value: 'MRN-123' }],
    name: [{ use: 'official', family: 'Smith', given: ['Anne', 'Marie'], text: 'Anne Marie Smith' }],
    gender: 'female',
    birthDate: '1980-02-29',
    address: [{ use: 'home', line: ['1 Main St'], city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' }],
    telecom: [{ system: 'phone', value: '02 9876 5432', use: 'home' }],
  };
}

function issuesOf(resource: unknown): ErrorIssue[] {
  const result = validatePatient(resource);
  if (result.ok) throw new Error('expected the resource to be rejected');
  return result.issues;
}

function patientOf(resource: unknown): R4Patient {
  const result = validatePatient(resource);
  if (!result.ok) throw new Error(`expected a valid Patient, got ${JSON.stringify(result.issues)}`);
  return result.patient;
}

/** Asserts the resource is rejected with exactly these paths and that nothing echoes the secret. */
function expectPaths(resource: unknown, paths: string[]): ErrorIssue[] {
  const issues = issuesOf(resource);
  expect(issues.map((i) => i.path)).toEqual(paths);
  for (const issue of issues) {
    expect(issue.message).not.toContain(SECRET);
    expect(issue.path).not.toContain(SECRET);
    expect(issue.message.length).toBeGreaterThan(0);
  }
  return issues;
}

function withField(key: string, value: unknown): Record<string, unknown> {
  return { ...base(), [key]: value };
}

describe('validatePatient: the whole resource', () => {
  it('accepts a complete valid Patient and keeps unknown elements', () => {
    const resource = { ...base(), extension: [{ url: 'http://example.org/x', valueString: 'y' }], active: true };
    const patient = patientOf(resource);
    expect(patient.name?.[0]?.family).toBe('Smith');
    expect((patient as unknown as Record<string, unknown>).extension).toEqual(resource.extension);
    expect((patient as unknown as Record<string, unknown>).active).toBe(true);
  });

  it('accepts a minimal Patient with a name only', () => {
    expect(validatePatient({ resourceType: 'Patient', name: [{ given: ['Anne'] }] }).ok).toBe(true);
  });

  it.each([null, 'Patient', 42, [], [base()]])('rejects a non-object (%#)', (value) => {
    expectPaths(value, ['Patient']);
  });

  it('rejects another resourceType with that single issue', () => {
    expectPaths({ ...base(), resourceType: 'Observation', id: `${SECRET} x` }, ['resourceType']);
    expectPaths({ name: [{ family: 'Smith' }] }, ['resourceType']);
  });

  /** A valid Patient whose serialisation is exactly `bytes` long (strings of 4000 chars keep each one legal). */
  function sizedPatient(bytes: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const values: string[] = [];
    const resource = { ...withField('extension', [{ url: 'http://x', valueString: values }]), ...overrides };
    const sizeOf = (): number => Buffer.byteLength(JSON.stringify(resource), 'utf8');
    while (sizeOf() + 4003 <= bytes) values.push('a'.repeat(4000));
    const missing = bytes - sizeOf() - 3; // a new element adds its quotes and a comma
    values.push('a'.repeat(missing));
    expect(sizeOf()).toBe(bytes);
    return resource;
  }

  it('rejects a resource over MAX_RESOURCE_BYTES with that single issue', () => {
    const resource = sizedPatient(MAX_RESOURCE_BYTES + 1, { id: `${SECRET} bad` });
    const [issue] = expectPaths(resource, ['Patient']);
    expect(issue?.message).toContain(String(MAX_RESOURCE_BYTES));
  });

  it('accepts a resource of exactly MAX_RESOURCE_BYTES', () => {
    expect(validatePatient(sizedPatient(MAX_RESOURCE_BYTES)).ok).toBe(true);
  });

  it('reports every issue in a stable order: structure, then strings in document order', () => {
    const resource = {
      resourceType: 'Patient',
      id: `${SECRET}!`,
      gender: SECRET,
      name: [{ use: 'old', text: SECRET }],
      extension: [{ url: 'http://x', valueString: `${SECRET}\u0007` }],
      birthDate: SECRET,
    };
    const expected = ['id', 'gender', 'birthDate', 'extension[0].valueString'];
    expectPaths(resource, expected);
    expectPaths(structuredClone(resource), expected);
  });
});

describe('validatePatient: id and meta', () => {
  it.each(['a', 'A-b.9', 'x'.repeat(64)])('accepts id %s', (id) => {
    expect(validatePatient(withField('id', id)).ok).toBe(true);
  });

  it.each([`${SECRET} 1`, `${SECRET}_1`, '', 'x'.repeat(65), `${SECRET}/1`])('rejects id %#', (id) => {
    expectPaths(withField('id', id), ['id']);
  });

  it('rejects a non-string id', () => {
    expectPaths(withField('id', 12), ['id']);
  });

  it.each([
    '2024-01-02T03:04:05Z',
    '2024-01-02T03:04:05.1Z',
    '2024-01-02T03:04:05.123456789-05:30',
    '2000-02-29T23:59:59+14:00',
  ])('accepts meta.lastUpdated %s', (lastUpdated) => {
    expect(validatePatient(withField('meta', { lastUpdated })).ok).toBe(true);
  });

  it.each([
    '2024-01-02',
    '2024-01-02T03:04:05',
    '2024-02-30T03:04:05Z',
    '1900-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-02T24:00:00Z',
    '2024-01-02T03:60:00Z',
    '2024-01-02T03:04:60Z',
    '2024-01-02T03:04:05+15:00',
    '2024-01-02T03:04:05+14:30',
    '2024-01-02 03:04:05Z',
  ])('rejects meta.lastUpdated %s', (lastUpdated) => {
    expectPaths(withField('meta', { lastUpdated }), ['meta.lastUpdated']);
  });

  it('rejects a meta that is not an object', () => {
    expectPaths(withField('meta', [SECRET]), ['meta']);
  });
});

describe('validatePatient: identifier', () => {
  it('requires system and value on every identifier', () => {
    expectPaths(
      withField('identifier', [
        { system: 'http://a', value: 'ok' },
        { value: SECRET },
        { system: 'http://b' },
        { system: 'http://c', value: '   ' },
      ]),
      ['identifier[1].system', 'identifier[2].value', 'identifier[3].value'],
    );
  });

  it.each([SECRET, `http://x/${SECRET} 1`, '', ':nothing', 42])(
    'rejects a system that is not an absolute URI (%#)',
    (system) => {
      expectPaths(withField('identifier', [{ system, value: SECRET }]), ['identifier[0].system']);
    },
  );

  it('rejects a non-string value and a non-array identifier', () => {
    expectPaths(withField('identifier', [{ system: 'urn:x', value: 123 }]), ['identifier[0].value']);
    expectPaths(withField('identifier', { system: 'urn:x', value: SECRET }), ['identifier']);
    expectPaths(withField('identifier', [SECRET]), ['identifier[0]']);
  });
});

describe('validatePatient: name', () => {
  it('checks use, family, given and text types', () => {
    expectPaths(withField('name', [{ family: 'Smith' }, { use: SECRET, family: 7, given: ['a', 5], text: false }]), [
      'name[1].use',
      'name[1].family',
      'name[1].given[1]',
      'name[1].text',
    ]);
    expectPaths(withField('name', [{ family: 'Smith', given: SECRET }]), ['name[0].given']);
  });

  it.each(['usual', 'official', 'temp', 'nickname', 'anonymous', 'old', 'maiden'])('accepts use %s', (use) => {
    expect(validatePatient(withField('name', [{ use, family: 'Smith' }])).ok).toBe(true);
  });

  it('accepts a Patient with no name, or names with no usable part (valid R4: newborns, unknown patients)', () => {
    const cases: unknown[] = [
      undefined,
      [],
      [{ text: SECRET }],
      [{ family: '  ', given: [' ', ''] }],
      [{ use: 'official' }],
    ];
    for (const name of cases) {
      const resource = withField('name', name);
      if (name === undefined) delete resource.name;
      const result = validatePatient(resource);
      expect(result.ok, JSON.stringify(name)).toBe(true);
      expect(result.ok && result.warnings).toEqual([]);
    }
  });

  it('accepts a usable old or maiden name as the only name', () => {
    expect(validatePatient(withField('name', [{ use: 'maiden', family: 'Jones' }])).ok).toBe(true);
  });

  it('does not repeat the name rule when name is not an array', () => {
    expectPaths(withField('name', { family: SECRET }), ['name']);
  });
});

describe('validatePatient: gender, address, telecom', () => {
  it.each(['male', 'female', 'other', 'unknown'])('accepts gender %s', (gender) => {
    expect(validatePatient(withField('gender', gender)).ok).toBe(true);
  });

  it.each([SECRET, 'M', 'Male', 1])('rejects gender %#', (gender) => {
    expectPaths(withField('gender', gender), ['gender']);
  });

  it('checks address element types and use', () => {
    expectPaths(
      withField('address', [
        { use: SECRET, line: [SECRET, 3], city: 1, state: [], postalCode: {}, country: true },
        { line: SECRET },
      ]),
      [
        'address[0].use',
        'address[0].line[1]',
        'address[0].city',
        'address[0].state',
        'address[0].postalCode',
        'address[0].country',
        'address[1].line',
      ],
    );
  });

  it('checks telecom system, value and use', () => {
    expectPaths(
      withField('telecom', [
        { system: SECRET, value: 1, use: SECRET },
        { system: 'email', value: 'a@b.c', use: 'mobile' },
      ]),
      ['telecom[0].system', 'telecom[0].value', 'telecom[0].use'],
    );
  });
});

describe('validatePatient: birthDate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-06-15T09:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(['1980-01-31', '2000-02-29', '1850-01-01', '2024-06-15', '1980', '1980-02', '2024', '2024-06'])(
    'accepts %s without a warning',
    (birthDate) => {
      const result = validatePatient(withField('birthDate', birthDate));
      expect(result.ok && result.warnings).toEqual([]);
    },
  );

  // The R4 date regex admits day 01-31 in any month: a day the calendar lacks is a data-entry error in a
  // valid resource. Implausibly early and future dates are valid FHIR too. All are kept, the date ignored.
  it.each([
    ['1980-02-30', 'is not a real calendar date; ignored for matching'],
    ['1900-02-29', 'is not a real calendar date; ignored for matching'],
    ['2023-02-29', 'is not a real calendar date; ignored for matching'],
    ['1980-04-31', 'is not a real calendar date; ignored for matching'],
    ['1849-12-31', 'is before 1850; ignored for matching'],
    ['1849', 'is before 1850; ignored for matching'],
    ['0001-01-01', 'is before 1850; ignored for matching'],
    ['2024-06-16', 'is in the future; ignored for matching'],
    ['2024-07', 'is in the future; ignored for matching'],
    ['2025', 'is in the future; ignored for matching'],
    ['9999-12-31', 'is in the future; ignored for matching'],
  ])('accepts %s with a warning naming birthDate, never the value', (birthDate, message) => {
    const result = validatePatient(withField('birthDate', birthDate));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings).toEqual([{ path: 'birthDate', message }]);
    expect(result.patient.birthDate).toBe(birthDate);
    expect(message).not.toContain(birthDate);
  });

  it.each([
    '2001-13-01',
    '1980-00-10',
    '1980-01-00',
    '1980-01-32',
    '1980-13',
    '0000',
    '0000-01-01',
    '80-01-01',
    '1980/01/01',
    '1980-1-1',
    '1980-01-01T00:00:00Z',
    '',
  ])('rejects %s (not the R4 date shape)', (birthDate) => {
    expectPaths(withField('birthDate', birthDate), ['birthDate']);
  });

  it('judges the future at the time given (ingestion time), allowing for the furthest time zone', () => {
    vi.setSystemTime(new Date('2024-06-15T12:00:00Z'));
    expect(validatePatient(withField('birthDate', '2024-06-16'))).toMatchObject({ ok: true, warnings: [] });
    expect(validatePatient(withField('birthDate', '2024-06-17'))).toMatchObject({
      ok: true,
      warnings: [{ path: 'birthDate' }],
    });
    expect(validatePatient(withField('birthDate', '2024-06-17'), Date.parse('2024-06-17T00:00:00Z'))).toMatchObject({
      ok: true,
      warnings: [],
    });
  });

  it('never echoes the date', () => {
    for (const birthDate of ['1980-02-30', '2199-01-01', '1700-01-01', 'Zebedee']) {
      const result = validatePatient(withField('birthDate', birthDate));
      const messages = result.ok ? result.warnings.map((w) => w.message) : result.issues.map((i) => i.message);
      expect(messages.length).toBe(1);
      for (const message of messages) expect(message).not.toContain(birthDate);
    }
  });
});

describe('validatePatient: every string in the resource', () => {
  it.each(['\u0000', '\u0009', '\n', '\u001f', '\u007f', '\u0085', '\u009f'])(
    'rejects control character %j deep in unknown elements',
    (c) => {
      const resource = withField('extension', [
        {
          url: 'http://x',
          extension: [{ url: 'http://y', valueCodeableConcept: { coding: [{ display: `${SECRET}${c}x` }] } }],
        },
      ]);
      expectPaths(resource, ['extension[0].extension[0].valueCodeableConcept.coding[0].display']);
    },
  );

  it('accepts other Unicode, such as U+00A0 and letters with diacritics', () => {
    expect(validatePatient(withField('extension', [{ url: 'http://x', valueString: 'Müller\u00a0Ørsted' }])).ok).toBe(
      true,
    );
  });

  it('rejects control characters in known elements too, by path', () => {
    expectPaths(withField('name', [{ family: `${SECRET}\u0001`, given: ['a', `b\u001b${SECRET}`] }]), [
      'name[0].family',
      'name[0].given[1]',
    ]);
  });

  it('rejects strings longer than MAX_STRING_LENGTH code points, anywhere', () => {
    const long = SECRET.repeat(Math.ceil(MAX_STRING_LENGTH / SECRET.length) + 1);
    expectPaths(withField('contact', [{ name: { text: long } }]), ['contact[0].name.text']);
    expectPaths(withField('address', [{ line: ['ok', long] }]), ['address[0].line[1]']);
  });

  it('counts code points, not UTF-16 units', () => {
    const astral = '😀'.repeat(MAX_STRING_LENGTH);
    expect(validatePatient(withField('extension', [{ url: 'http://x', valueString: astral }])).ok).toBe(true);
    expect(
      issuesOf(withField('extension', [{ url: 'http://x', valueString: `${astral}a` }])).map((i) => i.path),
    ).toEqual(['extension[0].valueString']);
    expect(
      validatePatient(withField('extension', [{ url: 'http://x', valueString: 'a'.repeat(MAX_STRING_LENGTH) }])).ok,
    ).toBe(true);
  });

  it('lets the narrative (text.div) span lines and run long, but not carry other control characters', () => {
    const div = `<div xmlns="http://www.w3.org/1999/xhtml">\n\t<p>${'Narrative. '.repeat(600)}</p>\r\n</div>`;
    expect(validatePatient(withField('text', { status: 'generated', div })).ok).toBe(true);
    expectPaths(withField('text', { status: 'generated', div: `<div>${SECRET}\u0007</div>` }), ['text.div']);
    // Only the narrative: a line break anywhere else is still refused.
    expectPaths(
      withField('text', { status: 'generated', div: '<div/>', extension: [{ url: 'http://x', valueString: 'a\nb' }] }),
      ['text.extension[0].valueString'],
    );
  });

  it('checks element names, and never prints an unusual one', () => {
    const resource = withField('extension', [{ url: 'http://x', [`${SECRET}\u0002`]: 'v' }]);
    expectPaths(resource, ['extension[0].<unknown element 2>']);
  });

  it('bounds nesting depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_DEPTH + 10; i++) deep = { x: deep };
    const issues = expectPaths(withField('extension', [deep]), [
      `extension[0]${'.<unknown element 1>'.repeat(MAX_DEPTH - 2)}`,
    ]);
    expect(issues[0]?.message).toContain(String(MAX_DEPTH));
  });

  it(`lists at most ${MAX_ISSUES} issues, then says the list was cut`, () => {
    const strings = Array.from({ length: MAX_ISSUES + 20 }, () => `${SECRET}\u0000`);
    const issues = issuesOf(withField('extension', [{ url: 'http://x', valueString: strings }]));
    expect(issues).toHaveLength(MAX_ISSUES + 1);
    expect(issues[MAX_ISSUES - 1]?.path).toBe(`extension[0].valueString[${MAX_ISSUES - 1}]`);
    expect(issues[MAX_ISSUES]?.path).toBe('Patient');
    for (const issue of issues) expect(issue.message).not.toContain(SECRET);
  });
});
