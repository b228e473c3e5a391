/**
 * The link-quality scan from the Review cases page: started as a task (progress, Cancel), then what it found, by
 * flag, with the most doubtful identity as a small record graph. Each flagged identity is a LinkQuality case
 * in the list below; the scan never unlinks anything.
 */
import { Alert, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LINK_FLAG_NAME, LINK_FLAG_TEXT, LINK_FLAGS } from '../../../engine/contract/link-quality.ts';
import { useTask } from '../../hooks/task.ts';
import { formatCount, formatCountOf } from '../../format.ts';
import { IconAlert } from '../../icons.tsx';
import { TaskProgress } from '../assurance/task-progress.tsx';
import { RecordGraph } from './record-graph.tsx';
import { keys } from '../../hooks/query-keys.ts';
import { rateText } from '../../../engine/contract/count-text.ts';

export function LinkQualityCard({
  connectionKey,
  onShowCases,
}: {
  readonly connectionKey: string;
  readonly onShowCases: () => void;
}) {
  const queryClient = useQueryClient();
  const scan = useTask('links/scan', () => {
    void queryClient.invalidateQueries({ queryKey: keys.reviews(connectionKey) });
  });
  const report = scan.data;
  const worst = report?.identities[0];
  return (
    <Card
      withBorder
      padding="md"
      bg="var(--mantine-color-white)"
      component="section"
      aria-labelledby="link-quality-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={2} size="h4" id="link-quality-title">
              Link quality of existing identities
            </Title>
            <Text size="sm" c="dimmed" mt={4} maw={760}>
              Compares the records inside every identity that holds two or more, under the active profile, and flags
              what looks like a wrong link: records that only a weak link holds together, one source twice, conflicting
              sex or birth dates, an identity too large for one person. Each flagged identity becomes a Link quality
              case below. Nothing is unlinked.
            </Text>
          </div>
          <Button
            onClick={() => {
              scan.start({});
            }}
            loading={scan.isPending}
            disabled={scan.isPending}
          >
            Scan identities
          </Button>
        </Group>
        <TaskProgress task={scan} what="scan" />
        {scan.error !== null ? (
          <Alert color="red" variant="light" icon={<IconAlert />} title="The scan did not finish" role="alert">
            <Text size="sm">{scan.error.message}</Text>
          </Alert>
        ) : null}
        {report === undefined ? null : (
          <Stack gap="sm" data-testid="link-quality-report">
            <Text size="sm" role="status">
              {formatCount(report.identitiesWithSeveralRecords)} identities with two or more records compared (
              {formatCount(report.pairsScored)} pairs): <b>{formatCount(report.flagged)} flagged</b>
              {report.flaggedPerThousand === null ? '' : ` (${rateText(report.flaggedPerThousand)} per 1,000)`},{' '}
              {formatCountOf(report.casesOpened, 'new case')} opened.
            </Text>
            <Table aria-label="Flagged identities by flag" maw={900}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Flag</Table.Th>
                  <Table.Th>Identities</Table.Th>
                  <Table.Th>Meaning</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {LINK_FLAGS.map((flag) => (
                  <Table.Tr key={flag}>
                    <Table.Td>{LINK_FLAG_NAME[flag]}</Table.Td>
                    <Table.Td>{formatCount(report.byFlag[flag])}</Table.Td>
                    <Table.Td>{LINK_FLAG_TEXT[flag]}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {worst === undefined ? null : (
              <Stack gap={4}>
                <Text size="sm" fw={600}>
                  The most doubtful identity: {worst.flags.map((f) => LINK_FLAG_NAME[f].toLowerCase()).join(', ')};
                  weakest link {worst.weakestLink === null ? '—' : worst.weakestLink.toFixed(4)}
                </Text>
                <RecordGraph records={worst.records} edges={worst.edges} probable={report.probableThreshold} />
              </Stack>
            )}
            {report.flagged > 0 ? (
              <Group>
                <Button variant="light" onClick={onShowCases}>
                  Show the link quality cases
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
