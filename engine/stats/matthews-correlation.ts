/** The one implementation lives in the contract, which the renderer shares (threshold curves): see there. */
export { matthewsCorrelation } from '../contract/statistics/matthews-correlation.ts';
