/** The eight counters of the spec, always all eight, each with what it counts. */
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { JobCounters } from '../../../engine/contract/maintenance.ts';
import { formatCount } from '../../format.ts';
import { COUNTERS } from './job-text.ts';

export function CounterGrid({ counters }: { readonly counters: JobCounters }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" aria-label="Counters" style={{ margin: 0 }}>
      {COUNTERS.map((counter) => (
        <Paper key={counter.name} withBorder p="sm" radius="md" data-counter={counter.name}>
          <Text component="dt" size="xs" tt="uppercase" fw={700} c="dimmed">
            {counter.label}
          </Text>
          <Text
            component="dd"
            fz={24}
            fw={650}
            m={0}
            style={{ fontVariantNumeric: 'tabular-nums' }}
            data-testid={`counter-${counter.name}`}
          >
            {formatCount(counters[counter.name])}
          </Text>
          <Text size="xs" c="dimmed" component="dd" m={0}>
            {counter.help}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
