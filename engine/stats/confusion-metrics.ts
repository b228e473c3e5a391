/** The one implementation lives in the contract, which the renderer shares (threshold curves): see there. */
export {
  confusionMetrics,
  type ConfusionCounts,
  type ConfusionMetrics,
} from '../contract/statistics/confusion-metrics.ts';
