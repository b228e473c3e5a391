/** The phase pipeline: each phase in order with its status (icon and word), its work done and, when the population total is known, its share. */
import { Box, Group, Paper, Progress, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { JobState } from '../../../engine/contract/maintenance.ts';
import { formatCount, formatDateTime } from '../../format.ts';
import { PHASE_LABEL, PHASE_PURPOSE, phaseStatusText, progressOf } from './job-text.ts';
import { PHASE_COLOR, PHASE_ICON } from './status-badge.tsx';

export function PhasePipeline({ job }: { readonly job: JobState }) {
  const progress = progressOf(job);
  return (
    <SimpleGrid cols={{ base: 1, sm: job.phases.length }} spacing="sm" component="ol" aria-label="Phase pipeline" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {job.phases.map((phase, index) => {
        const share = progress?.phases.get(phase.name);
        return (
          <Paper
            component="li"
            key={phase.name}
            withBorder
            p="md"
            radius="md"
            data-phase={phase.name}
            data-phase-status={phase.status}
            aria-label={`Phase ${String(index + 1)} of ${String(job.phases.length)}: ${PHASE_LABEL[phase.name]}, ${phaseStatusText(job, phase)}`}
            style={phase.status === 'running' ? { borderColor: 'var(--mantine-color-blue-6)', borderWidth: 2 } : undefined}
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" color={PHASE_COLOR[phase.status]} radius="xl" size="lg" aria-hidden="true">
                {PHASE_ICON[phase.status](18)}
              </ThemeIcon>
              <Box style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" gap={4} wrap="nowrap">
                  <Text fw={600}>
                    {String(index + 1)}. {PHASE_LABEL[phase.name]}
                  </Text>
                  <Text size="sm" fw={500} {...(phase.status === 'failed' ? { c: 'red.9' } : {})} data-testid="phase-status">
                    {phaseStatusText(job, phase)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" mt={2}>
                  {phase.status === 'skipped' && phase.name === 'importing' ? 'no external source: registry only' : PHASE_PURPOSE[phase.name]}
                </Text>
                {phase.status !== 'skipped' && (
                  <Text size="sm" mt={8}>
                    <Text span fw={600} data-testid="phase-processed">
                      {formatCount(phase.processed)}
                    </Text>{' '}
                    identities processed
                  </Text>
                )}
                {share !== undefined && phase.status !== 'skipped' ? (
                  <Progress value={share * 100} size="sm" mt={6} color={PHASE_COLOR[phase.status] === 'gray' ? 'indigo' : PHASE_COLOR[phase.status]} aria-label={`${PHASE_LABEL[phase.name]} progress`} />
                ) : null}
                {phase.note !== null && phase.status !== 'skipped' && (
                  <Text size="xs" mt={6}>
                    {phase.note}
                  </Text>
                )}
                {phase.startedAt !== null && (
                  <Text size="xs" c="dimmed" mt={6}>
                    {formatDateTime(phase.startedAt)}
                    {phase.finishedAt !== null ? ` → ${formatDateTime(phase.finishedAt)}` : ''}
                  </Text>
                )}
              </Box>
            </Group>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
