/** The one implementation lives in the contract, which the renderer shares (threshold curves): see there. */
export { assertConfusionCounts, type ConfusionCounts } from '../contract/statistics/confusion-counts.ts';
