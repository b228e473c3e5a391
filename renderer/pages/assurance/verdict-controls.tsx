/**
 * What the workbench and the registry audit show around the pair being labelled: the keys that give a verdict, and
 * the same verdicts as buttons (useLabelling's label and previous), in the words each page uses for its verdicts.
 */
import { Button, Group, Kbd, Text } from '@mantine/core';
import type { Verdict } from './workbench-labels.ts';

export interface VerdictWords {
  readonly match: string;
  readonly nonMatch: string;
}

export function VerdictKeys({ words }: { readonly words: VerdictWords }) {
  return (
    <Group gap="xs" mb="sm">
      <Text size="sm">Keys:</Text>
      <Kbd>M</Kbd>
      <Text size="sm">{words.match.toLowerCase()}</Text>
      <Kbd>N</Kbd>
      <Text size="sm">{words.nonMatch.toLowerCase()}</Text>
      <Kbd>U</Kbd>
      <Text size="sm">unsure</Text>
      <Kbd>Backspace</Kbd>
      <Text size="sm">previous (undo)</Text>
    </Group>
  );
}

export function VerdictButtons({
  words,
  label,
  previous,
  hasPair,
  atFirst,
}: {
  readonly words: VerdictWords;
  readonly label: (verdict: Verdict) => void;
  readonly previous: () => void;
  readonly hasPair: boolean;
  readonly atFirst: boolean;
}) {
  const verdicts: readonly [Verdict, string, string][] = [
    ['match', 'teal', `${words.match} (M)`],
    ['non-match', 'indigo', `${words.nonMatch} (N)`],
    ['unsure', 'gray', 'Unsure (U)'],
  ];
  return (
    <Group gap="xs" mt="md">
      {verdicts.map(([verdict, color, text]) => (
        <Button
          key={verdict}
          variant="light"
          color={color}
          onClick={() => {
            label(verdict);
          }}
          disabled={!hasPair}
        >
          {text}
        </Button>
      ))}
      <Button variant="default" onClick={previous} disabled={atFirst}>
        Previous (Backspace)
      </Button>
    </Group>
  );
}
