/**
 * The identity_event table (migration 0010): what happened to an identity, written in the same transaction as the
 * change itself. References and figures only. Every statement names the tenant.
 */
import { dialects, type Store } from './store.ts';
import { insertRow, type DeferredRows, type DeferredTable } from './deferred-rows.ts';

export type IdentityEventKind = 'record-joined' | 'identity-created' | 'record-updated' | 'canonical-rebuilt';

export interface IdentityEventWrite {
  readonly identityId: number;
  readonly recordId: number | null;
  readonly kind: IdentityEventKind;
  readonly decidedBy?: 'trusted-identifier' | 'score' | null;
  readonly score?: number | null;
  readonly profileVersion: number;
  readonly jobId?: string | null;
  readonly reviewCases?: number;
}

const EVENT: DeferredTable = {
  insert:
    'INSERT INTO identity_event (tenant_id, identity_id, record_id, at, kind, decided_by, score, profile_version, job_id, review_cases)',
  width: 10,
};

/** Records an event; with the chunk's others when `deferred` is given (deferred-rows.ts). */
export function recordIdentityEvent(
  store: Store,
  tenantId: string,
  event: IdentityEventWrite,
  at: string,
  deferred?: DeferredRows,
): void {
  insertRow(
    store,
    EVENT,
    [
      tenantId,
      event.identityId,
      event.recordId,
      at,
      event.kind,
      event.decidedBy ?? null,
      event.score ?? null,
      event.profileVersion,
      event.jobId ?? null,
      event.reviewCases ?? 0,
    ],
    deferred,
  );
}

export interface IdentityEventRow {
  readonly at: string;
  readonly kind: IdentityEventKind;
  readonly sourceSystem: string | null;
  readonly localId: string | null;
  readonly decidedBy: 'trusted-identifier' | 'score' | null;
  readonly score: number | null;
  readonly profileVersion: number | null;
  readonly jobId: string | null;
  readonly reviewCases: number;
}

export function identityEvents(store: Store, tenantId: string, identityId: number): IdentityEventRow[] {
  return store
    .statement(
      `SELECT e.at, e.kind, r.source_system AS sourceSystem, r.local_id AS localId, e.decided_by AS decidedBy, e.score, e.profile_version AS profileVersion,
              e.job_id AS jobId, e.review_cases AS reviewCases
       FROM identity_event e LEFT JOIN source_record r ON r.tenant_id = e.tenant_id AND r.record_id = e.record_id
       WHERE e.tenant_id = ? AND e.identity_id = ? ORDER BY e.event_id`,
    )
    .all(tenantId, identityId) as IdentityEventRow[];
}

export interface LinkRow {
  readonly sourceSystem: string;
  readonly localId: string;
  readonly linkedAt: string;
  readonly linkKind: string;
  readonly score: number | null;
  readonly recordUpdatedAt: string;
  readonly recordVersion: number;
}

/**
 * The identity's links as identity_link keeps them (for every identity, including those older than identity_event),
 * oldest first. Its records are found on the identity index first: asked for the link's own columns directly, SQLite
 * read every link of the tenant by the primary key instead (5.3 ms a call at 100,000 records).
 */
export function identityLinks(store: Store, tenantId: string, identityId: number): LinkRow[] {
  return store
    .statement(
      `SELECT r.source_system AS sourceSystem, r.local_id AS localId, l.created_at AS linkedAt, l.link_kind AS linkKind, l.score,
              r.updated_at AS recordUpdatedAt, r.logical_version AS recordVersion
       FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id
       WHERE l.tenant_id = ? AND l.record_id IN (SELECT record_id FROM identity_link WHERE tenant_id = ? AND identity_id = ?)
       ORDER BY l.created_at, l.record_id`,
    )
    .all(tenantId, tenantId, identityId) as LinkRow[];
}

/**
 * The tenant's newest event ID (0 when it has none): the tenant's events written later have higher IDs. Walks the key
 * down from the newest event to the tenant's first (+tenant_id keeps SQLite on the key rather than the identity index).
 */
export function lastEventId(store: Store, tenantId: string): number {
  return (
    (store
      .statement(
        dialects(
          'SELECT event_id FROM identity_event WHERE +tenant_id = ? ORDER BY event_id DESC LIMIT 1',
          'SELECT event_id FROM identity_event WHERE tenant_id = ? ORDER BY event_id DESC LIMIT 1',
        ),
      )
      .pluck()
      .get(tenantId) as number | undefined) ?? 0
  );
}

/** The identities of the tenant's events after an event ID, and the newest event ID seen (a range of the key). */
export function identitiesChangedAfter(
  store: Store,
  tenantId: string,
  eventId: number,
): { identityIds: Set<number>; lastEventId: number } {
  const rows = store
    .statement(
      // +tenant_id: SQLite would otherwise take the tenant's prefix of identity_event_by_identity and read every event.
      dialects(
        'SELECT event_id, identity_id FROM identity_event WHERE event_id > ? AND +tenant_id = ? ORDER BY event_id',
        'SELECT event_id, identity_id FROM identity_event WHERE event_id > ? AND tenant_id = ? ORDER BY event_id',
      ),
    )
    .raw()
    .all(eventId, tenantId) as [number, number][];
  return { identityIds: new Set(rows.map((r) => r[1])), lastEventId: rows.at(-1)?.[0] ?? eventId };
}
