import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../helpers/temp.ts';
import { MRN_SYSTEM, ctx, openRegistry, patient, tableCounts } from '../../helpers/registry.ts';
import { CHUNK_LINES } from '../../../engine/ingest/ndjson.ts';
import { INGESTED_TEXT_LIMITS } from '../../../engine/contract/limits.ts';
import { validatePatient } from '../../../engine/fhir/patient.ts';
import { localIdentifierOf } from '../../../engine/fhir/local-id.ts';
import { SourceTrustEntrySchema } from '../../../engine/contract/profile.ts';
import { reviewCaseId } from '../../../engine/ingest/review-case-id.ts';

const MIGRATIONS = fileURLToPath(new URL('../../../engine/store/migrations/', import.meta.url));

/** The tables one ingested record writes to. */
const INGESTION_TABLES = [
  'source_record',
  'source_resource',
  'identity',
  'identity_link',
  'blocking_tag',
  'review_case',
  'ingestion_receipt',
  'audit_record',
];

/** Every `length(column) BETWEEN a AND b` and `length(column) <= b` CHECK in the migrations, by table. */
function schemaLengthChecks(): { table: string; column: string; min: number; max: number }[] {
  const out: { table: string; column: string; min: number; max: number }[] = [];
  for (const file of readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(`${MIGRATIONS}${file}`, 'utf8');
    for (const table of sql.split(/CREATE TABLE /).slice(1)) {
      const name = /^(\w+)/.exec(table)?.[1] ?? '';
      const body = table.split(/\n\)\s*STRICT/)[0] ?? '';
      for (const m of body.matchAll(/length\((\w+)\) BETWEEN (\d+) AND (\d+)/g))
        out.push({ table: name, column: m[1] ?? '', min: Number(m[2]), max: Number(m[3]) });
      for (const m of body.matchAll(/length\((\w+)\) <= (\d+)/g))
        out.push({ table: name, column: m[1] ?? '', min: 0, max: Number(m[2]) });
    }
  }
  return out;
}

/** A pronounceable name per number, so people differ phonetically too (blocks stay small, as in real data). */
function word(n: number): string {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  let out = '';
  for (let k = n + 1; k > 0; k = Math.floor(k / 70))
    out += `${consonants[k % 14] ?? ''}${vowels[Math.floor(k / 14) % 5] ?? ''}`;
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** A three-chunk file: every line a distinct person keyed by its MRN; `bad` replaces one line. */
function threeChunks(badLine: number, bad: Record<string, unknown>): string {
  const lines: string[] = [];
  for (let n = 1; n <= 2 * CHUNK_LINES + 200; n++) {
    const p = patient({
      id: `p${String(n)}`,
      mrn: `M${String(n)}`,
      family: `${word(n)}son`,
      given: [word(n * 7 + 3)],
      birthDate: `19${String(10 + (n % 80))}-0${String(1 + (n % 9))}-1${String(n % 9)}`,
      line: `${String(n)} Harbour Road`,
      postalCode: `PO${String(n)} 3AX`,
      phone: `023 ${String(10_000_000 + n)}`,
    });
    lines.push(JSON.stringify(n === badLine ? bad : p));
  }
  return lines.join('\n') + '\n';
}

describe('ingestion enforces every limit the schema enforces, and one record never aborts a run', () => {
  it('knows every length CHECK on the tables ingestion writes (a new CHECK must be added to INGESTED_TEXT_LIMITS and enforced)', () => {
    const checks = schemaLengthChecks().filter((c) => INGESTION_TABLES.includes(c.table));
    expect(checks.map((c) => `${c.table}.${c.column}`).sort()).toEqual(Object.keys(INGESTED_TEXT_LIMITS).sort());
    for (const check of checks)
      expect(INGESTED_TEXT_LIMITS[`${check.table}.${check.column}`]).toEqual({ min: check.min, max: check.max });
    // The generated values (enterprise IDs are random UUIDs, review case IDs digests) are within theirs.
    const caseId = reviewCaseId(
      't'.repeat(64),
      'PopulationReconciliation',
      { enterpriseId: randomUUID(), version: 1 },
      { enterpriseId: randomUUID(), version: 2 },
      1,
    );
    expect(caseId.length).toBeGreaterThanOrEqual(INGESTED_TEXT_LIMITS['review_case.case_id']?.min ?? Infinity);
    expect(caseId.length).toBeLessThanOrEqual(INGESTED_TEXT_LIMITS['review_case.case_id']?.max ?? 0);
    expect(randomUUID().length).toBeLessThanOrEqual(INGESTED_TEXT_LIMITS['identity.enterprise_id']?.max ?? 0);
  });

  it('rejects a local identifier over 200 characters on its field path, before any write', () => {
    const long = 'A'.repeat(201);
    const v = validatePatient({ ...patient({ id: 'x', mrn: long }) });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(localIdentifierOf(v.patient, MRN_SYSTEM)).toEqual({
      ok: false,
      issue: {
        path: 'identifier[0].value',
        message: 'the local identifier must be at most 200 characters (after trimming)',
      },
    });
    // 200 characters, counted as SQLite counts them (code points, not UTF-16 units), pass.
    const astral = '😀'.repeat(200);
    const w = validatePatient({ ...patient({ id: 'x', mrn: astral }) });
    expect(w.ok && localIdentifierOf(w.patient, MRN_SYSTEM)).toEqual({ ok: true, localId: astral });
    // A source system longer than the column allows cannot enter a profile.
    expect(SourceTrustEntrySchema.safeParse({ SourceSystem: 'a'.repeat(101) }).success).toBe(false);
    expect(SourceTrustEntrySchema.safeParse({ SourceSystem: 'a'.repeat(100) }).success).toBe(true);
  });

  it('a 201-character local identifier in the middle chunk of a three-chunk file is rejected by line and field; every other line is ingested', async () => {
    const engine = openRegistry(tempDir());
    const badLine = CHUNK_LINES + 300;
    const bad = patient({ id: 'bad', mrn: `${'Z'.repeat(199)}99`, family: 'Quillfeather' });
    const report = await engine.call(
      'records/ingest',
      { sourceSystem: 'hospital', ndjson: threeChunks(badLine, bad) },
      ctx(),
    );
    expect(report.lines).toBe(2 * CHUNK_LINES + 200);
    expect(report.rejected).toEqual([
      {
        line: badLine,
        issues: [
          {
            path: 'identifier[0].value',
            message: 'the local identifier must be at most 200 characters (after trimming)',
          },
        ],
      },
    ]);
    expect(report.created).toBe(2 * CHUNK_LINES + 199);
    expect(tableCounts(engine).source_record).toBe(2 * CHUNK_LINES + 199);
    engine.close();
  });

  it('a database error on one record, whatever its cause, rejects that record (line and `record`, no value) and the run goes on', async () => {
    const engine = openRegistry(tempDir());
    // A real SQLite refusal of one row that validation cannot foresee (as a future constraint or trigger would be).
    engine.env.store.exec(
      "CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON source_record WHEN NEW.local_id = 'M1500' BEGIN SELECT RAISE(ABORT, 'refused M1500'); END",
    );
    const report = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: threeChunks(0, {}) }, ctx());
    expect(report.rejected).toHaveLength(1);
    expect(report.rejected[0]?.line).toBe(1500);
    expect(report.rejected[0]?.issues).toEqual([
      {
        path: 'record',
        message: 'the database refused this record (SQLITE_CONSTRAINT_TRIGGER); nothing was written for it',
      },
    ]);
    expect(JSON.stringify(report)).not.toContain('M1500');
    expect(report.created).toBe(2 * CHUNK_LINES + 199);
    const stored = engine.env.store
      .statement("SELECT COUNT(*) FROM source_record WHERE local_id = 'M1500'")
      .pluck()
      .get();
    expect(stored).toBe(0);
    expect(tableCounts(engine).ingestion_receipt).toBe(2 * CHUNK_LINES + 199);
    engine.close();
  });
});
