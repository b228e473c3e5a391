/**
 * A remote registry: sign in with the organisation's identity provider (the system browser opens its page;
 * the console waits for it to come back) or paste an access token for service use. Once connected: the
 * signed-in identity, tenant, granted scopes and what they allow, and sign out. The token itself never comes
 * back to this page: the backend keeps it.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  PasswordInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type SyntheticEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Connection, ConsoleStatus, RecentRegistry } from '../../../console-protocol/protocol.ts';
import { useClient } from '../../client/context.tsx';
import { ClientError, errorMessage, formRefusalText } from '../../client/errors.ts';
import { keys } from '../../hooks/query-keys.ts';
import { navigate, paths } from '../../hooks/route.ts';
import { formatDateTime } from '../../format.ts';
import { IconAlert, IconCloud } from '../../icons.tsx';

/** The form's fields by the paths the backend's refusals name. */
const REGISTRY_FIELDS = {
  baseUrl: 'Registry URL',
  issuer: 'Identity provider',
  clientId: 'Client ID',
  resource: 'API resource',
  token: 'Access token',
} as const;

type RemoteConnection = Extract<Connection, { kind: 'remote-registry' }>;

const SCOPE_TEXT: Record<string, string> = {
  'mpi.admin': 'start and cancel jobs, evaluate and calibrate',
  'mpi.operations': 'watch jobs, read the matching profile',
};

function SignedIn({
  connection,
  onSignOut,
  busy,
}: {
  readonly connection: RemoteConnection;
  readonly onSignOut: () => void;
  readonly busy: boolean;
}) {
  const rows: [string, React.ReactNode][] = [
    ['Registry', connection.baseUrl],
    ['Signed in as', connection.identity ?? `${connection.actor} (pasted token)`],
    ['Tenant', connection.tenantId],
    ['Recorded as', connection.actor],
    [
      'Granted scopes',
      <Group gap={6} key="scopes">
        {connection.capabilities.scopes.map((scope) => (
          <Badge key={scope} variant="light" radius="sm" tt="none" title={SCOPE_TEXT[scope]}>
            {scope}
          </Badge>
        ))}
      </Group>,
    ],
    ['Token expires', connection.expiresAt === null ? 'not stated by the token' : formatDateTime(connection.expiresAt)],
    [
      'Token kept',
      connection.storage === 'encrypted' ? 'encrypted by the operating system' : 'in memory until the console stops',
    ],
  ];
  const allowed = connection.capabilities.scopes
    .map((scope) => SCOPE_TEXT[scope])
    .filter((text): text is string => text !== undefined);
  return (
    <Stack gap="sm" data-testid="registry-signed-in">
      <Table verticalSpacing={6} aria-label="Remote registry connection">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160} scope="row">
                {label}
              </Table.Th>
              <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        This connection may {allowed.length === 0 ? 'do nothing the console offers' : allowed.join('; ')}.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onSignOut} loading={busy}>
          Sign out
        </Button>
        <Button
          onClick={() => {
            navigate(paths.maintenance);
          }}
        >
          Go to Maintenance
        </Button>
      </Group>
    </Stack>
  );
}

export function RegistryCard({ status }: { readonly status: ConsoleStatus }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const remote = status.connection?.kind === 'remote-registry' ? status.connection : null;
  // The form starts from the registry reached last (never a token: the backend does not keep one for the form).
  const recent = status.recentRegistries ?? [];
  const last = recent[0];
  const [mode, setMode] = useState<'sign-in' | 'token'>(last?.method ?? 'sign-in');
  const [baseUrl, setBaseUrl] = useState(status.signIn?.baseUrl ?? last?.baseUrl ?? '');
  const [issuer, setIssuer] = useState(last?.issuer ?? '');
  const [clientId, setClientId] = useState(last?.clientId ?? 'mpi-console');
  const [resource, setResource] = useState(last?.resource ?? '');
  const useRecent = (entry: RecentRegistry): void => {
    setMode(entry.method);
    setBaseUrl(entry.baseUrl);
    setIssuer(entry.issuer ?? '');
    setClientId(entry.clientId ?? 'mpi-console');
    setResource(entry.resource ?? '');
    setError(null);
  };
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ClientError | Error | null>(null);

  const fieldError = (path: string): string | undefined =>
    error instanceof ClientError ? error.issueFor(path) : undefined;
  const run = async (action: () => Promise<ConsoleStatus>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      queryClient.setQueryData(keys.status, await action());
      setToken('');
    } catch (caught) {
      setError(caught instanceof Error ? caught : new Error(errorMessage(caught)));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void run(() =>
      mode === 'sign-in'
        ? client.send('console/sign-in', { baseUrl, issuer, clientId, ...(resource.trim() === '' ? {} : { resource }) })
        : client.send('console/use-token', { baseUrl, token }),
    );
  };

  const waiting = status.signIn?.state === 'waiting' ? status.signIn : null;
  const failed = status.signIn?.state === 'failed' ? status.signIn : null;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="registry-title">
      <Stack gap="md">
        <Group gap="xs">
          <IconCloud />
          <Title order={2} size="h4" id="registry-title">
            Remote registry
          </Title>
        </Group>
        {remote !== null ? (
          <SignedIn
            connection={remote}
            busy={busy}
            onSignOut={() => void run(() => client.send('console/sign-out', {}))}
          />
        ) : (
          <form onSubmit={submit} aria-label="Connect to a remote registry" noValidate>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                Connect to your organisation&apos;s registry API. Sign in through your identity provider in your
                browser, or paste an access token for service use.
              </Text>
              {recent.length > 0 ? (
                <Group
                  gap="xs"
                  role="group"
                  aria-label="Registries connected to before"
                  data-testid="recent-registries"
                >
                  <Text size="sm">Before:</Text>
                  {recent.map((entry) => (
                    <Button
                      key={entry.baseUrl}
                      size="compact-xs"
                      variant={entry.baseUrl === baseUrl ? 'light' : 'default'}
                      onClick={() => {
                        useRecent(entry);
                      }}
                      title={`${entry.method === 'sign-in' ? 'Signed in' : 'Token'}, last ${formatDateTime(entry.connectedAt)}`}
                    >
                      {entry.baseUrl}
                    </Button>
                  ))}
                </Group>
              ) : null}
              <SegmentedControl
                value={mode}
                onChange={(value) => {
                  setMode(value === 'token' ? 'token' : 'sign-in');
                  setError(null);
                }}
                data={[
                  { value: 'sign-in', label: 'Sign in' },
                  { value: 'token', label: 'Paste a token' },
                ]}
                aria-label="How to connect"
              />
              <TextInput
                label="Registry URL"
                description="https; plain http only to this machine (development)"
                placeholder="https://registry.example.org"
                required
                value={baseUrl}
                onChange={(event) => {
                  setBaseUrl(event.currentTarget.value);
                }}
                error={fieldError('baseUrl')}
              />
              {mode === 'sign-in' ? (
                <>
                  <TextInput
                    label="Identity provider"
                    description="Its issuer URL, as your administrator gave it"
                    placeholder="https://login.example.org"
                    required
                    value={issuer}
                    onChange={(event) => {
                      setIssuer(event.currentTarget.value);
                    }}
                    error={fieldError('issuer')}
                  />
                  <Group grow align="flex-start">
                    <TextInput
                      label="Client ID"
                      required
                      value={clientId}
                      onChange={(event) => {
                        setClientId(event.currentTarget.value);
                      }}
                      error={fieldError('clientId')}
                    />
                    <TextInput
                      label="API resource (optional)"
                      description="When the provider asks for one"
                      value={resource}
                      onChange={(event) => {
                        setResource(event.currentTarget.value);
                      }}
                      error={fieldError('resource')}
                    />
                  </Group>
                </>
              ) : (
                <PasswordInput
                  label="Access token"
                  description="Kept by the console's backend only; never shown again"
                  required
                  autoComplete="off"
                  value={token}
                  onChange={(event) => {
                    setToken(event.currentTarget.value);
                  }}
                  error={fieldError('token')}
                />
              )}
              {waiting !== null && mode === 'sign-in' ? (
                <Alert
                  color="blue"
                  variant="light"
                  icon={<Loader size={16} />}
                  role="status"
                  title="Waiting for you to sign in"
                  data-testid="sign-in-waiting"
                >
                  <Text size="sm">
                    Your browser should show your organisation&apos;s sign-in page. If it did not open,{' '}
                    <Anchor
                      href={waiting.authorizationUrl ?? undefined}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="sm"
                      data-testid="sign-in-link"
                    >
                      open the sign-in page
                    </Anchor>
                    .
                  </Text>
                  <Button
                    mt="sm"
                    size="xs"
                    variant="default"
                    onClick={() => void run(() => client.send('console/cancel-sign-in', {}))}
                  >
                    Cancel sign-in
                  </Button>
                </Alert>
              ) : null}
              {failed !== null ? (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlert />}
                  title="Not signed in"
                  data-testid="sign-in-failed"
                >
                  <Text size="sm">{failed.message}</Text>
                </Alert>
              ) : null}
              {error !== null ? (
                <Alert
                  color="red"
                  variant="light"
                  icon={<IconAlert />}
                  title="Not connected"
                  data-testid="registry-error"
                >
                  <Text size="sm">
                    {formRefusalText(error, REGISTRY_FIELDS, mode === 'sign-in' ? 'sign in' : 'connect')}
                  </Text>
                </Alert>
              ) : null}
              <Group justify="flex-end">
                <Button type="submit" loading={busy}>
                  {mode === 'sign-in' ? (waiting === null ? 'Sign in' : 'Start again') : 'Connect'}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
