/**
 * Said on the Maintenance page when the registry's configuration file holds no secret for a blocking key the active
 * profile uses (a sandbox copied without its .config.json): what still works, what does not (everything that reads
 * or writes blocking tags: engine/config/key-ring.ts), and which file to bring.
 */
import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Connection } from '../../../console-protocol/protocol.ts';
import { useClient } from '../../client/context.tsx';
import { keys } from '../../hooks/query-keys.ts';
import { IconAlert } from '../../icons.tsx';

export function MissingKeyAlert({
  connection,
  connectionKey,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
}) {
  const client = useClient();
  const summary = useQuery({
    queryKey: keys.profileSummary(connectionKey),
    queryFn: () => client.send('profile/summary', {}),
    enabled: connection.capabilities.operations.includes('profile/summary'),
    retry: false,
  });
  const missing = summary.data?.missingKeyVersions ?? [];
  if (missing.length === 0) return null;
  const named = missing.map((version) => `"${version}"`).join(' and ');
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlert />}
      title="The blocking key is missing"
      data-testid="missing-key"
    >
      <Text size="sm">
        The configuration file holds no secret for blocking key {named} of tenant {connection.tenantId}. The records
        already here can be read, scored and reviewed, but nothing that needs the key can run: matching new records,
        re-index and reconciliation, evaluation, the estimate and comparing records&apos; values.{' '}
        {connection.kind === 'local-sandbox'
          ? 'Open the sandbox with the configuration file it was made with: its file name with .config.json in place of .db, in the same folder. Copy it along whenever the sandbox moves.'
          : "Ask the registry's operator to restore the registry's configuration file."}
      </Text>
    </Alert>
  );
}
