/**
 * The source systems a tenant's rows name, each once, in code-unit order: a recursive skip scan, one index search per
 * source (records: their (tenant_id, source_system, local_id) key; review cases: review_case_by_source), so the cost
 * follows the number of sources, not of rows. What the console offers to open a record's identity by, and to filter
 * review cases by, a source since dropped from the profile among them.
 */
import type { Store } from './store.ts';

export function sourceSystemsOf(store: Store, table: 'source_record' | 'review_case', tenantId: string): string[] {
  // IS NOT NULL: review_case_by_source is partial (a case opened outside an ingestion has no source); records always
  // have one. Sorted here: PostgreSQL's collation may order names otherwise than SQLite's bytes.
  return (
    store
      .statement(
        `WITH RECURSIVE source (name) AS (
           SELECT min(source_system) FROM ${table} WHERE tenant_id = ? AND source_system IS NOT NULL
           UNION ALL
           SELECT (SELECT min(source_system) FROM ${table}
                   WHERE tenant_id = ? AND source_system IS NOT NULL AND source_system > source.name)
           FROM source WHERE source.name IS NOT NULL
         )
         SELECT name FROM source WHERE name IS NOT NULL`,
      )
      .pluck()
      .all(tenantId, tenantId) as string[]
  ).sort();
}
