/**
 * The way on from one case to the next, as a reviewer works a queue: the next waiting case, in the queue the reviewer
 * last had on the Review cases list (its kind, source, order and job; oldest first of every case until then), that
 * can be decided now (its identities unchanged since it was opened) and that nobody has answered yet, other than the
 * case on screen. A case marked unsure stays open, so it is skipped here rather than offered again; the list still
 * shows it.
 */
import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import { useClient } from '../../client/context.tsx';
import { keys } from '../../hooks/query-keys.ts';
import { paths } from '../../hooks/route.ts';
import { IconSkip } from '../../icons.tsx';
import { listInput, useQueue } from './list-view.ts';
import { nextCaseOf, queueText } from './review-text.ts';

/** Waiting cases read to find the next one: enough to pass over the ones marked unsure. */
const LOOK_AHEAD = 50;

export function NextCase({
  connectionKey,
  caseId,
  focusFrom = null,
}: {
  readonly connectionKey: string;
  readonly caseId: string;
  /**
   * Where focus was put when a decision took the form away: the way on takes it from there (or from nowhere), never
   * from a control the reviewer has since moved to.
   */
  readonly focusFrom?: RefObject<HTMLElement | null> | null;
}) {
  const client = useClient();
  const button = useRef<HTMLAnchorElement>(null);
  const queue = useQueue(connectionKey);
  const waiting = { status: 'open', currentOnly: true, limit: LOOK_AHEAD, ...listInput(queue, queue.jobId) } as const;
  const found = useQuery({
    queryKey: keys.reviews(connectionKey, { next: waiting }),
    queryFn: () => client.send('reviews/list', waiting),
    retry: false,
  });
  const next = found.data === undefined ? null : nextCaseOf(found.data, caseId);
  const nextId = next === null || 'text' in next ? null : next.caseId;
  useEffect(() => {
    if (focusFrom === null || nextId === null || button.current === null) return;
    const active = document.activeElement;
    if (active === null || active === document.body || active === focusFrom.current) button.current.focus();
  }, [focusFrom, nextId]);
  if (next === null) return null;
  const following = queueText(queue);
  return (
    <Stack gap={4} align="flex-end" maw={420}>
      {'text' in next ? (
        <Text size="sm" c="dimmed" ta="right" data-testid="next-case">
          {next.text}
        </Text>
      ) : (
        <Button
          ref={button}
          component="a"
          href={paths.review(next.caseId)}
          variant="light"
          size="sm"
          rightSection={<IconSkip size={16} />}
          data-testid="next-case"
        >
          Next waiting case
        </Button>
      )}
      {following === null ? null : (
        <Text size="xs" c="dimmed" ta="right" data-testid="next-case-queue">
          {following}
        </Text>
      )}
    </Stack>
  );
}
