import { dialects, type Store } from './store.ts';
import { MatchingProfileSchema, type MatchingProfile } from '../contract/profile.ts';
import { notFound } from '../contract/errors.ts';

export interface StoredProfile {
  readonly version: number;
  readonly profile: MatchingProfile;
  readonly reason: string;
  readonly createdAt: string;
  readonly active: boolean;
}

interface ProfileRow {
  profile_version: number;
  profile_json: string;
  reason: string;
  created_at: string;
  is_active: number;
}

function fromRow(row: ProfileRow): StoredProfile {
  return {
    version: row.profile_version,
    profile: MatchingProfileSchema.parse(JSON.parse(row.profile_json)),
    reason: row.reason,
    createdAt: row.created_at,
    active: row.is_active === 1,
  };
}

export function activeProfile(store: Store, tenantId: string): StoredProfile {
  const row = store
    .statement(
      'SELECT profile_version, profile_json, reason, created_at, is_active FROM matching_profile WHERE tenant_id = ? AND is_active = 1',
    )
    .get(tenantId) as ProfileRow | undefined;
  if (row === undefined) throw notFound(`tenant "${tenantId}" has no active matching profile`);
  return fromRow(row);
}

export function profileVersion(store: Store, tenantId: string, version: number): StoredProfile {
  const row = store
    .statement(
      'SELECT profile_version, profile_json, reason, created_at, is_active FROM matching_profile WHERE tenant_id = ? AND profile_version = ?',
    )
    .get(tenantId, version) as ProfileRow | undefined;
  if (row === undefined)
    throw notFound(`matching profile version ${String(version)} does not exist for tenant "${tenantId}"`);
  return fromRow(row);
}

/** Stores the profile as the next version and makes it the active one. Call inside a write transaction. */
export function insertActiveProfile(
  store: Store,
  tenantId: string,
  profile: MatchingProfile,
  reason: string,
  at: string,
): number {
  const { next } = store
    .statement('SELECT COALESCE(MAX(profile_version), 0) + 1 AS next FROM matching_profile WHERE tenant_id = ?')
    .get(tenantId) as { next: number };
  store.statement('UPDATE matching_profile SET is_active = 0 WHERE tenant_id = ? AND is_active = 1').run(tenantId);
  store
    .statement(
      'INSERT INTO matching_profile (tenant_id, profile_version, profile_json, reason, created_at, is_active) VALUES (?, ?, ?, ?, ?, 1)',
    )
    .run(tenantId, next, JSON.stringify(profile), reason, at);
  return next;
}

/** The Blocking sections of every profile version from `from` on, oldest first. */
export function blockingSince(
  store: Store,
  tenantId: string,
  from: number,
): { profileVersion: number; blocking: MatchingProfile['Blocking'] }[] {
  const rows = store
    .statement(
      dialects(
        "SELECT profile_version, json_extract(profile_json, '$.Blocking') AS blocking FROM matching_profile WHERE tenant_id = ? AND profile_version >= ? ORDER BY profile_version",
        "SELECT profile_version, (profile_json::jsonb -> 'Blocking')::text AS blocking FROM matching_profile WHERE tenant_id = ? AND profile_version >= ? ORDER BY profile_version",
      ),
    )
    .all(tenantId, from) as { profile_version: number; blocking: string }[];
  return rows.map((r) => ({
    profileVersion: r.profile_version,
    blocking: MatchingProfileSchema.shape.Blocking.parse(JSON.parse(r.blocking)),
  }));
}
