import type { Store } from './store.ts';

/**
 * Audit records say who did what to which subject. Subjects and details are identifiers of jobs, profiles,
 * datasets and counts, never patient values.
 */
export interface AuditEntry {
  readonly actor: string;
  readonly action: string;
  readonly subject: string;
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
}

export function writeAudit(store: Store, tenantId: string, entry: AuditEntry, at = new Date().toISOString()): void {
  store
    .statement(
      'INSERT INTO audit_record (tenant_id, at, actor, action, subject, detail_json) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(tenantId, at, entry.actor, entry.action, entry.subject, JSON.stringify(entry.detail));
}

export interface AuditRow extends AuditEntry {
  readonly at: string;
}

export function listAudit(store: Store, tenantId: string, limit = 1000): AuditRow[] {
  const rows = store
    .statement(
      'SELECT at, actor, action, subject, detail_json FROM audit_record WHERE tenant_id = ? ORDER BY audit_id DESC LIMIT ?',
    )
    .all(tenantId, limit) as { at: string; actor: string; action: string; subject: string; detail_json: string }[];
  return rows.map((r) => ({
    at: r.at,
    actor: r.actor,
    action: r.action,
    subject: r.subject,
    detail: JSON.parse(r.detail_json) as AuditEntry['detail'],
  }));
}

/**
 * Whether an audit record carries this configuration change ID (its detail's `changeId`): the commit
 * point of a change that touches the configuration file and the registry (engine/config/settings-file.ts).
 * The tenant is the one whose call made the change; markers written before it was recorded name none.
 */
export function auditHasChange(store: Store, tenantId: string | undefined, changeId: string): boolean {
  const like = `%"changeId":${JSON.stringify(changeId)}%`;
  return (
    (tenantId === undefined
      ? store.statement('SELECT 1 FROM audit_record WHERE detail_json LIKE ? LIMIT 1').get(like)
      : store
          .statement('SELECT 1 FROM audit_record WHERE tenant_id = ? AND detail_json LIKE ? LIMIT 1')
          .get(tenantId, like)) !== undefined
  );
}

/** The latest of the tenant's audit records whose action is one of `actions`: its action, or undefined if none. */
export function latestAction(store: Store, tenantId: string, actions: readonly string[]): string | undefined {
  if (actions.length === 0) return undefined;
  return store
    .statement(
      `SELECT action FROM audit_record WHERE tenant_id = ? AND action IN (${actions.map(() => '?').join(', ')})
       ORDER BY audit_id DESC LIMIT 1`,
    )
    .pluck()
    .get(tenantId, ...actions) as string | undefined;
}
