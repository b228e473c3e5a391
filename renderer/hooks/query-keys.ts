/**
 * The console's query keys, in one place so an invalidation always names what a query cached. Every key of data read
 * from a connection names the connection (connectionKey): after a switch of sandbox, registry or tenant, no page is
 * served what the cache kept from the one before.
 */
import type { ConsoleStatus } from '../../console-protocol/protocol.ts';
import type { RecordRef } from '../../engine/contract/matching.ts';

export function connectionKey(status: ConsoleStatus | undefined): string {
  const connection = status?.connection;
  if (connection == null) return 'none';
  const where = connection.kind === 'local-sandbox' ? connection.path : `${connection.baseUrl}:${connection.actor}`;
  return `${connection.kind}:${where}:${connection.tenantId}`;
}

/** Every query key of the console's cache. */
export const keys = {
  status: ['status'] as const,
  jobs: (connection: string) => ['jobs', connection] as const,
  job: (connection: string, jobId: string) => ['job', connection, jobId] as const,
  profile: (connection: string) => ['profile', connection] as const,
  profileSummary: (connection: string) => ['profile-summary', connection] as const,
  runs: (connection: string) => ['runs', connection] as const,
  health: (connection: string) => ['health', connection] as const,
  /** Every page of the review-case list (for invalidation), or one page of it. */
  reviews: (connection: string, query?: object) =>
    query === undefined ? (['reviews', connection] as const) : (['reviews', connection, query] as const),
  review: (connection: string, caseId: string) => ['review', connection, caseId] as const,
  recordSources: (connection: string) => ['record-sources', connection] as const,
  identityHistory: (connection: string, enterpriseId: string) =>
    ['identity-history', connection, enterpriseId] as const,
  pairRecords: (connection: string, left: RecordRef, right: RecordRef) =>
    ['pair-records', connection, left.sourceSystem, left.localId, right.sourceSystem, right.localId] as const,
};
