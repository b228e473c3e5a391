import { describe, expect, it } from 'vitest';
import { compareInstants, parseInstant } from '../../../engine/fhir/instant.ts';
import { survivorOrder } from '../../../engine/ingest/survivorship.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';

describe('FHIR instants compared as instants, not text', () => {
  it('orders by the moment named: offsets and up to 9 fractional digits', () => {
    const cases: [string, string, -1 | 0 | 1][] = [
      ['2024-05-01T10:00:00+05:00', '2024-05-01T06:00:00Z', -1],
      ['2024-05-01T06:00:00Z', '2024-05-01T06:00:00.500Z', -1],
      ['2024-05-01T06:00:00.5Z', '2024-05-01T06:00:00.500000000Z', 0],
      ['2024-05-01T11:00:00.5+05:00', '2024-05-01T06:00:00.500Z', 0],
      ['2024-05-01T06:00:00.499999999Z', '2024-05-01T06:00:00.5Z', -1],
      ['2024-05-01T06:00:00.000000001Z', '2024-05-01T06:00:00Z', 1],
      ['2024-05-01T00:30:00-01:00', '2024-05-01T01:00:00Z', 1],
      ['2024-01-01T00:00:00+14:00', '2023-12-31T10:00:00Z', 0],
      ['0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z', -1],
      ['0099-12-31T23:59:59Z', '0100-01-01T00:00:00Z', -1],
      ['9999-12-31T23:59:59.999999999Z', '9999-12-31T23:59:59.999999998Z', 1],
    ];
    for (const [a, b, expected] of cases) {
      expect(compareInstants(a, b), `${a} vs ${b}`).toBe(expected);
      expect(compareInstants(b, a), `${b} vs ${a}`).toBe(-expected || 0);
    }
    expect(parseInstant('2024-05-01T06:00:00')).toBeUndefined();
    expect(parseInstant('not an instant')).toBeUndefined();
  });

  it('survivorship takes the most recent record by instant', () => {
    const record = (recordId: number, sourceLastUpdated: string) => ({
      recordId,
      sourceSystem: 'hospital',
      localId: `r${String(recordId)}`,
      fields: SAMPLE_FIELDS,
      sourceLastUpdated,
    });
    const ordered = survivorOrder(
      [record(1, '2024-05-01T10:00:00+05:00'), record(2, '2024-05-01T06:00:00Z'), record(3, '2024-05-01T06:00:00.5Z')],
      ['hospital'],
    );
    expect(ordered.map((r) => r.recordId)).toEqual([3, 2, 1]);
  });

  it('ingestion keeps a newer version written with another offset or with fractional seconds, and skips an older one', async () => {
    const engine = openRegistry(tempDir());
    const version = (lastUpdated: string, phone: string) =>
      ndjson(patient({ id: 'h1', mrn: 'A1', lastUpdated, phone }));
    const ingest = (text: string) => engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: text }, ctx());
    expect(await ingest(version('2024-05-01T10:00:00+05:00', '01000 000001'))).toMatchObject({ created: 1 });
    expect(await ingest(version('2024-05-01T06:00:00Z', '01000 000002'))).toMatchObject({ updated: 1, stale: 0 });
    expect(await ingest(version('2024-05-01T06:00:00.500Z', '01000 000003'))).toMatchObject({ updated: 1, stale: 0 });
    // The same instant written differently is not older.
    expect(await ingest(version('2024-05-01T11:00:00.5+05:00', '01000 000004'))).toMatchObject({
      updated: 1,
      stale: 0,
    });
    expect(await ingest(version('2024-05-01T06:00:00.499999999Z', '01000 000005'))).toMatchObject({
      updated: 0,
      stale: 1,
    });
    expect(await ingest(version('2024-05-01T10:59:59+05:00', '01000 000006'))).toMatchObject({ updated: 0, stale: 1 });
    const phone = engine.env.store
      .statement("SELECT json_extract(fields_json, '$.phone') FROM source_record")
      .pluck()
      .get();
    expect(phone).toBe('1000000004');
    engine.close();
  });
});
