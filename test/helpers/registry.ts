import { join } from 'node:path';
import { expect } from 'vitest';
import { LocalEngine } from '../../engine/local-engine.ts';
import { createTenant } from '../../engine/operations/sandbox.ts';
import { defaultProfile } from '../../engine/profile/default-profile.ts';
import type { CallContext } from '../../engine/contract/operations.ts';
import type { MatchingProfile } from '../../engine/contract/profile.ts';
import type { IngestReport } from '../../engine/contract/ingest.ts';
import type { ReviewKind } from '../../engine/contract/reviews.ts';
import { reconcileMatching } from '../../engine/jobs/reconcile.ts';
import { keyRingFor } from '../../engine/config/key-ring.ts';
import { activeProfile } from '../../engine/store/profiles.ts';

export const MRN_SYSTEM = 'urn:test:hospital:mrn';
export const NHI_SYSTEM = 'urn:test:national-id';

/** Two sources: a hospital with a local identifier system (most trusted) and a clinic keyed by Patient.id. */
export function testProfile(): MatchingProfile {
  return {
    ...defaultProfile([{ SourceSystem: 'hospital', LocalIdentifierSystem: MRN_SYSTEM }, { SourceSystem: 'clinic' }]),
    TrustedIdentifierSystems: [NHI_SYSTEM],
  };
}

export function openRegistry(
  dir: string,
  tenants: readonly string[] = ['t1'],
  profile: MatchingProfile = testProfile(),
): LocalEngine {
  const engine = LocalEngine.open({ dbPath: join(dir, 'registry.db') });
  for (const tenantId of tenants) createTenant(engine.env, ctx(tenantId), profile);
  return engine;
}

export function ctx(tenantId = 't1'): CallContext {
  return { tenantId, actor: 'test' };
}

export interface PersonSpec {
  readonly id: string;
  readonly mrn?: string;
  readonly family?: string;
  readonly given?: readonly string[];
  readonly birthDate?: string;
  readonly gender?: string;
  readonly line?: string;
  readonly city?: string;
  readonly postalCode?: string;
  readonly phone?: string;
  readonly nhi?: string;
  readonly lastUpdated?: string;
}

export function patient(p: PersonSpec): Record<string, unknown> {
  const identifier: Record<string, string>[] = [];
  if (p.mrn !== undefined) identifier.push({ system: MRN_SYSTEM, value: p.mrn });
  if (p.nhi !== undefined) identifier.push({ system: NHI_SYSTEM, value: p.nhi });
  return {
    resourceType: 'Patient',
    id: p.id,
    ...(p.lastUpdated === undefined ? {} : { meta: { lastUpdated: p.lastUpdated } }),
    ...(identifier.length === 0 ? {} : { identifier }),
    name: [{ use: 'official', family: p.family ?? 'Fairweather', given: [...(p.given ?? ['Annabel'])] }],
    gender: p.gender ?? 'female',
    birthDate: p.birthDate ?? '1984-03-17',
    address: [
      {
        use: 'home',
        line: [p.line ?? '12 Harbour Road'],
        city: p.city ?? 'Portsmouth',
        postalCode: p.postalCode ?? 'PO1 3AX',
      },
    ],
    telecom: [{ system: 'phone', value: p.phone ?? '023 9200 1122' }],
  };
}

/**
 * The default person's record with both names misspelt, moved house and no phone: Probable against the default
 * person's record under the test profile, not Certain (so ingestion opens a review case about the pair).
 */
export function movedAway(id: string): Record<string, unknown> {
  return {
    ...patient({
      id,
      given: ['Anabel'],
      family: 'Fairwether',
      line: '9 Ocean Drive',
      city: 'Brighton',
      postalCode: 'BN2 1TT',
    }),
    telecom: [],
  };
}

/**
 * A registry (openRegistry) where the default person's record came from the hospital and its moved-away record from
 * the clinic: one open review case about their two identities, whose IDs come back beside the engine.
 */
export async function registryWithOneCase(dir: string): Promise<{ engine: LocalEngine; left: number; right: number }> {
  const engine = openRegistry(dir);
  await engine.call(
    'records/ingest',
    { sourceSystem: 'hospital', ndjson: ndjson(patient({ id: 'h1', mrn: 'A1' })) },
    ctx(),
  );
  await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(movedAway('c-moved')) }, ctx());
  const [left, right] = engine.env.store
    .statement("SELECT left_identity_id, right_identity_id FROM review_case WHERE tenant_id = 't1'")
    .raw()
    .get() as [number, number];
  return { engine, left, right };
}

/**
 * John Smith of 4 Elm Street, born on the date given, or without a birth date (as a laboratory may send him): a father
 * and son of one name at one home, whom their birth dates alone tell apart.
 */
export function johnSmith(id: string, birthDate?: string): Record<string, unknown> {
  const base = { id, family: 'Smith', given: ['John'], gender: 'male', line: '4 Elm Street', postalCode: 'PO2 1AA' };
  const record = patient(birthDate === undefined ? base : { ...base, birthDate });
  if (birthDate === undefined) delete record.birthDate;
  return record;
}

/**
 * johnSmith's record under the initial alone ("J. Smith"), at his home, or with `moved` at 9 Ocean Drive, Southsea,
 * with no phone: an initial beside a name of its letter.
 */
export function jSmith(id: string, birthDate?: string, moved = false): Record<string, unknown> {
  return {
    ...johnSmith(id, birthDate),
    name: [{ use: 'official', family: 'Smith', given: ['J.'] }],
    ...(moved
      ? {
          address: [{ use: 'home', line: ['9 Ocean Drive'], city: 'Southsea', postalCode: 'PO5 2QQ' }],
          telecom: [],
        }
      : {}),
  };
}

/** The record with no sex recorded. */
export function withoutSex(record: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...record };
  delete rest.gender;
  return rest;
}

/** Ingests each resource on its own, in order, from the clinic; the last ingestion's report. */
export async function ingestEach(
  engine: LocalEngine,
  ...resources: readonly Record<string, unknown>[]
): Promise<IngestReport | undefined> {
  let last: IngestReport | undefined;
  for (const resource of resources)
    last = await engine.call('records/ingest', { sourceSystem: 'clinic', ndjson: ndjson(resource) }, ctx());
  return last;
}

/** The tenant's local identifiers grouped by identity, each group sorted, the groups in order of their first member. */
export async function identityGroups(engine: LocalEngine): Promise<string[][]> {
  const { rows } = await engine.call('identities/list', { limit: 100, offset: 0 }, ctx());
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(row.enterpriseId, [...(groups.get(row.enterpriseId) ?? []), row.localId]);
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/**
 * The tenant's open review cases (of one kind, or every kind): each one's hold, score, held-from score and decision, and
 * the local IDs of its best record pair, sorted.
 */
export async function openCases(engine: LocalEngine, kind?: ReviewKind): Promise<Record<string, unknown>[]> {
  const { rows } = await engine.call('reviews/list', kind === undefined ? {} : { kind }, ctx());
  return Promise.all(
    rows.map(async (row) => {
      const detail = await engine.call('reviews/get', { caseId: row.caseId }, ctx());
      const pair = [detail.bestPair?.left.localId, detail.bestPair?.right.localId].sort();
      return { limitedBy: row.limitedBy, score: row.score, heldFrom: row.heldFrom, decision: row.decision, pair };
    }),
  );
}

/**
 * An open case (as openCases gives it) about the pair of local IDs, held at the test profile's Probable threshold by
 * the rule named, from a score that rounds to 1 (a Certain pair's).
 */
export function heldCase(limitedBy: string, pair: readonly string[]): Record<string, unknown> {
  return {
    limitedBy,
    score: testProfile().MatchingRules.Thresholds.Probable,
    heldFrom: expect.closeTo(1, 2) as unknown,
    decision: 'probable',
    pair,
  };
}

/** Runs a reconciliation's matching phase over tenant t1 to its end, 25 identities a batch, as its job runs it. */
export function reconcileMatchingToEnd(engine: LocalEngine): void {
  const { store } = engine.env;
  const profile = activeProfile(store, 't1');
  const ring = keyRingFor(profile.profile.Blocking, engine.env.settings(), 't1');
  const work = reconcileMatching({ store, tenantId: 't1', jobId: 'reconcile', profile, ring });
  for (let cursor = 0; ;) {
    const plan = store.read(() => work.readBatch(cursor, 25));
    if (plan === null) break;
    store.write(() => plan.write(new Date().toISOString(), false));
    cursor = plan.lastIdentityId;
  }
}

export function ndjson(...resources: readonly unknown[]): string {
  return resources.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** Row counts of every registry table for one tenant: a cheap "nothing was written" check. */
export function tableCounts(engine: LocalEngine, tenantId = 't1'): Record<string, number> {
  const tables = [
    'source_record',
    'source_resource',
    'identity',
    'identity_link',
    'blocking_tag',
    'review_case',
    'ingestion_receipt',
    'audit_record',
  ];
  return Object.fromEntries(
    tables.map((t) => [
      t,
      (engine.env.store.statement(`SELECT COUNT(*) AS n FROM ${t} WHERE tenant_id = ?`).get(tenantId) as { n: number })
        .n,
    ]),
  );
}
