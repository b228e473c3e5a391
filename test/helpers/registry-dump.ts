import { Store } from '../../engine/store/store.ts';
import { withTenant } from '../../engine/store/tenant-scope.ts';

type Row = Record<string, unknown>;

/**
 * A tenant's whole registry in a form two runs of the same work can be compared by: timestamps left out,
 * and identities named by their member records (`system/localId`, sorted) rather than by row ID or their
 * random enterprise ID, so review cases (whose IDs digest enterprise IDs) compare by the identities they
 * join. The same on either store: dbPath is a SQLite file or a PostgreSQL URL.
 */
export function dumpRegistry(dbPath: string, tenantId: string): Record<string, unknown[]> {
  return withTenant(tenantId, () => dump(dbPath, tenantId));
}

function dump(dbPath: string, tenantId: string): Record<string, unknown[]> {
  const store = Store.open(dbPath, { readonly: true });
  try {
    const all = (sql: string): Row[] => store.statement(sql).all(tenantId) as Row[];
    const members = new Map<number, string[]>();
    for (const row of all(
      `SELECT l.identity_id AS id, r.source_system || '/' || r.local_id AS ref
       FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id WHERE l.tenant_id = ?`,
    )) {
      const id = row.id as number;
      members.set(id, [...(members.get(id) ?? []), row.ref as string]);
    }
    const key = (id: unknown): string =>
      (members.get(id as number) ?? [`<no members ${String(id)}>`]).sort().join(' + ');
    const sorted = (rows: unknown[]): unknown[] => rows.map((r) => JSON.stringify(r)).sort();
    return {
      records: sorted(
        all(
          'SELECT source_system, local_id, fields_json, payload_digest, logical_version, source_last_updated FROM source_record WHERE tenant_id = ?',
        ),
      ),
      resources: sorted(
        all(
          `SELECT r.source_system, r.local_id, s.resource_json FROM source_resource s JOIN source_record r ON r.tenant_id = s.tenant_id AND r.record_id = s.record_id WHERE s.tenant_id = ?`,
        ),
      ),
      identities: sorted(
        all('SELECT identity_id, logical_version, canonical_json, status FROM identity WHERE tenant_id = ?').map(
          ({ identity_id, ...rest }) => ({ identity: key(identity_id), ...rest }),
        ),
      ),
      links: sorted(
        all(
          `SELECT r.source_system || '/' || r.local_id AS ref, l.identity_id, l.link_kind, l.score
           FROM identity_link l JOIN source_record r ON r.tenant_id = l.tenant_id AND r.record_id = l.record_id WHERE l.tenant_id = ?`,
        ).map(({ identity_id, ...rest }) => ({ ...rest, identity: key(identity_id) })),
      ),
      tags: sorted(
        all(
          'SELECT tag, identity_id, rule_name, rule_set_version, key_version FROM blocking_tag WHERE tenant_id = ?',
        ).map(({ tag, identity_id, ...rest }) => ({
          ...rest,
          tag: (tag as Buffer).toString('hex'),
          identity: key(identity_id),
        })),
      ),
      reviews: sorted(
        all(
          'SELECT kind, left_identity_id, left_version, right_identity_id, right_version, profile_version, score, decision, evidence_json, status FROM review_case WHERE tenant_id = ?',
        ).map(({ left_identity_id, left_version, right_identity_id, right_version, ...rest }) => ({
          ...rest,
          pair: [
            `${key(left_identity_id)} @${String(left_version)}`,
            `${key(right_identity_id)} @${String(right_version)}`,
          ].sort(),
        })),
      ),
      receipts: sorted(
        all(
          'SELECT source_system, local_id, payload_digest, source_last_updated, outcome FROM ingestion_receipt WHERE tenant_id = ?',
        ),
      ),
      audit: sorted(all('SELECT actor, action, subject, detail_json FROM audit_record WHERE tenant_id = ?')),
    };
  } finally {
    store.close();
  }
}
