/** Job and phase statuses: an icon and a word beside the colour, so colour never carries the meaning alone. */
import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';
import type { JobState, PhaseStatus } from '../../../engine/contract/maintenance.ts';
import {
  IconAlert,
  IconBan,
  IconCheck,
  IconCircleDashed,
  IconClock,
  IconPause,
  IconPlay,
  IconSkip,
  IconX,
} from '../../icons.tsx';
import { STATUS_COLOR, STATUS_LABEL } from './job-text.ts';

const JOB_ICON: Record<JobState['status'], ReactNode> = {
  queued: <IconClock size={12} />,
  running: <IconPlay size={12} />,
  completed: <IconCheck size={12} />,
  cancelled: <IconBan size={12} />,
  failed: <IconX size={12} />,
  stopped: <IconPause size={12} />,
};

export function JobStatusBadge({
  job,
  size = 'md',
}: {
  readonly job: Pick<JobState, 'status' | 'cancelRequested'>;
  readonly size?: 'sm' | 'md' | 'lg';
}) {
  const cancelling = job.status === 'running' && job.cancelRequested;
  return (
    <Badge
      size={size}
      radius="sm"
      variant="light"
      color={cancelling ? 'orange' : STATUS_COLOR[job.status]}
      leftSection={cancelling ? <IconAlert size={12} /> : JOB_ICON[job.status]}
      data-status={job.status}
      style={{ overflow: 'visible', flexShrink: 0 }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {cancelling ? 'Cancelling' : STATUS_LABEL[job.status]}
    </Badge>
  );
}

export const PHASE_ICON: Record<PhaseStatus, (size: number) => ReactNode> = {
  pending: (size) => <IconCircleDashed size={size} />,
  running: (size) => <IconPlay size={size} />,
  completed: (size) => <IconCheck size={size} />,
  skipped: (size) => <IconSkip size={size} />,
  cancelled: (size) => <IconBan size={size} />,
  failed: (size) => <IconX size={size} />,
  stopped: (size) => <IconPause size={size} />,
};

export const PHASE_COLOR: Record<PhaseStatus, string> = {
  pending: 'gray',
  running: 'blue',
  completed: 'teal',
  skipped: 'gray',
  cancelled: 'gray',
  failed: 'red',
  stopped: 'orange',
};
