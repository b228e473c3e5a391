/**
 * Loads FEBRL files into a tenant (one source system per file) and measures population quality. Used by the
 * FEBRL test, the bench and the assurance checks.
 */
import type { LocalEngine } from '../local-engine.ts';
import type { CallContext } from '../contract/operations.ts';
import type { IngestReport } from '../contract/ingest.ts';
import { createTenant } from '../operations/sandbox.ts';
import { ingestStream } from '../operations/ingest.ts';
import { defaultProfile } from '../profile/default-profile.ts';
import type { BlockingRule, MatchingProfile } from '../contract/profile.ts';
import { readFebrl } from './febrl.ts';
import { insertTruth } from '../store/assurance.ts';
import { populationQuality, refKey, type PopulationQuality } from './population-quality.ts';

export interface FebrlSource {
  readonly sourceSystem: string;
  readonly path: string;
}

/**
 * Extra blocking rules for FEBRL, whose duplicates carry several corruptions at once (swapped given and
 * family names, a wrong birth year, a mistyped postcode): with the default rules 91 of FEBRL 3's 6,523 true
 * pairs (and 11 of FEBRL 4's 4,998) share no blocking key; with these, 14 (and 1). Candidate pairs grow
 * from 7,266 to 8,476 (FEBRL 3) and 8,411 to 13,434 (FEBRL 4).
 */
export const FEBRL_EXTRA_BLOCKING_RULES: readonly BlockingRule[] = [
  { Name: 'birth-date', Parts: [{ Field: 'birthDate', Transform: 'Exact' }] },
  { Name: 'given-phonetic-postcode', Parts: [{ Field: 'givenName', Transform: 'Phonetic' }, { Field: 'postalCode', Transform: 'Exact' }] },
  { Name: 'family-phonetic-city', Parts: [{ Field: 'familyName', Transform: 'Phonetic' }, { Field: 'city', Transform: 'Exact' }] },
  { Name: 'given-phonetic-city', Parts: [{ Field: 'givenName', Transform: 'Phonetic' }, { Field: 'city', Transform: 'Exact' }] },
  { Name: 'postcode-city', Parts: [{ Field: 'postalCode', Transform: 'Exact' }, { Field: 'city', Transform: 'Exact' }] },
  { Name: 'given-prefix-birth-year', Parts: [{ Field: 'givenName', Transform: 'Prefix3' }, { Field: 'birthDate', Transform: 'Year' }] },
];

export function febrlProfile(sources: readonly FebrlSource[]): MatchingProfile {
  const profile = defaultProfile(sources.map((s) => ({ SourceSystem: s.sourceSystem })));
  return { ...profile, Blocking: { ...profile.Blocking, Rules: [...profile.Blocking.Rules, ...FEBRL_EXTRA_BLOCKING_RULES] } };
}

export interface FebrlLoad {
  readonly truth: Map<string, string>;
  readonly reports: IngestReport[];
}

/** Creates the tenant (with the given profile, default: febrlProfile) and ingests the files in order. */
export async function loadFebrl(engine: LocalEngine, ctx: CallContext, sources: readonly FebrlSource[], profile: unknown = febrlProfile(sources)): Promise<FebrlLoad> {
  createTenant(engine.env, ctx, profile);
  const truth = new Map<string, string>();
  const reports: IngestReport[] = [];
  for (const source of sources) {
    const records = readFebrl(source.path);
    for (const r of records) truth.set(refKey(source.sourceSystem, r.recId), r.entity);
    reports.push(await ingestStream(engine.env, ctx, source.sourceSystem, records.map((r) => JSON.stringify(r.patient)).join('\n')));
    // Kept as the tenant's ground truth (FEBRL people are synthetic), so `labels sample` works on it too.
    engine.env.store.write(() => {
      insertTruth(engine.env.store, ctx.tenantId, records.map((r) => ({ sourceSystem: source.sourceSystem, localId: r.recId, personId: r.entity })));
    });
  }
  return { truth, reports };
}

export async function febrlQuality(engine: LocalEngine, ctx: CallContext, truth: ReadonlyMap<string, string>): Promise<PopulationQuality> {
  return populationQuality(engine, ctx, truth);
}
