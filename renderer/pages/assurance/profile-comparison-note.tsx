/**
 * The calibrated model against the active profile on the same unseen labelled pairs
 * (engine/assurance/profile-comparison.ts): a warning to keep the profile when the model does no better at Certain,
 * else one line of the two side by side.
 */
import { Alert, Text } from '@mantine/core';
import type { LiveThresholds } from '../../../engine/contract/assurance.ts';
import { IconAlert } from '../../icons.tsx';
import { thresholdFigure } from '../../format.ts';
import { fixed3 } from './metric-text.ts';

export function ProfileComparisonNote({ live }: { readonly live: LiveThresholds }) {
  const against = live.againstProfile;
  if (against == null) return null;
  const side = (name: string, certain: number, point: LiveThresholds['atCertain']): string =>
    `${name} at Certain ${thresholdFigure(certain).text}: recall ${fixed3(point.recall)}, precision at least ${fixed3(point.precisionLowerBound ?? null)}`;
  const figures = `${side('The active profile', against.Certain, against.atCertain)}; ${side('this model', live.Certain, live.atCertain)} (live, with 95% confidence).`;
  if (!against.keepProfile)
    return (
      <Text size="sm" mb="sm" data-testid="cal-against-profile">
        On the same labelled pairs the model never learned from, it links more true pairs than the active profile or
        shows more precision. {figures}
      </Text>
    );
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlert />}
      title="Keep the active profile"
      mb="sm"
      data-testid="cal-against-profile"
    >
      On the same labelled pairs the model never learned from, it links no more true pairs than the profile matching
      today and shows no more precision. {figures} Applying it would not improve live matching: label more pairs, or
      pairs nearer the registry&apos;s own, before calibrating again.
    </Alert>
  );
}
