/** The active matching-profile, comparator and score-method versions: shown first, before any input. */
import { Alert, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import type { ProfileSummarySchema } from '../../../engine/contract/assurance.ts';
import { formatDateTime } from '../../format.ts';
import { IconAlert } from '../../icons.tsx';

type ProfileSummary = z.infer<typeof ProfileSummarySchema>;

function Item({ label, value, testId }: { readonly label: string; readonly value: string; readonly testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

export function VersionsCard({
  summary,
  error,
}: {
  readonly summary: ProfileSummary | undefined;
  readonly error: Error | null;
}) {
  if (error !== null) {
    return (
      <Alert color="red" variant="light" icon={<IconAlert />} title="The active versions could not be read">
        <Text size="sm">{error.message}</Text>
      </Alert>
    );
  }
  return (
    <Card withBorder padding="md" component="section" aria-label="Active versions">
      {summary === undefined ? (
        <Skeleton height={40} />
      ) : (
        <Group gap="xl" align="flex-start">
          <Item
            label="Matching profile"
            value={`version ${String(summary.matchingProfileVersion)}`}
            testId="profile-version"
          />
          <Item label="Comparators" value={summary.comparatorVersion} testId="comparator-version" />
          <Item
            label="Score method"
            value={`${summary.scoreMethod} ${summary.scoreMethodVersion}`}
            testId="score-method-version"
          />
          <Item
            label="Thresholds"
            value={`probable ${String(summary.thresholds.probable)} · certain ${String(summary.thresholds.certain)}`}
            testId="profile-thresholds"
          />
          <Stack gap={0} maw={360}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Since
            </Text>
            <Text size="sm">{formatDateTime(summary.createdAt)}</Text>
          </Stack>
        </Group>
      )}
    </Card>
  );
}
