/** The one implementation lives in the contract, which the renderer shares (threshold curves): see there. */
export { wilsonInterval } from '../contract/statistics/wilson-interval.ts';
