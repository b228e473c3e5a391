/**
 * Population-level pairwise quality: every pair of records placed in one cluster is a predicted match;
 * every pair of records of one true entity is a true match. Counting pairs, not clusters, is how the FEBRL
 * results are published (Splink's evaluation counts labelled pairs).
 */
import { confusionMetrics } from '../stats/confusion-metrics.ts';

export interface PairwiseQuality {
  readonly truePairs: number;
  readonly predictedPairs: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** The two record keys of a pair key. */
export function pairMembers(pair: string): [string, string] {
  const cut = pair.indexOf('\u0000');
  return [pair.slice(0, cut), pair.slice(cut + 1)];
}

export function pairsOfClusters(clusters: Iterable<readonly string[]>): Set<string> {
  const pairs = new Set<string>();
  for (const members of clusters) {
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) pairs.add(pairKey(members[i] ?? '', members[j] ?? ''));
    }
  }
  return pairs;
}

export function groupBy(assignments: Iterable<readonly [string, string]>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [member, group] of assignments) {
    const list = groups.get(group);
    if (list === undefined) groups.set(group, [member]);
    else list.push(member);
  }
  return groups;
}

export function pairwiseQuality(predicted: ReadonlySet<string>, truth: ReadonlySet<string>): PairwiseQuality {
  let tp = 0;
  for (const pair of predicted) if (truth.has(pair)) tp++;
  const fp = predicted.size - tp;
  const fn = truth.size - tp;
  const metrics = confusionMetrics({ tp, fp, fn, tn: 0 });
  return {
    truePairs: truth.size,
    predictedPairs: predicted.size,
    tp,
    fp,
    fn,
    precision: metrics.precision,
    recall: metrics.recall,
    f1: metrics.f1,
  };
}

export { pairKey };
