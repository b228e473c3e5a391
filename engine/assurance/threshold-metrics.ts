/** The one implementation lives in the contract, which the console's threshold curves share: see there. */
export { countsAt, metricsOfCounts, thresholdMetrics } from '../contract/statistics/threshold-metrics.ts';
