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
 *                        a conflict is a data error in one person's records, not a wrong link)
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
import { birthDateLevel } from '../comparators/birth-date-levels.ts';
import type { EngineEnv } from '../env.ts';
import type { Store } from '../store/store.ts';
import { activeProfile } from '../store/profiles.ts';
import { candidateMembers, type CandidateMember } from '../store/records.ts';
import { termFrequencySnapshot } from '../store/term-frequency.ts';
import { requireTenant } from '../store/tenants.ts';
import { createScorer, type Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import type { FieldEvidence } from '../contract/matching.ts';
import { hasDecidedCaseAt, hasOpenCaseFor, insertReviewCase } from '../store/reviews.ts';
import { reviewCaseId } from '../ingest/review-case-id.ts';

const LINK_QUALITY = 'LinkQuality';

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

class UnionFind {
  private readonly parent: number[];
  groups: number;
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
    this.groups = n;
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root] ?? root;
    for (let j = i; this.parent[j] !== root;) {
      const next = this.parent[j] ?? root;
      this.parent[j] = root;
      j = next;
    }
    return root;
  }
  /** True when a and b were in different groups (now joined). */
  join(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    this.parent[ra] = rb;
    this.groups--;
    return true;
  }
}

/** The edge Kruskal needs last to join every record (scores descending): the identity's weakest link. */
function weakestLinkEdge<E extends { readonly a: number; readonly b: number; readonly score: number }>(
  size: number,
  edges: readonly E[],
): E | null {
  const groups = new UnionFind(size);
  let weakest: E | null = null;
  for (const edge of [...edges].sort((x, y) => y.score - x.score)) if (groups.join(edge.a, edge.b)) weakest = edge;
  return weakest;
}

const digits = (date: string | null): string | null => (date === null ? null : date.replaceAll('-', ''));

interface Edge {
  readonly a: number;
  readonly b: number;
  readonly score: number;
}

/** The pair to compare first and the flag it shows (null: the weakest link of an identity no such flag names). */
export interface CompareFirst extends Edge {
  readonly because: LinkFlag | null;
}

/**
 * The flags, record graph, groups and weakest link of one identity's records: the scan's judgement, which a
 * LinkQuality case's page reads again under the active profile.
 */
export function judgeIdentity(
  scorer: Scorer,
  members: readonly { readonly member: Pick<CandidateMember, 'sourceSystem'>; readonly prepared: PreparedRecord }[],
  totalRecords: number,
  maxRecords: number,
  probable: number,
): {
  flags: LinkFlag[];
  edges: Edge[];
  groups: number;
  weakest: Edge | null;
  compareFirst: CompareFirst | null;
} {
  const flags = new Set<LinkFlag>();
  const edges: Edge[] = [];
  const certain = new UnionFind(members.length);
  const conflicts: (Edge & { flag: LinkFlag })[] = [];
  const sameSource: Edge[] = [];
  for (let i = 0; i < members.length; i++) {
    const a = members[i];
    if (a === undefined) continue;
    for (let j = i + 1; j < members.length; j++) {
      const b = members[j];
      if (b === undefined) continue;
      const outcome = scorer.outcome(a.prepared, b.prepared);
      const edge = { a: i, b: j, score: outcome.score };
      edges.push(edge);
      if (a.member.sourceSystem === b.member.sourceSystem) sameSource.push(edge);
      if (outcome.decision === 'certain') certain.join(i, j);
      const fa: MatchFields = a.prepared.fields;
      const fb: MatchFields = b.prepared.fields;
      if (fa.sex !== null && fb.sex !== null && fa.sex !== fb.sex) conflicts.push({ ...edge, flag: 'sex-conflict' });
      const da = digits(fa.birthDate);
      const db = digits(fb.birthDate);
      if (da !== null && db !== null && birthDateLevel(da, db) === 'different')
        conflicts.push({ ...edge, flag: 'birth-date-conflict' });
    }
  }
  if (sameSource.length > 0) flags.add('same-source');
  // A conflict between two records that a chain of Certain pairs joins (a trusted identifier, or everything else
  // agreeing) is a data error inside one person's records, not a sign of a wrong link.
  const counted = conflicts.filter((conflict) => certain.find(conflict.a) !== certain.find(conflict.b));
  for (const conflict of counted) flags.add(conflict.flag);
  const weakest = weakestLinkEdge(members.length, edges);
  const strong = new UnionFind(members.length);
  for (const edge of edges) if (edge.score >= probable) strong.join(edge.a, edge.b);
  if (strong.groups > 1) flags.add('weak-bridge');
  if (totalRecords > maxRecords) flags.add('too-large');
  const evidence: Partial<Record<LinkFlag, readonly Edge[]>> = {
    'same-source': sameSource,
    'sex-conflict': counted.filter((c) => c.flag === 'sex-conflict'),
    'birth-date-conflict': counted.filter((c) => c.flag === 'birth-date-conflict'),
  };
  return {
    flags: LINK_FLAGS.filter((f) => flags.has(f)),
    edges,
    groups: strong.groups,
    weakest,
    compareFirst: pairToCompareFirst(flags, weakest, evidence),
  };
}

/**
 * The pair a reviewer compares first, the one that shows best why the identity was flagged: under a weak bridge its
 * weakest link (the pair holding two groups together); else, by the flags' order, the lowest-scoring pair of one
 * source (which keeps one record per patient) or in conflict over sex or birth date. In an identity that is one
 * source twice and nothing else, every pair may score Certain, and the weakest link then says nothing of the two
 * records the source itself keeps apart. No flag, or too large alone: the weakest link.
 */
function pairToCompareFirst(
  flags: ReadonlySet<LinkFlag>,
  weakest: Edge | null,
  evidence: Partial<Record<LinkFlag, readonly Edge[]>>,
): CompareFirst | null {
  if (!flags.has('weak-bridge'))
    for (const flag of LINK_FLAGS) {
      const lowest = (evidence[flag] ?? []).reduce<Edge | null>(
        (low, e) => (low === null || e.score < low.score ? e : low),
        null,
      );
      if (lowest !== null) return { ...lowest, because: flag };
    }
  return weakest === null ? null : { ...weakest, because: flags.has('weak-bridge') ? 'weak-bridge' : null };
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

/**
 * How doubtful a flagged identity is, higher first: one source twice, then more flags, then more groups (its weakest
 * link, lowest first, breaks ties). One source twice comes first because a source keeps one record per patient: on
 * two registries linked too loosely, all 17 identities so flagged held two people, against 1 of the 82 flagged
 * otherwise (docs/assurance.md). By groups and weakest link alone, such an identity, whose every pair may score
 * Certain, came after every weak bridge, most of which are one person's records corrupted past what the model links.
 * The report lists identities in this order, and a LinkQuality case keeps the number for the review queue's
 * most-doubtful sort.
 */
export function doubtOf(flags: readonly LinkFlag[], groups: number): number {
  return (flags.includes('same-source') ? 1_000_000 : 0) + flags.length * 1_000 + Math.min(groups, 999);
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

interface LinkCase {
  readonly identity: Several;
  readonly score: number;
  readonly doubt: number;
  readonly evidence: FieldEvidence[];
}

const CASES_PER_WRITE = 500;

/**
 * One LinkQuality case per flagged identity (its deterministic ID names the identity, its version and the profile
 * version), unless the identity changed since the scan read it, a case about it is open at this version, or a
 * reviewer already decided one at this version. Returns how many were opened.
 */
function openLinkCases(
  store: Store,
  tenantId: string,
  cases: readonly LinkCase[],
  profileVersion: number,
  at: string,
): number {
  let opened = 0;
  for (const { identity, score, doubt, evidence } of cases) {
    const now = store
      .statement('SELECT logical_version, status FROM identity WHERE tenant_id = ? AND identity_id = ?')
      .raw()
      .get(tenantId, identity.identityId) as [number, string] | undefined;
    if (now?.[0] !== identity.version || now[1] !== 'active') continue;
    const side = { identityId: identity.identityId, version: identity.version };
    if (hasOpenCaseFor(store, tenantId, side, side) || hasDecidedCaseAt(store, tenantId, side)) continue;
    const inserted = insertReviewCase(
      store,
      tenantId,
      {
        caseId: reviewCaseId(tenantId, LINK_QUALITY, identity, identity, profileVersion),
        kind: LINK_QUALITY,
        leftIdentityId: identity.identityId,
        leftVersion: identity.version,
        rightIdentityId: identity.identityId,
        rightVersion: identity.version,
        profileVersion,
        score,
        decision: 'probable',
        evidence,
        doubt,
      },
      at,
    );
    if (inserted) opened++;
  }
  return opened;
}
