/** The engine's refusal of a request, with its issues (row errors by line) shown like the preview's. */
import { Alert, Text } from '@mantine/core';
import { ClientError } from '../../client/errors.ts';
import { IconAlert } from '../../icons.tsx';
import { IssuesTable } from './labels-panel.tsx';

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
