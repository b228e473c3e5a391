/**
 * Words for review cases: decision colours, ages, the next case. Pure, so it is tested without a browser. Kinds' and
 * decisions' names are the contract's (REVIEW_KIND_NAME, REVIEW_DECISION_NAME).
 */
import {
  REVIEW_KIND_NAME,
  type REVIEW_SORTS,
  type ReviewCase,
  type ReviewDecision,
} from '../../../engine/contract/reviews.ts';
import { formatDateTime } from '../../format.ts';
import { shortJobId } from '../maintenance/job-id.ts';
import type { Queue } from './list-view.ts';
import { heldText } from './held-filter.ts';

/** The list's orders as the Order field names them. */
export const SORT_LABEL: Record<(typeof REVIEW_SORTS)[number], string> = {
  oldest: 'Oldest first',
  newest: 'Newest first',
  'score-high': 'Highest score first',
  'score-low': 'Lowest score first',
  'most-doubtful': 'Most doubtful links first',
};

/**
 * Which list "Next waiting case" follows, said beside it: "From the list as you left it: link quality, most doubtful
 * links first". Null for every waiting case oldest first (the list untouched), which needs no words.
 */
export function queueText(queue: Queue): string | null {
  if (
    queue.kind === 'any' &&
    queue.source === 'any' &&
    queue.held === 'any' &&
    queue.openedAfter === null &&
    queue.sort === 'oldest' &&
    queue.jobId === null
  )
    return null;
  const held = heldText(queue.held);
  const parts = [
    queue.kind === 'any' ? 'every kind' : REVIEW_KIND_NAME[queue.kind].toLowerCase(),
    ...(queue.source === 'any' ? [] : [`ingested from ${queue.source}`]),
    ...(held === null ? [] : [held]),
    ...(queue.openedAfter === null ? [] : [`opened after ${formatDateTime(queue.openedAfter)}`]),
    ...(queue.jobId === null ? [] : [`opened by job ${shortJobId(queue.jobId)}`]),
    SORT_LABEL[queue.sort].toLowerCase(),
  ];
  return `From the list as you left it: ${parts.join(', ')}.`;
}

export const DECISION_COLOR: Record<ReviewDecision, string> = {
  'same-person': 'teal',
  'different-people': 'grape',
  unsure: 'orange',
};

/** How long ago, in the largest whole unit: "just now", "5 min", "3 h", "2 days". */
export function ageText(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '—';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${String(hours)} h`;
  return `${String(Math.floor(hours / 24))} days`;
}

/**
 * The next case to offer a reviewer from the first waiting cases of the queue that can be decided now: the first
 * nobody has answered (one marked unsure stays open, and is passed over), other than the case on screen. Else what
 * to say.
 */
export function nextCaseOf(
  waiting: { readonly total: number; readonly rows: readonly Pick<ReviewCase, 'caseId' | 'review'>[] },
  current: string,
): { readonly caseId: string } | { readonly text: string } {
  const next = waiting.rows.find((row) => row.caseId !== current && row.review === null);
  if (next !== undefined) return { caseId: next.caseId };
  return {
    text:
      waiting.total > waiting.rows.length
        ? `The next ${String(waiting.rows.length)} cases that can be decided were all answered unsure: find others on the list.`
        : 'No other case on the list you came from can be decided and waits for a first decision.',
  };
}

/** "rc-1a2b3c4d…" → "1a2b3c4d": enough to tell cases apart on a screen. */
export function shortCaseId(caseId: string): string {
  return caseId.replace(/^rc-/, '').slice(0, 8);
}

/**
 * The first row of the page to show: the kept one, unless cases decided since left it past the end (then the last
 * page; the first when none is left).
 */
export function pageStartWithin(offset: number, total: number, pageSize: number): number {
  if (offset < total) return offset;
  return total === 0 ? 0 : Math.floor((total - 1) / pageSize) * pageSize;
}

/** "Cases 51–100 of 263", or "No cases". */
export function pageText(offset: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return 'No cases';
  return `Cases ${(offset + 1).toLocaleString()}–${(offset + shown).toLocaleString()} of ${total.toLocaleString()}`;
}

/**
 * How many of the waiting cases listed cannot be decided now (an identity changed since each was opened), or null
 * when all can.
 */
export function staleText(stale: number, waiting: number): string | null {
  if (stale <= 0 || waiting <= 0) return null;
  const which =
    waiting === 1
      ? 'The waiting case is'
      : stale >= waiting
        ? `All ${waiting.toLocaleString()} waiting cases are`
        : `${stale.toLocaleString()} of these ${waiting.toLocaleString()} waiting cases ${stale === 1 ? 'is' : 'are'}`;
  return `${which} out of date: an identity changed since ${stale === 1 ? 'it was' : 'they were'} opened (a later record arrived, as in a bulk load, or a canonical record was rebuilt), so a decision would be refused. A reconciliation (Maintenance, Start a job) asks again about the pairs that still need a person, as new cases at the identities' current versions, and each new case supersedes the out-of-date ones about its pair.`;
}
