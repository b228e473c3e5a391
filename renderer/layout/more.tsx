/**
 * Reasoning an analyst may want but need not read to act, folded under one line that says what it holds: the native
 * details element, so the keyboard (Enter, Space) and screen readers know how to open it, and the browser's find
 * searches it. The page's verdicts and figures stay outside it.
 */
import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function More({
  summary,
  children,
  testId,
}: {
  readonly summary: string;
  readonly children: ReactNode;
  readonly testId?: string;
}) {
  return (
    <Box component="details" mb="sm" data-testid={testId}>
      <Text component="summary" size="sm" fw={500} c="blue.9" style={{ cursor: 'pointer' }}>
        {summary}
      </Text>
      <Box mt={6}>{children}</Box>
    </Box>
  );
}
