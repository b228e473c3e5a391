/** The phase pipeline: each phase in order with its status (icon and word), its work done and, when the population total is known, its share. */
import { useState } from 'react';
import { Anchor, Box, Group, Paper, Progress, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { JobPhase, JobState } from '../../../engine/contract/maintenance.ts';
import { formatCount, formatTimeSpan } from '../../format.ts';
import { PHASE_LABEL, PHASE_PURPOSE, phaseStatusText, progressOf } from './job-text.ts';
import { PHASE_COLOR, PHASE_ICON } from './status-badge.tsx';

/** Notes shown before "show all". */
const NOTES_SHOWN = 3;

export function PhasePipeline({ job }: { readonly job: JobState }) {
  const progress = progressOf(job);
  return (
    <SimpleGrid
      cols={{ base: 1, sm: job.phases.length }}
      spacing="sm"
      component="ol"
      aria-label="Phase pipeline"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
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
            style={
              phase.status === 'running' ? { borderColor: 'var(--mantine-color-blue-6)', borderWidth: 2 } : undefined
            }
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" color={PHASE_COLOR[phase.status]} radius="xl" size="lg" aria-hidden="true">
                {PHASE_ICON[phase.status](18)}
              </ThemeIcon>
              <Box style={{ flex: 1, minWidth: 0 }}>
                {/* The status goes under the name where the phase's box is narrow (three phases in a 960 px window). */}
                <Group justify="space-between" gap={4} style={{ rowGap: 0 }}>
                  <Text fw={600}>
                    {String(index + 1)}. {PHASE_LABEL[phase.name]}
                  </Text>
                  <Text
                    size="sm"
                    fw={500}
                    {...(phase.status === 'failed' ? { c: 'red.9' } : {})}
                    data-testid="phase-status"
                  >
                    {phaseStatusText(job, phase)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" mt={2}>
                  {phase.status === 'skipped' && phase.name === 'importing'
                    ? 'no external source: registry only'
                    : PHASE_PURPOSE[phase.name]}
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
                  <Progress
                    value={share * 100}
                    size="sm"
                    mt={6}
                    color={PHASE_COLOR[phase.status] === 'gray' ? 'indigo' : PHASE_COLOR[phase.status]}
                    aria-label={`${PHASE_LABEL[phase.name]} progress`}
                  />
                ) : null}
                {phase.status !== 'skipped' && <PhaseNotes phase={phase} />}
                {phase.startedAt !== null && (
                  <Text size="xs" c="dimmed" mt={6}>
                    {formatTimeSpan(phase.startedAt, phase.finishedAt)}
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

/** A phase's notes: the first few shown, the rest behind "show all"; what the phase concluded comes first. */
function PhaseNotes({ phase }: { readonly phase: JobPhase }) {
  const [all, setAll] = useState(false);
  const notes = phase.notes ?? (phase.note === null ? [] : [phase.note]);
  if (notes.length === 0) return null;
  const shown = all ? notes : notes.slice(0, NOTES_SHOWN);
  const hidden = notes.length - shown.length;
  return (
    <Box mt={6} data-testid="phase-notes">
      {shown.map((note, index) => (
        <Text key={`${String(index)}:${note}`} size="xs" style={{ unicodeBidi: 'isolate' }}>
          {note}
        </Text>
      ))}
      {hidden > 0 ? (
        <Anchor
          component="button"
          type="button"
          size="xs"
          onClick={() => {
            setAll(true);
          }}
        >
          Show all {String(notes.length)} notes
        </Anchor>
      ) : null}
      {(phase.notesNotKept ?? 0) > 0 ? (
        <Text size="xs" c="dimmed">
          {formatCount(phase.notesNotKept ?? 0)} more notes were not kept (a phase keeps 20 conclusions and 50 item
          notes).
        </Text>
      ) : null}
    </Box>
  );
}
