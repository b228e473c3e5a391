/**
 * The way on from one case to the next, as a reviewer works a queue: the oldest waiting case that can be decided now
 * (its identities unchanged since it was opened) and that nobody has answered yet, other than the case on screen.
 * A case marked unsure stays open, so it is skipped here rather than offered again; the list still shows it.
 */
import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../client/context.tsx';
import { keys } from '../../hooks/query-keys.ts';
import { paths } from '../../hooks/route.ts';
import { IconSkip } from '../../icons.tsx';
import { nextCaseOf } from './review-text.ts';

/** Waiting cases read to find the next one: enough to pass over the ones marked unsure. */
const LOOK_AHEAD = 50;

const WAITING = { status: 'open', currentOnly: true, sort: 'oldest', limit: LOOK_AHEAD } as const;

export function NextCase({ connectionKey, caseId }: { readonly connectionKey: string; readonly caseId: string }) {
  const client = useClient();
  const waiting = useQuery({
    queryKey: keys.reviews(connectionKey, { next: WAITING }),
    queryFn: () => client.send('reviews/list', WAITING),
    retry: false,
  });
  if (waiting.data === undefined) return null;
  const next = nextCaseOf(waiting.data, caseId);
  if ('text' in next)
    return (
      <Text size="sm" c="dimmed" data-testid="next-case">
        {next.text}
      </Text>
    );
  return (
    <Button
      component="a"
      href={paths.review(next.caseId)}
      variant="light"
      size="sm"
      rightSection={<IconSkip size={16} />}
      data-testid="next-case"
    >
      Next waiting case
    </Button>
  );
}
