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
import type { MatchingProfile } from '../contract/profile.ts';
import { FEBRL_SSN_SYSTEM, readFebrl } from './febrl.ts';
import { insertTruth } from '../store/assurance.ts';
import { populationQuality, refKey, type PopulationQuality } from './population-quality.ts';

export interface FebrlSource {
  readonly sourceSystem: string;
  readonly path: string;
  /** Keeps part of each Patient (e.g. names and birth date only, to measure matching on sparse data). */
  readonly project?: (patient: Record<string, unknown>) => Record<string, unknown>;
}

/** Names and birth date only: the other columns dropped. */
export function namesAndBirthDate(patient: Record<string, unknown>): Record<string, unknown> {
  const { resourceType, id, name, birthDate } = patient;
  return { resourceType, id, name, ...(birthDate === undefined ? {} : { birthDate }) };
}

/**
 * One record in ten (chosen by a hash of its id, so the same records every run) with its given name cut to its
 * initial ("J" for "John"), as a laboratory or an older system keeps it: to measure what initials cost in links and
 * review cases.
 */
export function initialsOnOneInTen(patient: Record<string, unknown>): Record<string, unknown> {
  const names = patient.name as { given?: string[] }[] | undefined;
  const given = names?.[0]?.given?.[0];
  if (given === undefined || given.length < 2 || fnv1a(String(patient.id)) % 10 !== 0) return patient;
  return { ...patient, name: [{ ...names?.[0], given: [given.charAt(0)] }] };
}

/** FNV-1a over the string's UTF-16 code units: a fixed, well-spread choice of records. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * The profile FEBRL loads under: the default profile (whose blocking rules already pair names with dates,
 * postcodes and cities, so a true pair with several corrupted fields still shares a key) with one source
 * per file, and the social-security number named personal (PersonalIdentifierSystems): one person's number,
 * never a family's, though not trusted to decide alone (the generator corrupts it like any field).
 */
export function febrlProfile(sources: readonly FebrlSource[]): MatchingProfile {
  return {
    ...defaultProfile(sources.map((s) => ({ SourceSystem: s.sourceSystem }))),
    PersonalIdentifierSystems: [FEBRL_SSN_SYSTEM],
  };
}

export interface FebrlLoad {
  readonly truth: Map<string, string>;
  readonly reports: IngestReport[];
}

/** Creates the tenant (with the given profile, default: febrlProfile) and ingests the files in order. */
export async function loadFebrl(
  engine: LocalEngine,
  ctx: CallContext,
  sources: readonly FebrlSource[],
  profile: unknown = febrlProfile(sources),
): Promise<FebrlLoad> {
  createTenant(engine.env, ctx, profile);
  const truth = new Map<string, string>();
  const reports: IngestReport[] = [];
  for (const source of sources) {
    const records = readFebrl(source.path);
    for (const r of records) truth.set(refKey(source.sourceSystem, r.recId), r.entity);
    const project = source.project ?? ((patient: Record<string, unknown>) => patient);
    reports.push(
      await ingestStream(
        engine.env,
        ctx,
        source.sourceSystem,
        records.map((r) => JSON.stringify(project(r.patient))).join('\n'),
      ),
    );
    // Kept as the tenant's ground truth (FEBRL people are synthetic), so `labels sample` works on it too.
    engine.env.store.write(() => {
      insertTruth(
        engine.env.store,
        ctx.tenantId,
        records.map((r) => ({ sourceSystem: source.sourceSystem, localId: r.recId, personId: r.entity })),
      );
    });
  }
  return { truth, reports };
}

export async function febrlQuality(
  engine: LocalEngine,
  ctx: CallContext,
  truth: ReadonlyMap<string, string>,
): Promise<PopulationQuality> {
  return populationQuality(engine, ctx, truth);
}
