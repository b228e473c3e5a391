/** The calibrated model's review band against the review budget: how many candidate pairs it sends to review. */
import { Text } from '@mantine/core';
import { rateText } from '../../../engine/contract/count-text.ts';
import { reviewLoadState } from '../../../engine/contract/review-load.ts';
import type { LiveThresholds } from '../../../engine/contract/assurance.ts';

export function ReviewLoadCell({ load }: { readonly load: NonNullable<LiveThresholds['reviewLoad']> }) {
  const budget = String(load.budgetPerThousandRecords);
  const note = {
    over: `Over the budget of ${budget}: pairs the twin and name-evidence limits hold always go to review`,
    stopped: `Candidate pairs in the review band, kept within the budget of ${budget}: about ${rateText(load.unbudgetedPairsPerThousandRecords)} without it`,
    within: `Candidate pairs in the review band, within the budget of ${budget}`,
  }[reviewLoadState(load)];
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        Review load
      </Text>
      <Text fw={700} size="lg" data-testid="cal-live-review-load">
        {rateText(load.pairsPerThousandRecords)} per 1,000 records
      </Text>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </div>
  );
}
