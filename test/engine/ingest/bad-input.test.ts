import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient, tableCounts } from '../../helpers/registry.ts';
import { EngineError } from '../../../engine/contract/errors.ts';

const SECRET_NAME = 'Quillfeather';

describe('bad input', () => {
  it('rejects each bad line with its line number and field, keeps the good lines (and valid ones with warnings), writes nothing for the bad ones', async () => {
    const engine = openRegistry(tempDir());
    const lines = [
      JSON.stringify(patient({ id: 'good1', mrn: 'G1', family: SECRET_NAME })),
      `{"resourceType":"Patient","name":[{"family":"${SECRET_NAME}"`, // malformed JSON
      JSON.stringify({ ...patient({ id: 'noname', mrn: 'B2' }), name: [{ use: 'official', family: ' ' }] }),
      JSON.stringify({ ...patient({ id: 'nodate', mrn: 'B3', family: SECRET_NAME }), birthDate: '1980-02-30' }),
      JSON.stringify(patient({ id: 'ctrl', mrn: 'B4', family: `${SECRET_NAME}\u0007` })),
      JSON.stringify({ ...patient({ id: 'big', mrn: 'B5' }), note: 'x'.repeat(1024 * 1024 + 10) }),
      JSON.stringify({ resourceType: 'Observation', id: 'o1' }),
      JSON.stringify({ ...patient({ id: 'noid' }), id: undefined }),
      '',
      JSON.stringify(patient({ id: 'good2', mrn: 'G2', family: 'Other', given: ['Person'], birthDate: '1950-05-05' })),
    ];
    const report = await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: lines.join('\n') }, ctx());
    // A blank name and an impossible birth date are valid R4: accepted (the date with a warning), not rejected.
    expect(report.created).toBe(4);
    const byLine = new Map(report.rejected.map((r) => [r.line, r.issues]));
    expect([...byLine.keys()]).toEqual([2, 5, 6, 7, 8]);
    expect(report.warnings).toEqual([
      { line: 4, issues: [{ path: 'birthDate', message: 'is not a real calendar date; ignored for matching' }] },
    ]);
    expect(byLine.get(2)?.[0]).toMatchObject({ path: 'line', message: 'not valid JSON' });
    expect(byLine.get(5)?.some((i) => i.path.includes('name[0].family'))).toBe(true);
    expect(byLine.get(6)?.[0]?.message).toMatch(/exceeds/);
    expect(byLine.get(7)?.some((i) => i.path.includes('resourceType'))).toBe(true);
    expect(byLine.get(8)?.some((i) => i.path.includes('identifier'))).toBe(true);
    expect(JSON.stringify(report)).not.toContain(SECRET_NAME);
    const stored = engine.env.store.statement('SELECT local_id FROM source_record ORDER BY local_id').pluck().all();
    expect(stored).toEqual(['B2', 'B3', 'G1', 'G2']);
    engine.close();
  });

  it('refuses an unknown tenant and an unknown source without writing', async () => {
    const engine = openRegistry(tempDir());
    const before = tableCounts(engine);
    await expect(
      engine.call(
        'records/ingest',
        { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'a', mrn: 'A' })) },
        ctx('nobody'),
      ),
    ).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('tenant "nobody"') as unknown,
    });
    await expect(
      engine.call('records/ingest', { sourceSystem: 'laboratory', ndjson: ndjson(patient({ id: 'a' })) }, ctx()),
    ).rejects.toMatchObject({
      kind: 'validation',
      message: expect.stringContaining('"laboratory"') as unknown,
    });
    expect(tableCounts(engine)).toEqual(before);
    engine.close();
  });

  it('rejects an invalid tenant ID and invalid operation input with a validation error', async () => {
    const engine = openRegistry(tempDir());
    await expect(engine.call('identities/list', { limit: 10, offset: 0 }, ctx('bad tenant!'))).rejects.toBeInstanceOf(
      EngineError,
    );
    await expect(engine.call('identities/list', { limit: -1, offset: 0 }, ctx())).rejects.toMatchObject({
      kind: 'validation',
    });
    engine.close();
  });

  it('explains that a record does not exist without echoing its local identifier', async () => {
    const engine = openRegistry(tempDir());
    const error: unknown = await engine
      .call(
        'matching/explain',
        {
          left: { sourceSystem: 'hospital', localId: 'MRN-SECRET-1' },
          right: { sourceSystem: 'clinic', localId: 'x' },
        },
        ctx(),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'not_found' });
    expect((error as Error).message).not.toContain('MRN-SECRET-1');
    engine.close();
  });
});
