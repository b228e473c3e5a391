/** A page's one read, in its four states: not offered here (why, what to do), loading, failed (the error), or its content. */
import { Alert, Skeleton, Text } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { IconAlert, IconInfo } from '../../icons.tsx';

export function QueryState<T>({
  unavailable,
  unavailableTitle,
  failureTitle,
  query,
  children,
}: {
  readonly unavailable: string | null;
  readonly unavailableTitle: string;
  readonly failureTitle: string;
  readonly query: UseQueryResult<T>;
  readonly children: (data: T) => ReactNode;
}) {
  if (unavailable !== null) {
    return (
      <Note color="gray" variant="light" icon={<IconInfo />} title={unavailableTitle}>
        <Text size="sm">{unavailable}</Text>
      </Note>
    );
  }
  if (query.isPending) return <Skeleton height={320} />;
  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlert />} title={failureTitle} role="alert">
        <Text size="sm">{query.error.message}</Text>
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}
