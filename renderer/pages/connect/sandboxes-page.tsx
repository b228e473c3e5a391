/**
 * Sandboxes: create a local sandbox with synthetic people (first run lands here), open an existing file,
 * or reopen a recent one. Only synthetic people are ever generated.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useRef, useState, type SyntheticEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  MAX_SYNTHETIC_PEOPLE,
  type ConsoleStatus,
  type RecentSandbox,
  type SandboxProgress,
} from '../../../console-protocol/protocol.ts';
import { useClient } from '../../client/context.tsx';
import { ClientError, errorMessage, formRefusalText } from '../../client/errors.ts';
import { keys } from '../../hooks/query-keys.ts';
import { currentHash, navigateUnlessMoved, paths } from '../../hooks/route.ts';
import { formatCount, formatRemaining } from '../../format.ts';
import { IconAlert, IconFolder, IconPlus } from '../../icons.tsx';
import { RegistryCard } from './registry-card.tsx';
import { useStepRemaining } from '../assurance/use-step-remaining.ts';
import { TableDate } from '../../layout/table-date.tsx';

/** The forms' fields by the paths the backend's refusals name. */
const CREATE_FIELDS = { folder: 'Folder', fileName: 'File name', syntheticPeople: 'Synthetic people', seed: 'Seed' };
const OPEN_FIELDS = { path: 'Sandbox file', tenantId: 'Tenant' };

const STAGE_TEXT: Record<SandboxProgress['stage'], string> = {
  preparing: 'Preparing the sandbox file…',
  generating: 'Generating synthetic people…',
  ingesting: 'Ingesting and matching records…',
  finishing: 'Opening the sandbox…',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function CreationProgress({
  progress,
  cancelling,
  onCancel,
}: {
  readonly progress: SandboxProgress;
  readonly cancelling: boolean;
  readonly onCancel: () => void;
}) {
  // The time left at the stage's pace so far, as a task's step shows it.
  const { remainingMs } = useStepRemaining(true, progress.path, {
    phase: progress.stage,
    done: progress.done,
    total: progress.total,
  });
  const known = progress.total > 0;
  const value = known ? Math.round((100 * progress.done) / progress.total) : 0;
  return (
    <Stack gap={6} aria-live="polite" data-testid="sandbox-creation">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={500}>
          {STAGE_TEXT[progress.stage]}
        </Text>
        <Button size="xs" variant="default" onClick={onCancel} loading={cancelling} disabled={cancelling}>
          Cancel
        </Button>
      </Group>
      {known ? (
        <>
          <Progress value={value} size="lg" aria-label="Sandbox creation progress" />
          <Text size="sm" c="dimmed">
            {formatCount(progress.done)} of {formatCount(progress.total)} records ({value}%)
            {remainingMs === null ? '' : ` · ${formatRemaining(remainingMs)} left at its pace so far`}
          </Text>
        </>
      ) : (
        <Progress value={100} striped animated size="lg" aria-label="Sandbox creation under way" />
      )}
    </Stack>
  );
}

/** sandbox.db, else sandbox-2.db, … : the first name no recent sandbox in the default folder uses. */
function freeFileName(status: ConsoleStatus): string {
  const taken = new Set(status.recent.filter((entry) => entry.exists).map((entry) => entry.path));
  const separator = status.defaultFolder.includes('\\') ? '\\' : '/';
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'sandbox.db' : `sandbox-${String(n)}.db`;
    if (!taken.has(`${status.defaultFolder}${separator}${name}`)) return name;
  }
}

function CreateSandboxCard({ status }: { readonly status: ConsoleStatus }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [folder, setFolder] = useState(status.defaultFolder);
  const [fileName, setFileName] = useState(() => freeFileName(status));
  const [people, setPeople] = useState<number | string>(1000);
  const [seed, setSeed] = useState<number | string>(7);
  const [error, setError] = useState<ClientError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  // A cancel asked for: the creation's refusal that follows is the cancel, not a failure.
  const cancelAsked = useRef(false);
  const [cancelling, setCancelling] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const creating = status.creating;

  const askedToCancel = (): boolean => cancelAsked.current;

  const cancel = async (): Promise<void> => {
    cancelAsked.current = true;
    setCancelling(true);
    try {
      await client.send('console/cancel-sandbox', {});
      // A creation this page did not start (it was reloaded meanwhile) has no call here to be refused: say it now.
      if (!busy) setCancelled(true);
    } catch (caught) {
      cancelAsked.current = false;
      setError(caught instanceof Error ? caught : new Error(errorMessage(caught)));
    } finally {
      setCancelling(false);
    }
  };

  const peopleError =
    typeof people !== 'number' || !Number.isInteger(people) || people < 0 || people > MAX_SYNTHETIC_PEOPLE
      ? `a whole number from 0 to ${formatCount(MAX_SYNTHETIC_PEOPLE)}`
      : undefined;
  const seedError =
    typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 ? 'a whole number, 0 or more' : undefined;
  const fieldError = (path: string): string | undefined =>
    error instanceof ClientError ? error.issueFor(path) : undefined;

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    if (peopleError !== undefined || seedError !== undefined) return;
    setBusy(true);
    setError(null);
    setCancelled(false);
    cancelAsked.current = false;
    const from = currentHash();
    try {
      const next = await client.send('console/create-sandbox', {
        folder,
        fileName,
        syntheticPeople: Number(people),
        seed: Number(seed),
      });
      queryClient.setQueryData(keys.status, next);
      navigateUnlessMoved(from, paths.maintenance);
    } catch (caught) {
      // Read through a function: the cancel was asked for while the call awaited, which narrowing cannot see.
      if (askedToCancel()) setCancelled(true);
      else setError(caught instanceof Error ? caught : new Error(errorMessage(caught)));
    } finally {
      cancelAsked.current = false;
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="create-sandbox-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="create-sandbox-title">
            Create a local sandbox
          </Title>
          <Text size="sm" c="dimmed">
            A SQLite registry on this computer with seeded synthetic people across four sources, ready for maintenance
            jobs.
          </Text>
        </div>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Folder"
              description="Where the sandbox file and its configuration file go"
              value={folder}
              onChange={(event) => {
                setFolder(event.currentTarget.value);
              }}
              leftSection={<IconFolder size={16} />}
              error={fieldError('folder')}
              required
            />
            <TextInput
              label="File name"
              value={fileName}
              onChange={(event) => {
                setFileName(event.currentTarget.value);
              }}
              error={fieldError('fileName')}
              required
            />
            <Group grow align="flex-start">
              <NumberInput
                label="Synthetic people"
                description={`From 0 to ${formatCount(MAX_SYNTHETIC_PEOPLE)}`}
                value={people}
                onChange={setPeople}
                min={0}
                max={MAX_SYNTHETIC_PEOPLE}
                step={500}
                allowDecimal={false}
                thousandSeparator=","
                error={peopleError ?? fieldError('syntheticPeople')}
                clampBehavior="none"
              />
              <NumberInput
                label="Seed"
                description="Same seed, same people"
                value={seed}
                onChange={setSeed}
                min={0}
                allowDecimal={false}
                error={seedError ?? fieldError('seed')}
                clampBehavior="none"
              />
            </Group>
            {error !== null && (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The sandbox was not created">
                {formRefusalText(error, CREATE_FIELDS, 'create the sandbox')}
              </Alert>
            )}
            {cancelled && creating === null ? (
              <Text size="sm" c="dimmed" role="status" data-testid="sandbox-cancelled">
                The sandbox creation was cancelled: its partial file was removed, so nothing was kept.
              </Text>
            ) : null}
            {creating !== null ? (
              <CreationProgress
                progress={creating}
                cancelling={cancelling}
                onCancel={() => {
                  void cancel();
                }}
              />
            ) : null}
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconPlus size={16} />}
                loading={busy || creating !== null}
                disabled={peopleError !== undefined || seedError !== undefined}
              >
                Create sandbox
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}

function OpenSandboxCard({ status }: { readonly status: ConsoleStatus }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [path, setPath] = useState('');
  const [tenantId, setTenantId] = useState('');
  const [error, setError] = useState<ClientError | Error | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const open = async (target: string, tenant: string | undefined): Promise<void> => {
    setBusy(target);
    setError(null);
    const from = currentHash();
    try {
      const next = await client.send('console/open-sandbox', {
        path: target,
        ...(tenant === undefined || tenant === '' ? {} : { tenantId: tenant }),
      });
      queryClient.setQueryData(keys.status, next);
      navigateUnlessMoved(from, paths.maintenance);
    } catch (caught) {
      setError(caught instanceof Error ? caught : new Error(errorMessage(caught)));
    } finally {
      setBusy(null);
    }
  };
  const fieldError = (field: string): string | undefined =>
    error instanceof ClientError ? error.issueFor(field) : undefined;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="open-sandbox-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="open-sandbox-title">
            Open a sandbox
          </Title>
          <Text size="sm" c="dimmed">
            A registry file made by this console or by <code>mpi-console sandbox init</code>.
          </Text>
        </div>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void open(path, tenantId);
          }}
          noValidate
        >
          <Stack gap="sm">
            <TextInput
              label="Sandbox file"
              placeholder="/home/you/mpi-sandbox.db"
              value={path}
              onChange={(event) => {
                setPath(event.currentTarget.value);
              }}
              error={fieldError('path')}
              required
            />
            <TextInput
              label="Tenant"
              description="Only needed when the file holds several tenants"
              value={tenantId}
              onChange={(event) => {
                setTenantId(event.currentTarget.value);
              }}
              error={fieldError('tenantId')}
            />
            {error !== null && (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The sandbox was not opened">
                {formRefusalText(error, OPEN_FIELDS, 'open the sandbox')}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={busy === path} disabled={path.trim() === ''}>
                Open
              </Button>
            </Group>
          </Stack>
        </form>
        <RecentList
          recent={status.recent}
          current={status.connection?.kind === 'local-sandbox' ? status.connection.path : null}
          busy={busy}
          onOpen={(entry) => void open(entry.path, entry.tenantId)}
        />
      </Stack>
    </Card>
  );
}

function RecentList({
  recent,
  current,
  busy,
  onOpen,
}: {
  readonly recent: readonly RecentSandbox[];
  readonly current: string | null;
  readonly busy: string | null;
  readonly onOpen: (entry: RecentSandbox) => void;
}) {
  if (recent.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={3} size="h6">
        Recent sandboxes
      </Title>
      <Table verticalSpacing="xs" aria-label="Recent sandboxes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>File</Table.Th>
            <Table.Th>Tenant</Table.Th>
            <Table.Th>Last opened</Table.Th>
            <Table.Th>
              <VisuallyHidden>Action</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {recent.map((entry) => (
            <Table.Tr key={entry.path}>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {entry.path}
                </Text>
                {!entry.exists && (
                  <Badge color="orange" variant="light" size="sm" mt={4}>
                    File not found
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{entry.tenantId}</Table.Td>
              <Table.Td>
                <TableDate iso={entry.openedAt} />
              </Table.Td>
              <Table.Td>
                {entry.path === current ? (
                  // A status, not an action: bold "Open now" beside the other rows' Open buttons read like one.
                  <Badge color="teal" variant="light" size="sm" style={{ minWidth: 'max-content' }}>
                    Connected
                  </Badge>
                ) : (
                  <Button
                    size="xs"
                    variant="default"
                    disabled={!entry.exists}
                    loading={busy === entry.path}
                    onClick={() => {
                      onOpen(entry);
                    }}
                    aria-label={`Open ${entry.path}`}
                  >
                    Open
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export default function SandboxesPage({ status }: { readonly status: ConsoleStatus }) {
  const firstRun = status.connection === null && status.recent.length === 0;
  return (
    <Stack gap="lg" maw={1200}>
      <div>
        <Title order={1}>{firstRun ? 'Welcome to the MPI Console' : 'Sandboxes'}</Title>
        <Text c="dimmed" mt={4}>
          {firstRun
            ? 'Start with a local sandbox of synthetic people: create one below, then run and watch maintenance jobs on it.'
            : 'The console works on one connection at a time: a local sandbox (create one, or open one you used before) or a remote registry.'}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <CreateSandboxCard status={status} />
        <OpenSandboxCard status={status} />
      </SimpleGrid>
      <RegistryCard status={status} />
    </Stack>
  );
}
