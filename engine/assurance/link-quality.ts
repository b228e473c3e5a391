/**
 * The link-quality scan: each active identity holding two or more records, every pair of its records scored under
 * the active profile (at most maxIdentityRecords of them, its oldest). Flags:
 *
 *   weak-bridge          the records fall apart into groups that no pair scoring at or above Probable joins: the
 *                        identity holds together only through a link the model would not make today. This is the
 *                        transitive false link (one weak edge chaining two people) seen from inside the identity.
 *   same-source          two records of one source system (a source keeps one record per patient)
 *   sex-conflict         two records state different sexes
 *   birth-date-conflict  two birth dates at the "different" level (beyond a typo, a swap or a near date)
 *                        (both conflicts only between records no chain of Certain pairs joins: inside such a chain
 *                        a conflict is a data error in one person's records, not a wrong link; the chain's records
 *                        must all carry the field: a record without a birth date is Certain against a father and his
 *                        son of one name at one home alike)
 *   too-large            more records than maxIdentityRecords
 *
 * The groups are the connected components of the record graph whose edges are the pairs at or above Probable
 * (union-find, Kruskal order over the scores descending); the weakest link is the lowest score Kruskal needed
 * to join every record, so it is below Probable exactly when there are several groups. Nothing is unlinked: one
 * read snapshot covers the scan, then each flagged identity becomes a LinkQuality review case (written in batches,
 * each checked against the identity's version as read).
 */
import { countIdentities } from '../store/identities.ts';
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { CallContext, OperationInput, OperationOutput } from '../contract/operations.ts';
import type { MatchFields } from '../contract/fields.ts';
import { LINK_FLAGS, MAX_IDENTITY_RECORDS, type FlaggedIdentity, type LinkFlag } from '../contract/link-quality.ts';
import { doubtOf, judgeIdentity } from '../ingest/identity-judgement.ts';
import { openLinkCase, type LinkCase } from '../ingest/link-case.ts';
import type { EngineEnv } from '../env.ts';
import type { Store } from '../store/store.ts';
import { activeProfile } from '../store/profiles.ts';
import { candidateMembers } from '../store/records.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import { requireTenant } from '../store/tenants.ts';
import { createScorer } from '../scoring/scorer.ts';

const BATCH = 500;

export interface Several {
  readonly identityId: number;
  readonly enterpriseId: string;
  readonly version: number;
  readonly records: number;
}

/**
 * Active identities holding at least two records after a cursor, in identity order. Grouped and ordered by the
 * identity the walk goes through (its range, then each one's links), so a batch reads only its own identities:
 * ordered by the link's identity ID instead, SQLite grouped every identity after the cursor in a temporary B-tree
 * first, and a walk of a million records took 172 s (a batch of 500 up to 3 s).
 */
export const SEVERAL_AFTER_SQL = `SELECT i.identity_id AS identityId, i.enterprise_id AS enterpriseId, i.logical_version AS version, count(*) AS records
       FROM identity i JOIN identity_link l ON l.tenant_id = i.tenant_id AND l.identity_id = i.identity_id
       WHERE i.tenant_id = ? AND i.identity_id > ? AND i.status = 'active'
       GROUP BY i.identity_id HAVING count(*) >= 2 ORDER BY i.identity_id LIMIT ?`;

export function identitiesWithSeveral(store: Store, tenantId: string, after: number, limit: number): Several[] {
  return store.statement(SEVERAL_AFTER_SQL).all(tenantId, after, limit) as Several[];
}

export function countSeveral(store: Store, tenantId: string): number {
  return store
    .statement(
      `SELECT count(*) FROM (SELECT 1 FROM identity_link l JOIN identity i ON i.tenant_id = l.tenant_id AND i.identity_id = l.identity_id
       WHERE l.tenant_id = ? AND i.status = 'active' GROUP BY l.identity_id HAVING count(*) >= 2) AS several`,
    )
    .pluck()
    .get(tenantId) as number;
}

export function scanLinkQuality(
  env: EngineEnv,
  input: OperationInput<'links/scan'>,
  ctx: CallContext,
  control: RunControl = NO_CONTROL,
): OperationOutput<'links/scan'> {
  const { store } = env;
  requireTenant(store, ctx.tenantId);
  const maxRecords = input.maxIdentityRecords ?? MAX_IDENTITY_RECORDS;
  const maxListed = input.maxListed ?? 1000;
  const openCases = input.openCases ?? true;
  const scanned = store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    const probable = stored.profile.MatchingRules.Thresholds.Probable;
    const scorer = createScorer(stored.profile, termFrequencySnapshot(store, ctx.tenantId));
    // Counting reads every link (seconds at a million records): the run says so rather than "starting".
    control.step('counting the identities with two or more records', 0);
    const total = countSeveral(store, ctx.tenantId);
    const identitiesScanned = countIdentities(store, ctx.tenantId);
    const byFlag = Object.fromEntries(LINK_FLAGS.map((f) => [f, 0])) as Record<LinkFlag, number>;
    const bySource = new Map<string, number>();
    const listed: FlaggedIdentity[] = [];
    let flagged = 0;
    let pairsScored = 0;
    const toOpen: LinkCase[] = [];
    let done = 0;
    control.step('comparing the records within each identity', 0, total);
    for (let cursor = 0; ;) {
      const batch = identitiesWithSeveral(store, ctx.tenantId, cursor, BATCH);
      const last = batch.at(-1);
      if (last === undefined) break;
      cursor = last.identityId;
      const members = candidateMembers(
        store,
        ctx.tenantId,
        batch.map((b) => b.identityId),
        maxRecords,
      );
      for (const identity of batch) {
        const rows = (members.get(identity.identityId) ?? []).map((member) => ({
          member,
          prepared: scorer.prepare(JSON.parse(member.fieldsJson) as MatchFields),
        }));
        const judged = judgeIdentity(scorer, rows, identity.records, maxRecords, probable);
        pairsScored += judged.edges.length;
        if (judged.flags.length > 0) {
          flagged++;
          const weakest = judged.weakest === null ? undefined : [rows[judged.weakest.a], rows[judged.weakest.b]];
          if (openCases) {
            toOpen.push({
              identity,
              score: judged.weakest?.score ?? 0,
              doubt: doubtOf(judged.flags, judged.groups),
              evidence:
                weakest?.[0] === undefined || weakest[1] === undefined
                  ? []
                  : scorer.explain(weakest[0].prepared, weakest[1].prepared).evidence,
            });
          }
          for (const flag of judged.flags) byFlag[flag]++;
          for (const source of new Set(rows.map((r) => r.member.sourceSystem)))
            bySource.set(source, (bySource.get(source) ?? 0) + 1);
          if (maxListed > 0) {
            listed.push({
              enterpriseId: identity.enterpriseId,
              version: identity.version,
              flags: judged.flags,
              records: rows.map((r) => ({ sourceSystem: r.member.sourceSystem, localId: r.member.localId })),
              edges: judged.edges,
              groups: judged.groups,
              weakestLink: judged.weakest?.score ?? null,
            });
            // The most doubtful maxListed of all flagged so far, not the first ones met in identity order.
            if (listed.length >= 2 * maxListed) mostDoubtfulFirst(listed).splice(maxListed);
          }
        }
        done++;
      }
      control.step('comparing the records within each identity', done, total);
    }
    mostDoubtfulFirst(listed).splice(maxListed);
    return {
      toOpen,
      profileVersion: stored.version,
      matchingProfileVersion: stored.version,
      probableThreshold: probable,
      identitiesScanned,
      identitiesWithSeveralRecords: total,
      pairsScored,
      flagged,
      flaggedPerThousand: total === 0 ? null : (1000 * flagged) / total,
      byFlag,
      bySource: Object.fromEntries([...bySource.entries()].sort((a, b) => a[0].localeCompare(b[0]))),
      identities: listed,
      notListed: flagged - listed.length,
    };
  });
  const { toOpen, profileVersion, ...report } = scanned;
  control.step('opening review cases for the flagged identities', 0, toOpen.length);
  let casesOpened = 0;
  for (let start = 0; start < toOpen.length; start += CASES_PER_WRITE) {
    casesOpened += store.write(() =>
      openLinkCases(
        store,
        ctx.tenantId,
        toOpen.slice(start, start + CASES_PER_WRITE),
        profileVersion,
        new Date().toISOString(),
      ),
    );
    control.step(
      'opening review cases for the flagged identities',
      Math.min(toOpen.length, start + CASES_PER_WRITE),
      toOpen.length,
    );
  }
  return { ...report, casesOpened };
}

/** The report's order (sorts in place): doubt, then the weakest link lowest. */
function mostDoubtfulFirst(listed: FlaggedIdentity[]): FlaggedIdentity[] {
  return listed.sort(
    (a, b) =>
      doubtOf(b.flags, b.groups) - doubtOf(a.flags, a.groups) ||
      (a.weakestLink ?? 1) - (b.weakestLink ?? 1) ||
      a.enterpriseId.localeCompare(b.enterpriseId),
  );
}

const CASES_PER_WRITE = 500;

/** One LinkQuality case per flagged identity (ingest/link-case.ts). Returns how many were opened. */
function openLinkCases(
  store: Store,
  tenantId: string,
  cases: readonly LinkCase[],
  profileVersion: number,
  at: string,
): number {
  let opened = 0;
  for (const link of cases) if (openLinkCase(store, tenantId, link, profileVersion, at)) opened++;
  return opened;
}
