/** The calibrated model's review band against the review budget: how many candidate pairs it sends to review. */
import { Text } from '@mantine/core';
import { rateText } from '../../../engine/contract/count-text.ts';
import type { LiveThresholds } from '../../../engine/contract/assurance.ts';

export function ReviewLoadCell({ load }: { readonly load: NonNullable<LiveThresholds['reviewLoad']> }) {
  const over = load.pairsPerThousandRecords > load.budgetPerThousandRecords;
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        Review load
      </Text>
      <Text fw={700} size="lg" data-testid="cal-live-review-load">
        {rateText(load.pairsPerThousandRecords)} per 1,000 records
      </Text>
      <Text size="xs" c="dimmed">
        {over
          ? `Over the budget of ${String(load.budgetPerThousandRecords)}: pairs the twin and name-evidence limits hold always go to review`
          : load.budgetRaisedProbable
            ? `Candidate pairs in the review band, kept within the budget of ${String(load.budgetPerThousandRecords)}: about ${rateText(load.unbudgetedPairsPerThousandRecords)} without it`
            : `Candidate pairs in the review band, within the budget of ${String(load.budgetPerThousandRecords)}`}
      </Text>
    </div>
  );
}
