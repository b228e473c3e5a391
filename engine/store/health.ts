/** The health_sample table (migration 0011): written after each ingest and each finished job; read in time order. */
import type { Store } from './db.ts';
import type { HealthSample } from '../contract/health.ts';

export function recordHealthSample(store: Store, tenantId: string, sample: HealthSample): void {
  store
    .statement(
      `INSERT INTO health_sample (tenant_id, at, origin, source_system, job_id, job_kind, job_status, profile_version, records, created, auto_linked,
         review_cases, rejected, field_present_json, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    );
}

/** The tenant's latest samples (optionally of one source), oldest first. */
export function healthSamples(store: Store, tenantId: string, sourceSystem: string | undefined, limit: number): HealthSample[] {
  const rows = store
    .statement(
      `SELECT * FROM (SELECT at, origin, source_system AS sourceSystem, job_id AS jobId, job_kind AS jobKind, job_status AS jobStatus,
         profile_version AS profileVersion, records, created, auto_linked AS autoLinked, review_cases AS reviewCases, rejected,
         field_present_json, duration_ms AS durationMs, sample_id
       FROM health_sample WHERE tenant_id = ? ${sourceSystem === undefined ? '' : 'AND source_system = ?'} ORDER BY sample_id DESC LIMIT ?) ORDER BY sample_id`,
    )
    .all(...(sourceSystem === undefined ? [tenantId, limit] : [tenantId, sourceSystem, limit])) as (Omit<HealthSample, 'fieldPresent'> & { field_present_json: string; sample_id: number })[];
  return rows.map(({ field_present_json, sample_id: _id, ...row }) => ({ ...row, fieldPresent: JSON.parse(field_present_json) as Record<string, number> }));
}
