/**
 * Length limits the registry schema puts on text that ingestion writes (the CHECK constraints in
 * engine/store/migrations), in characters as SQLite counts them (code points). Validation enforces the same
 * bounds before anything is written, so a value the database would refuse is reported on its field
 * instead of failing a write; test/engine/ingest/ingest-limits.test.ts fails when a migration adds a
 * length CHECK on those tables that is not listed here.
 */
export interface TextLimit {
  readonly min: number;
  readonly max: number;
}

export const SOURCE_SYSTEM_MAX_LENGTH = 100;
export const LOCAL_ID_MAX_LENGTH = 200;

export const INGESTED_TEXT_LIMITS: Readonly<Record<string, TextLimit>> = {
  /** From the profile's SourceTrust entry (SourceTrustEntrySchema). */
  'source_record.source_system': { min: 1, max: SOURCE_SYSTEM_MAX_LENGTH },
  /** From the resource: the local identifier's value or Patient.id (engine/fhir/local-id.ts). */
  'source_record.local_id': { min: 1, max: LOCAL_ID_MAX_LENGTH },
  /** Generated: a random UUID (36 characters). */
  'identity.enterprise_id': { min: 1, max: 64 },
  /** Generated: "rc-" and 32 hex digits of a digest (engine/ingest/review-case-id.ts). */
  'review_case.case_id': { min: 8, max: 80 },
};
