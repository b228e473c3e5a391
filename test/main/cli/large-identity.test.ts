/**
 * A review case about an identity of more records than a case carries (RECORDS_SHOWN): one patient registered
 * afresh at every visit (test/helpers/repeated-patient.ts), 130 times by one source, becomes one identity that the
 * link-quality scan flags. The case's detail carries the oldest 100 records and says how many there are; the CLI (and
 * the case page, through the same words) says "130 records (the case compares its oldest 100)", never "100 records".
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { repeatedPatient } from '../../helpers/repeated-patient.ts';
import { runCli } from '../../helpers/cli.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { identityRecordsText, RECORDS_SHOWN } from '../../../engine/contract/reviews.ts';

const PLACEHOLDERS = 130;

describe('a review case about a very large identity', () => {
  it('says how many records the identity holds, not how many the case carries', async () => {
    const dir = tempDir();
    const db = join(dir, 'registry.db');
    const args = ['--db', db, '--tenant', 't'];
    expect((await runCli([...args, 'sandbox', 'init'])).code).toBe(0);
    const file = join(dir, 'repeated.ndjson');
    writeFileSync(file, repeatedPatient(PLACEHOLDERS));
    expect((await runCli([...args, 'ingest', '--source', 'st-marys-hospital', '--ndjson', file])).code).toBe(0);
    expect((await runCli([...args, 'link-quality', 'scan'])).code).toBe(0);
    const caseId = (await runCli([...args, 'reviews', '--kind', 'LinkQuality'])).stdout.split('\n')[1]?.split('\t')[0];
    if (caseId === undefined || caseId === '') throw new Error('the scan opened no case');

    const engine = LocalEngine.open({ dbPath: db });
    try {
      const detail = await engine.call('reviews/get', { caseId }, { tenantId: 't', actor: 'test' });
      expect(detail.left.records).toHaveLength(RECORDS_SHOWN);
      expect(detail.left.recordCount).toBe(PLACEHOLDERS);
      expect(detail.flags).toContain('too-large');
    } finally {
      engine.close();
    }
    const shown = await runCli([...args, 'review', 'show', caseId]);
    expect(shown.stdout).toMatch(/\nleft +[0-9a-f-]{36} v\d+: 130 records \(the case compares its oldest 100\)\n/);
  });

  it('counts an identity within the bound as it is, and a detail from an older registry by its records', () => {
    expect(identityRecordsText({ records: [1], recordCount: 1 })).toBe('1 record');
    expect(identityRecordsText({ records: [1, 2, 3] })).toBe('3 records');
    expect(identityRecordsText({ records: [1, 2], recordCount: 1_250 })).toBe(
      '1,250 records (the case compares its oldest 2)',
    );
  });
});
