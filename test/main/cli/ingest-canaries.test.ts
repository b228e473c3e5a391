/**
 * Patient-data canaries through the real `mpi-console ingest` process: known values are planted in accepted
 * and rejected lines of every kind, and every output of ingestion (text and JSON reports, stderr, exit
 * status), every audit row, job row and stored review evidence is searched for them.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { runCli } from '../../helpers/cli.ts';
import { Store } from '../../../engine/store/store.ts';
import { NATIONAL_ID_SYSTEM, SYNTHETIC_SOURCES } from '../../../engine/synthetic/generate.ts';

const BIN = fileURLToPath(new URL('../../../main/cli/bin.js', import.meta.url));
const SOURCE = SYNTHETIC_SOURCES[0];
if (SOURCE === undefined) throw new Error('no synthetic source');

const CANARY = {
  family: 'Zebulonovich',
  given: 'Quenterina',
  line: 'Xylocarp Crescent',
  city: 'Vexhampton',
  phone: '07700 913 579',
  email: 'quenterina.z@canary.example',
  national: 'NZ9K4Q7W',
  mrn: 'MRN-CANARY-4471',
  key: 'MRNcanaryKey8812',
};
/** How each canary could appear once normalised (lower case, digits only, no punctuation). */
const NEEDLES = [
  ...Object.values(CANARY),
  'zebulonovich',
  'quenterina',
  'xylocarp',
  'vexhampton',
  '7700913579',
  'NZ9K4Q7W',
  'canaryKey8812',
];

function person(localId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resourceType: 'Patient',
    id: `id${localId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64),
    identifier: [
      { system: SOURCE?.localIdentifierSystem ?? 'urn:x', value: localId },
      { system: NATIONAL_ID_SYSTEM, value: CANARY.national },
    ],
    name: [{ use: 'official', family: CANARY.family, given: [CANARY.given] }],
    gender: 'female',
    birthDate: '1977-07-07',
    address: [{ use: 'home', line: [CANARY.line], city: CANARY.city, postalCode: 'VX1 2CN' }],
    telecom: [
      { system: 'phone', value: CANARY.phone },
      { system: 'email', value: CANARY.email },
    ],
    ...extra,
  };
}

function cli(args: readonly string[]): { status: number | null; stdout: string; out: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MPI_TENANT: '', MPI_DB: '' },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}\n${r.stderr}` };
}

function leaked(text: string): string[] {
  const lower = text.toLowerCase();
  return NEEDLES.filter((n) => lower.includes(n.toLowerCase()));
}

describe('patient-data canaries in ingestion', () => {
  it('appear in no CLI output, rejection report, audit row, job row or review evidence', async () => {
    const dir = tempDir();
    const db = join(dir, 's.db');
    const base = ['--db', db, '--tenant', 'canary'];
    expect((await runCli([...base, 'sandbox', 'init', '--synthetic', '50'])).code).toBe(0);

    const good = JSON.stringify(person(CANARY.mrn));
    const lines = [
      good,
      // The same person again from another record: a trusted-identifier link (auto) and canonical rebuild.
      JSON.stringify(person(`${CANARY.mrn}-B`, { meta: { lastUpdated: '2024-01-01T00:00:00Z' } })),
      // A near-duplicate without the national ID (one birth-date digit, another address and postcode, no city,
      // phone or e-mail): probable, so a review case with evidence.
      JSON.stringify(
        person(`${CANARY.mrn}-C`, {
          identifier: [{ system: SOURCE.localIdentifierSystem, value: `${CANARY.mrn}-C` }],
          birthDate: '1977-07-17',
          address: [{ use: 'home', line: ['1 Other Street'], postalCode: 'ZZ9 9ZZ' }],
          telecom: [],
        }),
      ),
      JSON.stringify(
        person(`${CANARY.mrn}-D`, { name: [{ family: `${CANARY.family}\u0007`, given: [CANARY.given] }] }),
      ),
      JSON.stringify(
        person(`${CANARY.mrn}-E`, {
          [CANARY.key]: CANARY.given,
          contact: [{ [CANARY.family]: `${CANARY.city}\u0001` }],
        }),
      ),
      good.slice(0, good.indexOf(CANARY.city) + 4),
      JSON.stringify(person(`${CANARY.mrn}${'7'.repeat(200)}`)),
      JSON.stringify(person(`${CANARY.mrn}-F`, { birthDate: `${CANARY.given}-01` })),
      JSON.stringify(person(`${CANARY.mrn}-G`)).replace(CANARY.given, `${CANARY.given}\\udc00`),
      JSON.stringify(person(`${CANARY.mrn}-H`, { gender: CANARY.family, telecom: CANARY.phone })),
      JSON.stringify(
        person(`${CANARY.mrn}-I`, { name: [{ family: CANARY.family.repeat(400), given: [CANARY.given] }] }),
      ),
    ];
    const file = join(dir, 'canary.ndjson');
    // Line 12: invalid UTF-8 inside a canary value.
    const invalid = JSON.stringify(person(`${CANARY.mrn}-J`));
    const cut = invalid.indexOf(CANARY.line) + 3;
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(lines.join('\n') + '\n' + invalid.slice(0, cut)),
        Buffer.of(0xc3, 0x28),
        Buffer.from(invalid.slice(cut) + '\n'),
      ]),
    );

    const text = cli([...base, 'ingest', '--source', SOURCE.sourceSystem, '--ndjson', file]);
    const json = cli([...base, 'ingest', '--source', SOURCE.sourceSystem, '--ndjson', file, '--json']);
    expect([text.status, json.status]).toEqual([1, 1]);
    expect(text.stdout).toMatch(/auto-linked\s+1\n/);
    expect(text.stdout).toMatch(/review cases created\s+[1-9]/);
    const outputs = [text.out, json.out];
    // The second run replays lines 1-3 and rejects the same lines as the first.
    const report = JSON.parse(json.stdout) as { unchanged: number; rejected: { line: number }[] };
    expect(report.unchanged).toBe(3);
    expect(report.rejected.map((r) => r.line)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // An unknown source, a missing file: errors name the input, not patient values.
    outputs.push(cli([...base, 'ingest', '--source', 'nowhere', '--ndjson', file]).out);
    const reviews = await runCli([...base, 'reviews']);
    outputs.push(reviews.stdout, reviews.stderr);
    for (const output of outputs) expect(leaked(output), output).toEqual([]);

    const store = Store.open(db, { readonly: true });
    try {
      const rows = [
        ...store.statement('SELECT * FROM audit_record').all(),
        ...store.statement('SELECT * FROM maintenance_job').all(),
        ...store.statement('SELECT case_id, kind, evidence_json, decision FROM review_case').all(),
        ...store.statement('SELECT rule_name, key_version FROM blocking_tag').all(),
      ];
      expect(leaked(JSON.stringify(rows))).toEqual([]);
      // The canaries did reach the registry: the test searched where they could have leaked.
      const stored = store
        .statement("SELECT COUNT(*) FROM source_record WHERE local_id LIKE 'MRN-CANARY-4471%'")
        .pluck()
        .get();
      expect(stored).toBe(3);
      expect(store.statement("SELECT COUNT(*) FROM review_case WHERE tenant_id = 'canary'").pluck().get()).not.toBe(0);
    } finally {
      store.close();
    }
  });
});
