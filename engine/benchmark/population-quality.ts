import type { EngineClient, CallContext, OperationOutput } from '../contract/operations.ts';
import { groupBy, pairKey, pairsOfClusters, pairwiseQuality, type PairwiseQuality } from './pairwise.ts';

export interface PopulationQuality {
  readonly records: number;
  readonly identities: number;
  readonly reviewCases: number;
  /** Open review cases that join two identities holding a true pair (a review worth a person's time). */
  readonly reviewCasesJoiningTruePair: number;
  /** Pairs placed in one identity by automatic linking. */
  readonly autoLinks: PairwiseQuality;
  /** Auto-links plus every record pair across the two identities of an open review case. */
  readonly autoLinksAndReviews: PairwiseQuality;
}

const REVIEW_PAGE = 1000;

export const refKey = (sourceSystem: string, localId: string): string => `${sourceSystem}/${localId}`;

/**
 * The record a refKey names. Split at the last slash: a source system may be a URI holding slashes, a FHIR id never
 * holds one.
 */
export function refOfKey(key: string): { sourceSystem: string; localId: string } {
  const slash = key.lastIndexOf('/');
  return { sourceSystem: key.slice(0, slash), localId: key.slice(slash + 1) };
}

/** Every open review case of the tenant, page by page. */
export async function openReviewCases(
  engine: EngineClient,
  ctx: CallContext,
): Promise<OperationOutput<'reviews/list'>['rows']> {
  const cases = [];
  for (let offset = 0; ; offset += REVIEW_PAGE) {
    const page = await engine.call('reviews/list', { status: 'open', limit: REVIEW_PAGE, offset }, ctx);
    cases.push(...page.rows);
    if (page.rows.length < REVIEW_PAGE) return cases;
  }
}

/** Scores a tenant's identities and open review cases against ground truth (record key → true entity). */
export async function populationQuality(
  engine: EngineClient,
  ctx: CallContext,
  truth: ReadonlyMap<string, string>,
): Promise<PopulationQuality> {
  const { rows } = await engine.call('identities/list', { limit: 1_000_000, offset: 0 }, ctx);
  const clusters = groupBy(rows.map((r) => [refKey(r.sourceSystem, r.localId), r.enterpriseId] as const));
  const predicted = pairsOfClusters(clusters.values());
  const truePairs = pairsOfClusters(groupBy([...truth.entries()]).values());
  const reviews = await openReviewCases(engine, ctx);
  const withReviews = new Set(predicted);
  let reviewCasesJoiningTruePair = 0;
  for (const c of reviews) {
    let joinsTruePair = false;
    for (const a of clusters.get(c.leftEnterpriseId) ?? []) {
      for (const b of clusters.get(c.rightEnterpriseId) ?? []) {
        withReviews.add(pairKey(a, b));
        if (truePairs.has(pairKey(a, b))) joinsTruePair = true;
      }
    }
    if (joinsTruePair) reviewCasesJoiningTruePair++;
  }
  return {
    records: rows.length,
    identities: clusters.size,
    reviewCases: reviews.length,
    reviewCasesJoiningTruePair,
    autoLinks: pairwiseQuality(predicted, truePairs),
    autoLinksAndReviews: pairwiseQuality(withReviews, truePairs),
  };
}
