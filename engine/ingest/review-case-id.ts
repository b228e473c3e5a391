import { createHash } from 'node:crypto';

export interface VersionedIdentity {
  readonly enterpriseId: string;
  readonly version: number;
}

/**
 * A review case ID is a digest of the tenant, the kind, both identities at their versions (in a fixed
 * order) and the matching-profile version, so a retry or a second worker computing the same case gets
 * the same ID and the insert is ignored.
 */
export function reviewCaseId(
  tenantId: string,
  kind: string,
  a: VersionedIdentity,
  b: VersionedIdentity,
  profileVersion: number,
): string {
  const [first, second] = a.enterpriseId < b.enterpriseId ? [a, b] : [b, a];
  const material = [
    tenantId,
    kind,
    first.enterpriseId,
    String(first.version),
    second.enterpriseId,
    String(second.version),
    String(profileVersion),
  ].join('\u001f');
  return 'rc-' + createHash('sha256').update(material).digest('hex').slice(0, 32);
}
