/**
 * An update that leaves its record apart from the rest of its identity. A source corrects a registration made under
 * the wrong patient, or reuses a medical record number for another person, and sends the record again with another
 * person's name, sex, birth date and address. The record stays linked where it was, as every update does (unlinking
 * is a reviewer's decision), but the identity now may hold two people: it becomes a LinkQuality review case, named
 * with the source whose update it was. Before, it stayed so silently.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import type { LocalEngine } from '../../../engine/local-engine.ts';

const HOSPITAL = patient({
  id: 'h1',
  mrn: 'H1',
  given: ['James'],
  family: 'Okafor',
  gender: 'male',
  birthDate: '1970-04-05',
});
const CLINIC = { ...HOSPITAL, id: 'c1', identifier: [] };

/** Another person, sent by the clinic under the same local identifier. */
const OTHER_PERSON = patient({
  id: 'c1',
  given: ['Maria'],
  family: 'Lindqvist',
  gender: 'female',
  birthDate: '1950-09-21',
  line: '9 Elm Street',
  city: 'Leeds',
  postalCode: 'LS1 4AP',
  phone: '0113 496 0000',
});

async function linkedPair(): Promise<LocalEngine> {
  const engine = openRegistry(tempDir());
  await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: ndjson(HOSPITAL) }, ctx());
  const clinic = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(CLINIC) }, ctx());
  expect(clinic).toMatchObject({ created: 1, autoLinked: 1 });
  return engine;
}

const enterpriseIds = async (engine: LocalEngine): Promise<Set<string>> =>
  new Set((await engine.call('identities/list', { limit: 10, offset: 0 }, ctx())).rows.map((r) => r.enterpriseId));

describe('an update that leaves its record apart from its identity', () => {
  it('keeps the link and opens a LinkQuality review case naming the source', async () => {
    const engine = await linkedPair();
    const update = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(OTHER_PERSON) }, ctx());
    expect(update).toMatchObject({ updated: 1, created: 0, reviewCasesCreated: 1, rejected: [] });
    // Counted as what it is: an identity whose own records may be two people, not a pair no rule held.
    expect(update.reviewHolds).toEqual({ 'link-quality': 1 });
    // The new records' rate is untouched: no new record was matched.
    expect(update.reviewRate).toEqual({ reviewCases: 0, matched: 0, perThousand: null });
    expect((await enterpriseIds(engine)).size).toBe(1);
    const { rows } = await engine.call('reviews/list', { status: 'open', limit: 10, offset: 0 }, ctx());
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ kind: 'LinkQuality', sourceSystem: 'clinic', decision: 'probable' });
    expect(row?.leftEnterpriseId).toBe(row?.rightEnterpriseId);
    expect(row?.score).toBeLessThan(0.5);
    const detail = await engine.call('reviews/get', { caseId: row?.caseId ?? '' }, ctx());
    expect(detail.flags).toEqual(expect.arrayContaining(['weak-bridge']));
    expect(detail.left.recordCount).toBe(2);
    // Sent again, the same version changes nothing and opens nothing.
    const replay = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(OTHER_PERSON) }, ctx());
    expect(replay).toMatchObject({ unchanged: 1, reviewCasesCreated: 0 });
    expect(replay.reviewHolds).toEqual({});
    engine.close();
  });

  it('opens nothing for an update that still matches, or for a record alone in its identity', async () => {
    const engine = await linkedPair();
    const moved = { ...CLINIC, telecom: [{ system: 'phone', value: '023 9200 9999' }], birthDate: '1970-04-06' };
    const update = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(moved) }, ctx());
    expect(update).toMatchObject({ updated: 1, reviewCasesCreated: 0 });
    const alone = patient({ id: 'c2', given: ['Ines'], family: 'Sato', birthDate: '1991-01-30', line: '3 Mill Lane' });
    await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(alone) }, ctx());
    const renamed = { ...alone, name: [{ use: 'official', family: 'Tanaka', given: ['Yuki'] }] };
    const second = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(renamed) }, ctx());
    expect(second).toMatchObject({ updated: 1, reviewCasesCreated: 0 });
    const { total } = await engine.call('reviews/list', { status: 'all', limit: 10, offset: 0 }, ctx());
    expect(total).toBe(0);
    engine.close();
  });
});
