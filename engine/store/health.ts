/** The health_sample table (migrations 0011, 0012, 0026): written after each ingest, each finished job and daily; read in time order. */
import type { Store } from './store.ts';
import { countReviewHolds, IDENTITY_SIZE_BINS, type HealthSample, type MatchingFigures } from '../contract/health.ts';
import type { ScoreLimit } from '../contract/matching.ts';
import type { ReviewKind } from '../contract/reviews.ts';

export function recordHealthSample(store: Store, tenantId: string, sample: HealthSample): void {
  store
    .statement(
      `INSERT INTO health_sample (tenant_id, at, origin, source_system, job_id, job_kind, job_status, profile_version, records, created, auto_linked,
         review_cases, rejected, field_present_json, duration_ms, matching_json, identity_sizes_json, review_holds_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      tenantId,
      sample.at,
      sample.origin,
      sample.sourceSystem,
      sample.jobId,
      sample.jobKind,
      sample.jobStatus,
      sample.profileVersion,
      sample.records,
      sample.created,
      sample.autoLinked,
      sample.reviewCases,
      sample.rejected,
      JSON.stringify(sample.fieldPresent),
      Math.max(0, Math.round(sample.durationMs)),
      sample.matching === null ? null : JSON.stringify(sample.matching),
      sample.identitySizes === null ? null : JSON.stringify(sample.identitySizes),
      sample.reviewHolds == null ? null : JSON.stringify(sample.reviewHolds),
    );
}

interface SampleRow extends Omit<HealthSample, 'fieldPresent' | 'matching' | 'identitySizes' | 'reviewHolds'> {
  readonly field_present_json: string;
  readonly matching_json: string | null;
  readonly identity_sizes_json: string | null;
  readonly review_holds_json: string | null;
  readonly sample_id: number;
}

/** The tenant's latest samples (optionally of one source), oldest first. */
export function healthSamples(
  store: Store,
  tenantId: string,
  sourceSystem: string | undefined,
  limit: number,
): HealthSample[] {
  const rows = store
    .statement(
      `SELECT * FROM (SELECT at, origin, source_system AS sourceSystem, job_id AS jobId, job_kind AS jobKind, job_status AS jobStatus,
         profile_version AS profileVersion, records, created, auto_linked AS autoLinked, review_cases AS reviewCases, rejected,
         field_present_json, duration_ms AS durationMs, matching_json, identity_sizes_json, review_holds_json, sample_id
       FROM health_sample WHERE tenant_id = ? ${sourceSystem === undefined ? '' : 'AND source_system = ?'} ORDER BY sample_id DESC LIMIT ?) AS newest ORDER BY sample_id`,
    )
    .all(...(sourceSystem === undefined ? [tenantId, limit] : [tenantId, sourceSystem, limit])) as SampleRow[];
  return rows.map(
    ({ field_present_json, matching_json, identity_sizes_json, review_holds_json, sample_id: _id, ...row }) => ({
      ...row,
      fieldPresent: JSON.parse(field_present_json) as Record<string, number>,
      matching: matching_json === null ? null : (JSON.parse(matching_json) as MatchingFigures),
      identitySizes: identity_sizes_json === null ? null : (JSON.parse(identity_sizes_json) as number[]),
      reviewHolds: review_holds_json === null ? null : (JSON.parse(review_holds_json) as Record<string, number>),
    }),
  );
}

/** Identities by record count (IDENTITY_SIZE_BINS: 1, 2, 3, 4, 5–9, 10+), from the links (one pass over its index). */
export function identitySizes(store: Store, tenantId: string): number[] {
  const rows = store
    .statement(
      'SELECT size, COUNT(*) AS identities FROM (SELECT COUNT(*) AS size FROM identity_link WHERE tenant_id = ? GROUP BY identity_id) AS sizes GROUP BY size',
    )
    .raw()
    .all(tenantId) as [number, number][];
  const bins: number[] = IDENTITY_SIZE_BINS.map(() => 0);
  for (const [size, identities] of rows) {
    const bin = size >= 10 ? 5 : size >= 5 ? 4 : size - 1;
    bins[bin] = (bins[bin] ?? 0) + identities;
  }
  return bins;
}

/**
 * The review cases a job opened, by what held them (contract/health.ts reviewHoldKey): read on review_case_by_job and
 * the job's case rows, once, when the job finishes.
 */
export function jobReviewHolds(store: Store, tenantId: string, jobId: string): Record<string, number> {
  const rows = store
    .statement(
      `SELECT kind, limited_by AS limitedBy, count(*) AS cases FROM review_case WHERE tenant_id = ? AND job_id = ?
       GROUP BY kind, limited_by`,
    )
    .all(tenantId, jobId) as { kind: ReviewKind; limitedBy: ScoreLimit | null; cases: number }[];
  return countReviewHolds(rows);
}

/** When the tenant's last daily sample was taken (ISO 8601), if ever. */
export function lastDailySample(store: Store, tenantId: string): string | undefined {
  const row = store
    .statement("SELECT MAX(at) AS at FROM health_sample WHERE tenant_id = ? AND origin = 'daily'")
    .get(tenantId) as { at: string | null } | undefined;
  return row?.at ?? undefined;
}
