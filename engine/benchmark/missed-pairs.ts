/**
 * Why the true record pairs a tenant did not link stayed apart (npm run quality -- --misses): each missed pair is
 * explained (matching/explain) and put in one class, so a change meant to raise recall can be aimed at the class it
 * should move, and a note can say which misses are held on purpose.
 */
import type { CallContext, EngineClient, ExplainOutput } from '../contract/operations.ts';
import { groupBy, pairMembers, pairsOfClusters } from './pairwise.ts';
import { openReviewCases, refOfKey } from './population-quality.ts';

export interface MissClass {
  readonly name: string;
  readonly pairs: number;
  /** Of them, pairs whose two identities an open review case joins. */
  readonly inOpenCase: number;
}

export interface MissedPairs {
  readonly truePairs: number;
  readonly linked: number;
  /** Largest class first. */
  readonly classes: readonly MissClass[];
}

/** The evidence band of a field, or null when the field was not compared (missing on a side). */
function band(explained: ExplainOutput, field: string): string | null {
  return explained.evidence.find((e) => e.field === field)?.band ?? null;
}

/** The class of one missed true pair, from its explanation (the pair scored alone, under the tenant's profile). */
export function missClass(explained: ExplainOutput): string {
  if (explained.sharedBlockingRules.length === 0) return 'no blocking key shared';
  if (explained.decision === 'certain')
    return 'certain when scored alone, yet in two identities (a record joins one identity; identities are never merged automatically)';
  if (explained.limitedBy !== undefined) return `held at Probable: ${explained.limitedBy}`;
  if (explained.decision === 'probable') return 'Probable (the review band)';
  const birthDate = band(explained, 'birthDate');
  const given = band(explained, 'givenName');
  if (birthDate === null) return 'below Probable: a birth date missing on one side';
  if (birthDate !== 'Exact') return 'below Probable: birth dates differ';
  if (given === 'Different' || given === 'Partial')
    return "below Probable: the same birth date, given names far apart (a twin's or sibling's pattern)";
  return 'below Probable: other';
}

/**
 * Every true pair (records of one entity in `truth`, record key `sourceSystem/localId` → entity) not in one identity,
 * explained and classed. One explain call per missed pair: meant for benchmark sets, not for a registry.
 */
export async function missedPairs(
  engine: EngineClient,
  ctx: CallContext,
  truth: ReadonlyMap<string, string>,
): Promise<MissedPairs> {
  const openCases = new Set<string>();
  for (const c of await openReviewCases(engine, ctx)) openCases.add(`${c.leftEnterpriseId} ${c.rightEnterpriseId}`);
  const joinedByCase = (a: string | null, b: string | null): boolean =>
    a !== null && b !== null && (openCases.has(`${a} ${b}`) || openCases.has(`${b} ${a}`));
  const classes = new Map<string, { pairs: number; inOpenCase: number }>();
  let truePairs = 0;
  let linked = 0;
  for (const pair of pairsOfClusters(groupBy([...truth.entries()]).values())) {
    truePairs++;
    const [left, right] = pairMembers(pair);
    const explained = await engine.call('matching/explain', { left: refOfKey(left), right: refOfKey(right) }, ctx);
    if (explained.left.enterpriseId !== null && explained.left.enterpriseId === explained.right.enterpriseId) {
      linked++;
      continue;
    }
    const name = missClass(explained);
    const entry = classes.get(name) ?? { pairs: 0, inOpenCase: 0 };
    entry.pairs++;
    if (joinedByCase(explained.left.enterpriseId, explained.right.enterpriseId)) entry.inOpenCase++;
    classes.set(name, entry);
  }
  return {
    truePairs,
    linked,
    classes: [...classes]
      .map(([name, c]) => ({ name, ...c }))
      .sort((a, b) => b.pairs - a.pairs || a.name.localeCompare(b.name)),
  };
}
