/**
 * How a reviewer has the Review cases list: its filters, order and page, kept per connection (and per job, for the
 * list of one job's cases) across opening a case and coming back, and across reload. The queue the reviewer last
 * worked (its kind, source, hold, order and job) is kept too: a case's "Next waiting case" takes the next one from it.
 * None of it is a patient value.
 */
import { useCallback, useEffect } from 'react';
import { z } from 'zod';
import { REVIEW_KINDS, REVIEW_SORTS, type ReviewListInputSchema } from '../../../engine/contract/reviews.ts';
import { putPageState, schemaCodec, usePageState } from '../../hooks/page-state.ts';
import { heldInput, HeldSchema } from './held-filter.ts';

const ListViewSchema = z.object({
  status: z.enum(['open', 'resolved', 'dismissed', 'all']),
  kind: z.enum(['any', ...REVIEW_KINDS]),
  source: z.string().min(1).max(100),
  held: HeldSchema,
  /** Only cases opened after this time (the Health page's way to one ingest's cases); a view kept before, any time. */
  openedAfter: z.iso.datetime().nullable().default(null),
  sort: z.enum(REVIEW_SORTS),
  currentOnly: z.boolean(),
  offset: z.number().int().min(0),
});
export type ListView = z.infer<typeof ListViewSchema>;

const FIRST_VIEW: ListView = {
  status: 'open',
  kind: 'any',
  source: 'any',
  held: 'any',
  openedAfter: null,
  sort: 'oldest',
  currentOnly: false,
  offset: 0,
};
const VIEW_CODEC = schemaCodec((stored) => ListViewSchema.safeParse(stored));
/** The view kept for the list of every job's cases (null), or of one job's. */
const viewName = (jobId: string | null): string => `reviews-view:${jobId ?? 'all'}`;

/** The waiting cases the reviewer works through: the list's kind, source, hold, time, order and job. */
const QueueSchema = z.object({
  kind: ListViewSchema.shape.kind,
  source: ListViewSchema.shape.source,
  held: HeldSchema,
  openedAfter: ListViewSchema.shape.openedAfter,
  sort: ListViewSchema.shape.sort,
  jobId: z.string().min(1).max(80).nullable(),
});
export type Queue = z.infer<typeof QueueSchema>;
const QUEUE_CODEC = schemaCodec((stored) => QueueSchema.safeParse(stored));
const QUEUE_STATE = 'reviews-queue';
const OLDEST_FIRST: Queue = { kind: 'any', source: 'any', held: 'any', openedAfter: null, sort: 'oldest', jobId: null };

/**
 * The list's view, and a change to it: a change of filter or order goes back to the first page (a change that names
 * the offset sets it). Each view the list shows becomes the queue "Next waiting case" follows.
 */
export function useListView(
  connectionKey: string,
  jobId: string | null,
): [ListView, (change: Partial<ListView>) => void] {
  const [view, setView] = usePageState(connectionKey, viewName(jobId), FIRST_VIEW, VIEW_CODEC);
  const { kind, source, held, openedAfter, sort } = view;
  useEffect(() => {
    putPageState(connectionKey, QUEUE_STATE, { kind, source, held, openedAfter, sort, jobId }, QUEUE_CODEC);
  }, [connectionKey, kind, source, held, openedAfter, sort, jobId]);
  const change = useCallback(
    (next: Partial<ListView>): void => {
      setView((old) => ({ ...old, offset: 0, ...next }));
    },
    [setView],
  );
  return [view, change];
}

/**
 * Sets the view of the list of every job's cases (or of one job's) to one set of them, from its first page, for a link
 * from another page to open (the Health page's "Open the cases of …", a job's count of cases): the reviewer's own
 * filters give way, as a change of filter on the list would.
 */
export function putListView(connectionKey: string, change: Partial<ListView>, jobId: string | null = null): void {
  putPageState(connectionKey, viewName(jobId), { ...FIRST_VIEW, ...change }, VIEW_CODEC);
}

/** The queue the reviewer last worked on the list (oldest first of every waiting case when none yet). */
export function useQueue(connectionKey: string): Queue {
  return usePageState(connectionKey, QUEUE_STATE, OLDEST_FIRST, QUEUE_CODEC)[0];
}

/** The list request of a view or a queue. */
export function listInput(
  view: Pick<ListView, 'kind' | 'source' | 'held' | 'openedAfter' | 'sort'>,
  jobId: string | null,
): Omit<z.input<typeof ReviewListInputSchema>, 'status' | 'limit' | 'offset' | 'currentOnly'> {
  return {
    sort: view.sort,
    ...(view.kind === 'any' ? {} : { kind: view.kind }),
    ...(view.source === 'any' ? {} : { sourceSystem: view.source }),
    ...(view.openedAfter === null ? {} : { openedAfter: view.openedAfter }),
    ...heldInput(view.held),
    ...(jobId === null ? {} : { jobId }),
  };
}
