/** The console: the frame, the pushes wired into the data cache, and the page for the current route. */
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ConsoleStatus } from '../console-protocol/protocol.ts';
import { useClient, useSamples } from './client/context.tsx';
import { useConsoleStatus, usePushes } from './hooks/console-data.ts';
import { connectionKey } from './hooks/query-keys.ts';
import { useRoute, type Route } from './hooks/route.ts';
import { Shell } from './layout/shell.tsx';
import { PageErrorBoundary } from './layout/page-error-boundary.tsx';
import { MaintenancePage } from './pages/maintenance/maintenance-page.tsx';
import { IconAlert, IconRefresh } from './icons.tsx';

// The Maintenance list is the page people land on; the others load as their own chunks when first shown.
const SandboxesPage = lazy(() => import('./pages/connect/sandboxes-page.tsx'));
const JobDetailPage = lazy(() => import('./pages/maintenance/job-detail-page.tsx'));
const AssurancePage = lazy(() => import('./pages/assurance/assurance-page.tsx'));
const ReviewsPage = lazy(() => import('./pages/reviews/reviews-page.tsx'));
const ReviewCasePage = lazy(() => import('./pages/reviews/review-case-page.tsx'));
const IdentityPage = lazy(() => import('./pages/reviews/identity-page.tsx'));
const HealthPage = lazy(() => import('./pages/health/health-page.tsx'));

function PageLoading() {
  return (
    <Group gap="sm" p="md">
      <Loader size="sm" />
      <Text>Loading…</Text>
    </Group>
  );
}

function Page({ route, status }: { readonly route: Route; readonly status: ConsoleStatus }) {
  const connection = status.connection;
  // Without a connection there is nothing to maintain: every route leads to the sandboxes page.
  if (connection === null || route.page === 'sandboxes') return <SandboxesPage status={status} />;
  const key = connectionKey(status);
  if (route.page === 'assurance') return <AssurancePage key={key} connection={connection} connectionKey={key} />;
  if (route.page === 'reviews')
    return (
      <ReviewsPage
        key={`${key}:${route.jobId ?? ''}`}
        connection={connection}
        connectionKey={key}
        jobId={route.jobId}
      />
    );
  if (route.page === 'review')
    return (
      <ReviewCasePage
        key={`${key}:${route.caseId}`}
        connection={connection}
        connectionKey={key}
        caseId={route.caseId}
      />
    );
  if (route.page === 'health') return <HealthPage key={key} connection={connection} connectionKey={key} />;
  if (route.page === 'identity')
    return (
      <IdentityPage
        key={`${key}:${route.enterpriseId}`}
        connection={connection}
        connectionKey={key}
        enterpriseId={route.enterpriseId}
      />
    );
  if (route.page === 'job')
    return (
      <JobDetailPage key={`${key}:${route.jobId}`} connection={connection} connectionKey={key} jobId={route.jobId} />
    );
  return <MaintenancePage connection={connection} connectionKey={key} />;
}

export function App() {
  const client = useClient();
  const queryClient = useQueryClient();
  usePushes(client, queryClient, useSamples());
  const route = useRoute();
  const status = useConsoleStatus();

  if (status.isPending) {
    return (
      <Center h="100vh">
        <Group gap="sm">
          <Loader size="sm" />
          <Text>Connecting to the console…</Text>
        </Group>
      </Center>
    );
  }
  if (status.isError) {
    return (
      <Center h="100vh" p="lg">
        <Stack maw={560}>
          <Alert color="red" variant="light" icon={<IconAlert />} title="The console is not reachable">
            <Text size="sm">{status.error.message}</Text>
          </Alert>
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void status.refetch()}
            w="fit-content"
          >
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }
  // Without a connection every route shows the sandboxes page (Page), and it stays one page: choosing another in the
  // navigation meanwhile does not remount it and clear what the person typed.
  const shown: Route = status.data.connection === null ? { page: 'sandboxes' } : route;
  return (
    <Shell route={shown} connection={status.data.connection}>
      {/* Keyed by the route: choosing another page after a failure tries again. */}
      <PageErrorBoundary
        key={
          shown.page === 'job'
            ? `job:${shown.jobId}`
            : shown.page === 'review'
              ? `review:${shown.caseId}`
              : shown.page === 'identity'
                ? `identity:${shown.enterpriseId}`
                : shown.page
        }
      >
        <Suspense fallback={<PageLoading />}>
          <Page route={route} status={status.data} />
        </Suspense>
      </PageErrorBoundary>
    </Shell>
  );
}
