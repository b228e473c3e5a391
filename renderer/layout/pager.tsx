/**
 * A long list shown a page at a time (an identity's records and history can run to thousands, and a page drawing
 * them all at once froze the window): "Records 51–100 of 263" with Previous and Next, shown only when the list is
 * longer than a page. The list itself came whole; only what is drawn is paged.
 */
import { Button, Group, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/** "Records 51–100 of 263" (the noun capitalised as given). */
export function rangeText(noun: string, offset: number, shown: number, total: number): string {
  return `${noun} ${(offset + 1).toLocaleString()}–${(offset + shown).toLocaleString()} of ${total.toLocaleString()}`;
}

export function usePaged<T>(
  items: readonly T[],
  size: number,
  noun: string,
): { readonly shown: readonly T[]; readonly offset: number; readonly pager: ReactNode } {
  const [wanted, setOffset] = useState(0);
  // A list that shrank since (read again) shows its last page rather than nothing.
  const offset = wanted < items.length ? wanted : Math.max(0, Math.floor((items.length - 1) / size) * size);
  const shown = items.slice(offset, offset + size);
  if (items.length <= size) return { shown, offset, pager: null };
  const lower = noun.toLowerCase();
  const pager = (
    <Group justify="space-between" mt="sm">
      <Text size="sm" aria-live="polite" data-testid={`${lower}-range`}>
        {rangeText(noun, offset, shown.length, items.length)}
      </Text>
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          aria-label={`Previous ${lower}`}
          disabled={offset === 0}
          onClick={() => {
            setOffset(Math.max(0, offset - size));
          }}
        >
          Previous
        </Button>
        <Button
          size="xs"
          variant="default"
          aria-label={`Next ${lower}`}
          disabled={offset + size >= items.length}
          onClick={() => {
            setOffset(offset + size);
          }}
        >
          Next
        </Button>
      </Group>
    </Group>
  );
  return { shown, offset, pager };
}
