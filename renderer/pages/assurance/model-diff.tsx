/**
 * The produced model against the active profile's model, when the profile has one: every field and band whose
 * m, u or ln(m/u) weight differs, and the scalar settings (prior, smoothing, training dataset) that changed.
 */
import { ScrollArea, Table, Text } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import type { FellegiSunterModel } from '../../../engine/contract/profile.ts';
import { IconInfo } from '../../icons.tsx';
import { modelChanges } from './model-weights.ts';
import { useProfile } from '../../hooks/console-data.ts';
import { formatCountOf } from '../../format.ts';

export function ModelDiff({
  produced,
  connectionKey,
}: {
  readonly produced: FellegiSunterModel;
  readonly connectionKey: string;
}) {
  const profile = useProfile(connectionKey, true);
  if (profile.isPending) return null;
  if (profile.isError)
    return (
      <Text size="sm" c="dimmed">
        The active profile could not be read, so there is no comparison: {profile.error.message}
      </Text>
    );
  const active = profile.data.profile.MatchingRules.FellegiSunter;
  if (active === null) {
    return (
      <Note color="gray" variant="light" icon={<IconInfo />} title="Nothing to compare with" data-testid="model-diff">
        <Text size="sm">
          The active profile (version {profile.data.matchingProfileVersion}) has no Fellegi-Sunter model: it scores by
          weighted similarity, so the produced model is new rather than a change.
        </Text>
      </Note>
    );
  }
  const changes = modelChanges(active, produced);
  return (
    <div data-testid="model-diff">
      <Text size="sm" mb="xs">
        Against the active profile's model {active.modelVersion}:{' '}
        {changes.length === 0 ? 'no difference.' : `${formatCountOf(changes.length, 'difference')}.`}
      </Text>
      {changes.length > 0 ? (
        <ScrollArea.Autosize mah={320} viewportProps={{ tabIndex: 0, 'aria-label': 'Model differences, scrollable' }}>
          <Table striped aria-label="Differences from the active model" style={{ fontVariantNumeric: 'tabular-nums' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th miw={240}>Setting</Table.Th>
                <Table.Th>Active</Table.Th>
                <Table.Th>Produced</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={c.what}>
                  <Table.Td>{c.what}</Table.Td>
                  <Table.Td>{c.active}</Table.Td>
                  <Table.Td>{c.produced}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      ) : null}
    </div>
  );
}
