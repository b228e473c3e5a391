import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { ctx, MRN_SYSTEM, ndjson, openRegistry } from '../../helpers/registry.ts';
import type { IngestReport } from '../../../engine/contract/ingest.ts';
import type { MatchFields } from '../../../engine/contract/fields.ts';

/**
 * Every valid R4 Patient is accepted (issue 12): no name, names that normalise to nothing, and birth dates that
 * cannot be a person's are valid FHIR. Such a date is ignored for matching (stored as missing) and reported as
 * a warning naming the line and the field, never the value, in the JSON and the text report.
 */

/** Markers that only appear in patient values: no output may contain them. */
const CANARIES = [
  'Quillfeather',
  'Oakenshaw',
  'Wickerby',
  '2199-01-01',
  '2019-02-30',
  '1700-01-01',
  '77 Canary Row',
  'CANARY-MRN',
];

function record(n: number, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id: `p${String(n)}`,
    identifier: [{ system: MRN_SYSTEM, value: `CANARY-MRN-${String(n)}` }],
    gender: 'female',
    address: [{ use: 'home', line: ['77 Canary Row'], city: 'Wickerby', postalCode: 'WB1 1AA' }],
    ...extra,
  };
}

const PATIENTS = [
  /* 1 */ record(1, { name: [{ family: 'Quillfeather', given: ['Ada'] }], birthDate: '1984-03-17' }),
  /* 2 */ record(2, { birthDate: '1984-03-17' }), // no name at all
  /* 3 */ record(3, { name: [] }),
  /* 4 */ record(4, { name: [{ prefix: ['Mrs'] }] }), // a prefix only
  /* 5 */ record(5, { name: [{ family: 'Mrs', given: ['?'] }] }), // a placeholder that normalises to nothing
  /* 6 */ record(6, { name: [{ text: 'Baby Quillfeather' }] }), // text only
  /* 7 */ record(7, { name: [{ family: 'Oakenshaw' }], birthDate: '2199-01-01' }), // future
  /* 8 */ record(8, { name: [{ family: 'Oakenshaw' }], birthDate: '2019-02-30' }), // no such day
  /* 9 */ record(9, { name: [{ family: 'Oakenshaw' }], birthDate: '1700-01-01' }), // before 1850
  /* 10 */ record(10, { name: [{ given: ['Ada'] }], birthDate: '1984' }), // partial: valid, too coarse to compare, no warning
  /* 11 */ { resourceType: 'Patient', identifier: [{ system: MRN_SYSTEM, value: 'CANARY-MRN-11' }] }, // nothing but the key
];

const WARNINGS = [
  { line: 7, issues: [{ path: 'birthDate', message: 'is in the future; ignored for matching' }] },
  { line: 8, issues: [{ path: 'birthDate', message: 'is not a real calendar date; ignored for matching' }] },
  { line: 9, issues: [{ path: 'birthDate', message: 'is before 1850; ignored for matching' }] },
];

function expectNoCanary(text: string): void {
  for (const canary of CANARIES) expect(text).not.toContain(canary);
}

describe('valid R4 Patients are all accepted', () => {
  it('ingests nameless, prefix-only and placeholder-named Patients and impossible or future birth dates: 0 rejected, warnings by line and field', async () => {
    const engine = openRegistry(tempDir());
    const report: IngestReport = await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: ndjson(...PATIENTS) },
      ctx(),
    );
    expect(report.rejected).toEqual([]);
    expect(report.created).toBe(PATIENTS.length);
    expect(report.warnings).toEqual(WARNINGS);
    expectNoCanary(JSON.stringify(report));
    // Ignored for matching: stored as missing, so neither blocking nor comparison nor the canonical record sees it.
    const fields = new Map(
      (
        engine.env.store.statement("SELECT local_id, fields_json FROM source_record WHERE tenant_id = 't1'").all() as {
          local_id: string;
          fields_json: string;
        }[]
      ).map((r) => [r.local_id, JSON.parse(r.fields_json) as MatchFields]),
    );
    for (const n of [7, 8, 9, 10])
      expect(fields.get(`CANARY-MRN-${String(n)}`)?.birthDate, `line ${String(n)}`).toBeNull();
    expect(fields.get('CANARY-MRN-1')?.birthDate).toBe('1984-03-17');
    for (const n of [2, 3, 4, 5, 6, 11])
      expect(fields.get(`CANARY-MRN-${String(n)}`)).toMatchObject({ familyName: null, givenName: null });
    // The stored resource is the one received, date and all: only matching ignores it.
    const stored = engine.env.store
      .statement("SELECT resource_json FROM source_resource WHERE tenant_id = 't1'")
      .pluck()
      .all() as string[];
    expect(stored.some((json) => json.includes('2019-02-30'))).toBe(true);
    engine.close();
  });

  it('prints the warnings in the CLI text and JSON reports with line and field only, exit code 0', async () => {
    const dir = tempDir();
    openRegistry(dir).close();
    const file = join(dir, 'valid.ndjson');
    writeFileSync(file, ndjson(...PATIENTS));
    const args = [
      '--db',
      join(dir, 'registry.db'),
      '--tenant',
      't1',
      'ingest',
      '--source',
      'hospital',
      '--ndjson',
      file,
    ];
    const text = await runCli(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^rejected\s+0$/m);
    expect(text.stdout).toMatch(/^accepted with warnings\s+3$/m);
    expect(text.stdout).toMatch(/^review rate\s+\S+ per 1,000 matched \(\d+ cases?, 11 matched\)$/m);
    expect(text.stdout).toMatch(/^7\s+birthDate\s+is in the future; ignored for matching$/m);
    expect(text.stdout).toMatch(/^8\s+birthDate\s+is not a real calendar date; ignored for matching$/m);
    expect(text.stdout).toMatch(/^9\s+birthDate\s+is before 1850; ignored for matching$/m);
    expectNoCanary(text.stdout + text.stderr);
    // A replay is unchanged, and its lines still carry their warnings.
    const replay = await runCli([...args, '--json']);
    expect(replay.code, replay.stderr).toBe(0);
    const report = JSON.parse(replay.stdout) as IngestReport;
    expect(report).toMatchObject({
      unchanged: PATIENTS.length,
      rejected: [],
      warnings: WARNINGS,
      reviewRate: { reviewCases: 0, matched: 0, perThousand: null },
    });
    expectNoCanary(replay.stdout + replay.stderr);
  });
});
