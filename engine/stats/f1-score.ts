/** The one implementation lives in the contract, which the renderer shares (threshold curves): see there. */
export { f1Score } from '../contract/statistics/f1-score.ts';
