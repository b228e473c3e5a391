/**
 * The frame of every page: a header naming the product and the current connection (sandbox file, tenant,
 * worker), and a navigation: Maintenance, Review cases, Match assurance, Health, Sandboxes.
 */
import { AppShell, Badge, Box, Burger, Group, NavLink, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { Connection } from '../../console-protocol/protocol.ts';
import { IconAlert, IconChart, IconCloud, IconDatabase, IconHeart, IconTool, IconUsers } from '../icons.tsx';
import { paths, type Route } from '../hooks/route.ts';

function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

type LocalConnection = Extract<Connection, { kind: 'local-sandbox' }>;
type RemoteConnection = Extract<Connection, { kind: 'remote-registry' }>;

function WorkerBadge({ connection }: { readonly connection: LocalConnection }) {
  const { worker } = connection;
  if (worker.state === 'running' || worker.state === 'starting') {
    return (
      <Badge variant="light" color="teal" radius="sm">
        Worker {worker.state === 'running' ? 'running' : 'starting'}
      </Badge>
    );
  }
  const label =
    worker.state === 'disabled' ? 'Worker disabled' : worker.state === 'failed' ? 'Worker failed' : 'Worker stopped';
  return (
    <Tooltip label={worker.message ?? label} multiline w={320} withArrow>
      <Badge variant="light" color="orange" radius="sm" leftSection={<IconAlert size={12} />} tabIndex={0}>
        {label}
      </Badge>
    </Tooltip>
  );
}

function RemoteSummary({ connection }: { readonly connection: RemoteConnection }) {
  const host = new URL(connection.baseUrl).host;
  return (
    <Group gap="sm" wrap="nowrap" aria-label="Current connection">
      <Badge variant="outline" radius="sm" leftSection={<IconCloud size={12} />}>
        Remote registry
      </Badge>
      <Tooltip label={connection.baseUrl} withArrow>
        <Text size="sm" fw={500} truncate="end" maw={220} tabIndex={0} data-testid="connection-registry">
          {host}
        </Text>
      </Tooltip>
      <Text size="sm" c="dimmed" visibleFrom="sm">
        Tenant{' '}
        <Text span fw={600} c="var(--mantine-color-text)">
          {connection.tenantId}
        </Text>
      </Text>
      <Text size="sm" c="dimmed" visibleFrom="md" data-testid="connection-identity">
        {connection.identity ?? connection.actor}
      </Text>
    </Group>
  );
}

export function ConnectionSummary({ connection }: { readonly connection: Connection | null }) {
  if (connection === null) {
    return (
      <Text size="sm" c="dimmed">
        Not connected
      </Text>
    );
  }
  if (connection.kind === 'remote-registry') return <RemoteSummary connection={connection} />;
  return (
    <Group gap="sm" wrap="nowrap" aria-label="Current connection">
      <Badge variant="outline" radius="sm" leftSection={<IconDatabase size={12} />}>
        Local sandbox
      </Badge>
      <Tooltip label={connection.path} withArrow>
        <Text size="sm" fw={500} truncate="end" maw={260} tabIndex={0} data-testid="connection-path">
          {fileName(connection.path)}
        </Text>
      </Tooltip>
      <Text size="sm" c="dimmed" visibleFrom="sm">
        Tenant{' '}
        <Text span fw={600} c="var(--mantine-color-text)">
          {connection.tenantId}
        </Text>
      </Text>
      <Box visibleFrom="md">
        <WorkerBadge connection={connection} />
      </Box>
    </Group>
  );
}

/** Mantine dims the description of the active link below AA contrast; it stays at the secondary-text colour. */
const NAV_STYLES = { description: { color: 'var(--mantine-color-dimmed)', opacity: 1 } } as const;

/** The navigation, in order: each entry with the routes it stays highlighted on. */
const PAGES: readonly {
  href: string;
  label: string;
  description: string;
  icon: ReactNode;
  pages: readonly Route['page'][];
}[] = [
  {
    href: paths.maintenance,
    label: 'Maintenance',
    description: 'Re-index and reconciliation',
    icon: <IconTool />,
    pages: ['maintenance', 'job'],
  },
  {
    href: paths.reviews(),
    label: 'Review cases',
    description: 'Pairs waiting for a person',
    icon: <IconUsers />,
    pages: ['reviews', 'review', 'identity'],
  },
  {
    href: paths.assurance,
    label: 'Match assurance',
    description: 'Labels, evaluation, calibration, estimate',
    icon: <IconChart />,
    pages: ['assurance'],
  },
  {
    href: paths.health,
    label: 'Health',
    description: 'Figures over time, drift',
    icon: <IconHeart />,
    pages: ['health'],
  },
  {
    href: paths.sandboxes,
    label: 'Sandboxes',
    description: 'Local sandbox or registry',
    icon: <IconDatabase />,
    pages: ['sandboxes'],
  },
];

export function Shell({
  route,
  connection,
  children,
}: {
  readonly route: Route;
  readonly connection: Connection | null;
  readonly children: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} size="lg" component="span">
              MPI Console
            </Text>
          </Group>
          <ConnectionSummary connection={connection} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Pages">
        {PAGES.map((page) => {
          const active = page.pages.includes(route.page);
          return (
            <NavLink
              key={page.label}
              href={page.href}
              label={page.label}
              description={page.description}
              leftSection={page.icon}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={close}
              styles={NAV_STYLES}
            />
          );
        })}
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">{children}</AppShell.Main>
    </AppShell>
  );
}
