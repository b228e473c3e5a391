/**
 * The checks of a candidate profile against the world around it, shared by validate, apply and rollback:
 * its blocking key versions against the configuration file, and its Blocking section against the stored
 * blocking index (engine/profile/blocking-change.ts).
 */
import type { ErrorIssue } from '../contract/errors.ts';
import type { MatchingProfile } from '../contract/profile.ts';
import type { Settings } from '../config/settings.ts';
import { blockingChangeIssues, keyVersionIssues } from '../profile/blocking-change.ts';
import { lastCompletedReindexVersion } from '../jobs/job-store.ts';
import { blockingSince, type StoredProfile } from '../store/profiles.ts';
import { hasAnyTag } from '../store/tags.ts';
import type { Store } from '../store/store.ts';

export function profileContextIssues(
  store: Store,
  tenantId: string,
  settings: Settings,
  current: StoredProfile,
  next: MatchingProfile,
): ErrorIssue[] {
  const issues = keyVersionIssues(next.Blocking, settings, tenantId);
  if (!hasAnyTag(store, tenantId)) return issues;
  const indexed = blockingSince(store, tenantId, lastCompletedReindexVersion(store, tenantId) ?? 1);
  return [
    ...issues,
    ...blockingChangeIssues(
      next.Blocking,
      { profileVersion: current.version, blocking: current.profile.Blocking },
      indexed,
    ),
  ];
}
