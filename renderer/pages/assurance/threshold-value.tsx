/**
 * A threshold figure, shown large on the reports: as it is when short, "1 − 1e-15" for a cut fifteen nines up
 * (format.ts thresholdFigure), with the exact value in its title.
 */
import { Text } from '@mantine/core';
import { thresholdFigure } from '../../format.ts';

/** testId names the figure for the tests; a null threshold shows as a dash. */
export function ThresholdValue({ value, testId }: { readonly value: number | null; readonly testId: string }) {
  if (value === null)
    return (
      <Text fw={700} size="lg" data-testid={testId}>
        —
      </Text>
    );
  const { text, exact } = thresholdFigure(value);
  return (
    <Text fw={700} size="lg" data-testid={testId} title={text === exact ? undefined : `Exactly ${exact}`}>
      {text}
    </Text>
  );
}
