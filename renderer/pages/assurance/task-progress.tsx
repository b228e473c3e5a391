/**
 * A long operation while it runs: what it is doing, how far (a bar only when the total is known), for how long, how
 * long its running step has left at its pace so far (step-estimate.ts), and a Cancel button; after a cancel, that
 * nothing was written. Announced politely to screen readers.
 */
import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { RunOperation } from '../../../engine/contract/runs.ts';
import { formatCount, formatRemaining } from '../../format.ts';
import type { Task } from '../../hooks/task.ts';
import { useStepRemaining } from './use-step-remaining.ts';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';

function elapsed(since: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(since)) / 1000));
  return seconds < 60 ? `${String(seconds)} s` : `${String(Math.floor(seconds / 60))} min ${String(seconds % 60)} s`;
}

export function TaskProgress<K extends RunOperation>({
  task,
  what,
}: {
  readonly task: Task<K>;
  readonly what: string;
}) {
  const { now, remainingMs } = useStepRemaining(task.isPending, task.startedAt ?? '', task.progress);
  if (task.cancelled) {
    return (
      <Text size="sm" c="dimmed" role="status" data-testid="task-cancelled">
        The {what} was cancelled; nothing was written.
      </Text>
    );
  }
  if (!task.isPending) return null;
  const progress = task.progress;
  const share =
    progress !== null && progress.total !== null && progress.total > 0
      ? Math.min(1, progress.done / progress.total)
      : null;
  return (
    <Stack gap={6} role="status" aria-live="polite" data-testid="task-progress">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">
          {progress === null ? `Starting the ${what}…` : sentenceStart(progress.phase)}
          {progress !== null && progress.total !== null
            ? ` · ${formatCount(progress.done)} of ${formatCount(progress.total)}`
            : ''}
          {task.startedAt === null ? '' : ` · ${elapsed(task.startedAt, now)}`}
          {remainingMs === null ? '' : ` · ${formatRemaining(remainingMs)} left in this step at its pace so far`}
        </Text>
        <Button size="xs" variant="default" onClick={task.cancel} data-testid="task-cancel">
          Cancel
        </Button>
      </Group>
      {share === null ? null : <Progress value={share * 100} size="sm" aria-label={`${what} progress`} />}
      <Text size="xs" c="dimmed">
        It runs in the engine, not in this window: other pages keep working meanwhile.
      </Text>
    </Stack>
  );
}
