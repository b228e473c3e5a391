/**
 * The blocking rules a profile change must keep to, beyond its own schema (issue 7, items 8 and 9).
 *
 * Key versions: every key version a Blocking section names must have a secret for the tenant in the
 * configuration file, or every ingestion and job start would fail after the change.
 *
 * Overlap: stored blocking tags were made under the Blocking sections active since the last completed
 * re-index (that re-index rewrote every identity's tags to its own section). A new section can find the
 * stored identities only through a rule it shares with each of them — the same name and the same parts —
 * under a key version it shares with it. A section that shares none with one of them would silently break
 * candidate discovery (an exact copy of a stored record would become a new identity) until a re-index
 * refused it, so it is refused at once, naming the staged procedure of docs/maintenance.md: the union of
 * old and new rules with the previous key kept inactive, re-index, then the final rules. A section with the
 * same rules and key versions (a new Version number alone) changes no tag and is always accepted.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ErrorIssue } from '../contract/errors.ts';
import type { BlockingConfig, BlockingRule } from '../contract/profile.ts';
import type { Settings } from '../config/settings.ts';

export const STAGED_PROCEDURE =
  'Stage the change: apply the union of the old and new rules with the new key as ActiveKeyVersion and the previous key as InactiveKeyVersion, ' +
  're-index and wait for the job to complete, then apply the final rules (docs/maintenance.md, "Changing blocking rules or HMAC keys")';

/** A Blocking section that was active at some point since the last completed re-index. */
export interface IndexedBlocking {
  readonly profileVersion: number;
  readonly blocking: BlockingConfig;
}

export function blockingKeyVersions(blocking: BlockingConfig): string[] {
  return blocking.InactiveKeyVersion === undefined
    ? [blocking.ActiveKeyVersion]
    : [blocking.ActiveKeyVersion, blocking.InactiveKeyVersion];
}

/** Issues for key versions of the section that have no secret for the tenant in the configuration file. */
export function keyVersionIssues(blocking: BlockingConfig, settings: Settings, tenantId: string): ErrorIssue[] {
  const keys = settings.BlockingKeys.get(tenantId);
  const issues: ErrorIssue[] = [];
  for (const [field, version] of [
    ['ActiveKeyVersion', blocking.ActiveKeyVersion],
    ['InactiveKeyVersion', blocking.InactiveKeyVersion],
  ] as const) {
    if (version === undefined || keys?.has(version) === true) continue;
    issues.push({
      path: `Blocking.${field}`,
      message: `key version ${JSON.stringify(version)} has no secret in the configuration file for this tenant; add it first with \`mpi-console blocking-key add ${version}\``,
    });
  }
  return issues;
}

function sameRule(a: BlockingRule, b: BlockingRule): boolean {
  return a.Name === b.Name && isDeepStrictEqual(a.Parts, b.Parts) && (a.Unordered ?? false) === (b.Unordered ?? false);
}

/** Whether two sections make some tag the same way: a shared rule under a shared key version. */
export function overlaps(a: BlockingConfig, b: BlockingConfig): boolean {
  const keys = blockingKeyVersions(b);
  return (
    blockingKeyVersions(a).some((k) => keys.includes(k)) &&
    a.Rules.some((rule) => b.Rules.some((other) => sameRule(rule, other)))
  );
}

/** Same rules and key versions: the section makes exactly the same tags. */
function sameTags(a: BlockingConfig, b: BlockingConfig): boolean {
  return (
    a.Rules.length === b.Rules.length &&
    a.Rules.every((rule) => b.Rules.some((other) => sameRule(rule, other))) &&
    isDeepStrictEqual(new Set(blockingKeyVersions(a)), new Set(blockingKeyVersions(b)))
  );
}

/**
 * Issues (path `Blocking`) when the next section does not overlap every indexed one; none when it makes the
 * same tags as the current section or when nothing is indexed (no identity has a tag yet).
 */
export function blockingChangeIssues(
  next: BlockingConfig,
  current: IndexedBlocking,
  indexed: readonly IndexedBlocking[],
): ErrorIssue[] {
  if (sameTags(next, current.blocking)) return [];
  const apart = indexed.find((section) => !overlaps(next, section.blocking));
  if (apart === undefined) return [];
  const reindexPending = apart.profileVersion < current.profileVersion && overlaps(next, current.blocking);
  const why = reindexPending
    ? `the Blocking section overlaps the active one, but identities still hold tags of profile version ${String(apart.profileVersion)}, with which it shares no rule (same name and parts) under a shared key version: the re-index of the staged change has not completed. Run \`mpi-console reindex\` and wait for \`completed\` first`
    : `the Blocking section shares no rule (same name and parts) under a shared key version with the stored blocking index (profile version ${String(apart.profileVersion)}): applied directly it would leave stored tags that no new record can meet, so copies of known people would become new identities`;
  return [{ path: 'Blocking', message: `${why}. ${STAGED_PROCEDURE}` }];
}
