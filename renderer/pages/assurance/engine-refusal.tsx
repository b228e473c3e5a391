/** The engine's refusal of a request, with its issues (row errors by line) shown like the preview's. */
import { Alert, Text } from '@mantine/core';
import { ClientError } from '../../client/errors.ts';
import { IconAlert } from '../../icons.tsx';
import type { RunOperation } from '../../../engine/contract/runs.ts';
import type { Task } from '../../hooks/task.ts';
import { IssuesTable } from './labels-panel.tsx';
import { TaskProgress } from './task-progress.tsx';

export function EngineRefusal({ title, error }: { readonly title: string; readonly error: Error }) {
  const issues = error instanceof ClientError ? error.issues : [];
  return (
    <Alert color="red" variant="light" icon={<IconAlert />} title={title} data-testid="engine-refusal">
      <Text size="sm" mb={issues.length > 0 ? 'sm' : 0}>
        {error.message}
      </Text>
      {issues.length > 0 ? <IssuesTable issues={issues} label="The engine's errors by line" /> : null}
    </Alert>
  );
}

/**
 * A long operation's progress while it runs, then the engine's answer if it failed: refused (the request was
 * invalid) or not completed (anything else).
 */
export function TaskOutcome<K extends RunOperation>({ task, what }: { readonly task: Task<K>; readonly what: string }) {
  return (
    <>
      <div style={{ marginTop: 12 }}>
        <TaskProgress task={task} what={what} />
      </div>
      {task.error !== null ? (
        <div style={{ marginTop: 12 }}>
          <EngineRefusal
            title={task.error.kind === 'validation' ? `The engine refused the ${what}` : `The ${what} did not complete`}
            error={task.error}
          />
        </div>
      ) : null}
    </>
  );
}
