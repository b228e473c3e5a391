/**
 * One identity's records judged as the link-quality scan judges them (assurance/link-quality.ts): every pair scored
 * under the active profile, the groups no pair at Probable or above joins (a weak bridge), one source twice, sex and
 * birth-date conflicts between records no chain of Certain pairs (of records carrying the field) joins, too many
 * records; the weakest link, the pair a reviewer compares first, and how doubtful the identity is. The scan, a
 * LinkQuality case's page and ingestion (an update that leaves its record apart from the rest of its identity) read it
 * the same way.
 */
import type { MatchFields } from '../contract/fields.ts';
import { LINK_FLAGS, type LinkFlag } from '../contract/link-quality.ts';
import { BIRTH_DATE_PAIR_SIMILARITY, birthDateLevelOf } from '../comparators/first-of-january.ts';
import type { Scorer } from '../scoring/scorer.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';

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
  members: readonly { readonly member: { readonly sourceSystem: string }; readonly prepared: PreparedRecord }[],
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
  // Certain pairs of records that both carry a sex, and both a birth date: only a chain of these dismisses a conflict
  // over that field (below).
  const certainSexed = new UnionFind(members.length);
  const certainDated = new UnionFind(members.length);
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
      const fa: MatchFields = a.prepared.fields;
      const fb: MatchFields = b.prepared.fields;
      if (outcome.decision === 'certain') {
        if (fa.sex !== null && fb.sex !== null) certainSexed.join(i, j);
        if (fa.birthDate !== null && fb.birthDate !== null) certainDated.join(i, j);
      }
      if (fa.sex !== null && fb.sex !== null && fa.sex !== fb.sex) conflicts.push({ ...edge, flag: 'sex-conflict' });
      const da = digits(fa.birthDate);
      const db = digits(fb.birthDate);
      // Two people's dates as the scorer compares them: another date, or two 1 Januaries of other years.
      if (
        da !== null &&
        db !== null &&
        BIRTH_DATE_PAIR_SIMILARITY[birthDateLevelOf(a.prepared.newborn || b.prepared.newborn)(da, db)] === 0
      )
        conflicts.push({ ...edge, flag: 'birth-date-conflict' });
    }
  }
  if (sameSource.length > 0) flags.add('same-source');
  // A conflict between two records that a chain of Certain pairs joins (a trusted identifier, or everything else
  // agreeing) is a data error inside one person's records, not a sign of a wrong link. A chain through a record that
  // lacks the field does not count: a record without a birth date is Certain against a father and his son of one name
  // at one home alike, and joined them in one identity before ingestion judged it a bare record (judged-member.ts).
  const counted = conflicts.filter((conflict) => {
    const chain = conflict.flag === 'sex-conflict' ? certainSexed : certainDated;
    return chain.find(conflict.a) !== chain.find(conflict.b);
  });
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
