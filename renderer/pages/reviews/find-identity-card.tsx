/**
 * Opening an identity from one of its records, on the Review cases page: the source system and the record's local ID
 * (what a complaint or a source's query names), then the identity's page. The local ID is sent in a call, never put
 * in the page's address.
 */
import { Alert, Autocomplete, Button, Card, Group, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { LOCAL_ID_MAX_LENGTH } from '../../../engine/contract/limits.ts';
import { useClient } from '../../client/context.tsx';
import { ClientError, asSentence } from '../../client/errors.ts';
import { keys } from '../../hooks/query-keys.ts';
import { navigate, paths } from '../../hooks/route.ts';
import { IconAlert } from '../../icons.tsx';

/**
 * The sources offered: the profile's in its order of trust (the first is the default), then the other sources the
 * tenant's records came from (a source since dropped from the profile), in alphabetical order.
 */
function offeredSources(profile: readonly string[], held: readonly string[] | undefined): string[] {
  const listed = new Set(profile);
  const others = (held ?? []).filter((s) => !listed.has(s)).sort((a, b) => a.localeCompare(b));
  return [...profile, ...others];
}

export function FindIdentityCard({
  connectionKey,
  profileSources,
  withRecordSources,
}: {
  readonly connectionKey: string;
  readonly profileSources: readonly string[];
  /** The registry answers records/sources (an older one does not: the profile's sources alone are offered). */
  readonly withRecordSources: boolean;
}) {
  const client = useClient();
  const held = useQuery({
    queryKey: keys.recordSources(connectionKey),
    queryFn: () => client.send('records/sources', {}),
    enabled: withRecordSources,
  });
  const sources = offeredSources(profileSources, held.data?.sources);
  // Typed or chosen: the sources above are offered, but any typed source is looked up too.
  const [typed, setTyped] = useState<string | null>(null);
  const [localId, setLocalId] = useState('');
  const [missing, setMissing] = useState<'source' | 'localId' | null>(null);
  const source = (typed ?? sources[0] ?? '').trim() || null;
  const find = useMutation({
    mutationFn: (ref: { sourceSystem: string; localId: string }) => client.send('identities/of-record', ref),
    onSuccess: (found) => {
      navigate(paths.identity(found.enterpriseId));
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const id = localId.trim();
    if (source === null) setMissing('source');
    else if (id === '') setMissing('localId');
    else {
      setMissing(null);
      find.mutate({ sourceSystem: source, localId: id });
    }
  };
  return (
    <Card withBorder padding="md" bg="var(--mantine-color-white)" component="section" aria-labelledby="find-identity">
      <Title order={2} size="h4" id="find-identity">
        Open a record&rsquo;s identity
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="sm" maw={760}>
        The identity a source record is linked to: its records, where each field of its canonical record came from, and
        its history. Give the record&rsquo;s source and its local ID (the ID the source gives it).
      </Text>
      <form onSubmit={submit} noValidate>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <Autocomplete
            label="Source"
            data={sources}
            value={typed ?? sources[0] ?? ''}
            onChange={(v) => {
              setTyped(v);
              setMissing(null);
              find.reset();
            }}
            error={missing === 'source' ? 'Choose or type the source the record came from' : undefined}
            w={240}
            autoComplete="off"
            spellCheck={false}
          />
          <TextInput
            label="Local ID"
            value={localId}
            maxLength={LOCAL_ID_MAX_LENGTH}
            onChange={(e) => {
              setLocalId(e.currentTarget.value);
              setMissing(null);
              find.reset();
            }}
            error={missing === 'localId' ? "Type the record's local ID" : undefined}
            w={240}
            autoComplete="off"
            spellCheck={false}
          />
          <Button type="submit" mt={25} loading={find.isPending}>
            Open its identity
          </Button>
        </Group>
      </form>
      {find.error === null ? null : (
        <Alert
          color={find.error instanceof ClientError && find.error.kind === 'not_found' ? 'orange' : 'red'}
          variant="light"
          icon={<IconAlert />}
          title="No identity opened"
          role="alert"
          mt="sm"
          data-testid="find-identity-error"
        >
          <Text size="sm">
            {find.error instanceof ClientError && find.error.kind === 'not_found'
              ? `No record of ${source ?? 'this source'} has that local ID in this registry. Check the source, and the ID exactly as the source writes it, then try again.`
              : asSentence(find.error.message)}
          </Text>
        </Alert>
      )}
    </Card>
  );
}
