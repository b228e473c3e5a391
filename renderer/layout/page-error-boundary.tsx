/**
 * A page that fails to load or to draw (its chunk no longer reachable because the console's backend stopped, or a
 * fault in the page) says so in plain words in the frame, instead of blanking the whole window; the navigation
 * stays usable, and moving to another page tries again.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { IconAlert, IconRefresh } from '../icons.tsx';

interface State {
  readonly failed: boolean;
}

export class PageErrorBoundary extends Component<{ readonly children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(_error: Error, _info: ErrorInfo): void {
    // Nothing is logged: the message may quote what the page was drawing.
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <Stack maw={640} data-testid="page-failed">
        <Alert color="red" variant="light" icon={<IconAlert />} title="This page could not be shown">
          <Text size="sm">
            The console's backend may have stopped, or the page met a fault. If you closed the console's window or its
            terminal, start it again (npm start, or the app), then reload. Other pages can still be chosen on the left.
          </Text>
        </Alert>
        <Button
          variant="light"
          leftSection={<IconRefresh size={16} />}
          w="fit-content"
          onClick={() => {
            globalThis.location.reload();
          }}
        >
          Reload
        </Button>
      </Stack>
    );
  }
}
