/** The renderer's entry: one client over whichever transport this window has (IPC in Electron, HTTP in a browser). */
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { ConsoleClient } from './client/client.ts';
import { ConsoleServicesProvider } from './client/context.tsx';
import { httpTransport } from './client/http-transport.ts';
import { ipcTransport } from './client/ipc-transport.ts';
import { TaskSlots } from './hooks/task-slots.ts';
import { ThroughputSamples } from './hooks/throughput.ts';
import { cssVariablesResolver, theme } from './theme.ts';

const client = new ConsoleClient(window.mpiConsole === undefined ? httpTransport() : ipcTransport(window.mpiConsole));
// The long operations the pages start, followed for the whole session (leaving a page does not lose them).
const tasks = new TaskSlots(client);
// Pushes keep the data fresh: no refetching on focus, and errors are shown at once with a way to retry.
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false } },
});

const root = document.getElementById('root');
if (root === null) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ConsoleServicesProvider client={client} samples={new ThroughputSamples()} tasks={tasks}>
          <App />
        </ConsoleServicesProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
