/**
 * The start form's rules, taken from the contract's own schemas (the engine validates with the same ones),
 * with messages written for the form. Batch size is checked as the user types.
 */
import dayjs from 'dayjs';
import { oneLineProblem } from '../../one-line-reason.ts';
import {
  MAX_BATCH_SIZE,
  MIN_BATCH_SIZE,
  REASON_MAX,
  ReconcileInputSchema,
  ReindexInputSchema,
  type JobKind,
} from '../../../engine/contract/maintenance.ts';

export interface StartJobDraft {
  readonly kind: JobKind;
  readonly reason: string;
  /** A string while the field holds something that is not a number yet (empty, "-"). */
  readonly batchSize: number | string;
  readonly externalSourceSystem: string | null;
  /** Local date-time from the picker, `YYYY-MM-DD HH:mm:ss`. */
  readonly changedSince: string | null;
}

export type StartJobInput =
  | { readonly kind: 'reindex'; readonly input: { reason: string; batchSize: number } }
  | {
      readonly kind: 'reconciliation';
      readonly input: { reason: string; batchSize: number; externalSourceSystem?: string; changedSince?: string };
    };

export const BATCH_SIZE_MESSAGE = `Batch size is a whole number from ${String(MIN_BATCH_SIZE)} to ${String(MAX_BATCH_SIZE)}`;

const FRIENDLY: Record<string, string> = {
  reason: `Give a reason (up to ${String(REASON_MAX)} characters): it is recorded with the job and in the audit trail`,
  batchSize: BATCH_SIZE_MESSAGE,
  changedSince: 'Choose a date and time',
  externalSourceSystem: 'Choose one of the configured sources',
};

/** The local picker value as an ISO 8601 timestamp with the user's UTC offset (the engine needs the offset). */
export function withOffset(local: string): string {
  return dayjs(local).format('YYYY-MM-DDTHH:mm:ssZ');
}

export function toInput(draft: StartJobDraft): StartJobInput {
  const base = { reason: draft.reason, batchSize: typeof draft.batchSize === 'number' ? draft.batchSize : Number.NaN };
  if (draft.kind === 'reindex') return { kind: 'reindex', input: base };
  return {
    kind: 'reconciliation',
    input: {
      ...base,
      ...(draft.externalSourceSystem === null ? {} : { externalSourceSystem: draft.externalSourceSystem }),
      ...(draft.changedSince === null ? {} : { changedSince: withOffset(draft.changedSince) }),
    },
  };
}

/** Field → message for every rule the draft breaks (empty: it may be submitted). */
export function validateDraft(
  draft: StartJobDraft,
): Partial<Record<'reason' | 'batchSize' | 'externalSourceSystem' | 'changedSince', string>> {
  const { kind, input } = toInput(draft);
  const result = kind === 'reindex' ? ReindexInputSchema.safeParse(input) : ReconcileInputSchema.safeParse(input);
  const errors: Partial<Record<'reason' | 'batchSize' | 'externalSourceSystem' | 'changedSince', string>> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0]) as keyof typeof errors;
      errors[field] ??= FRIENDLY[field] ?? issue.message;
    }
  }
  const notOneLine = oneLineProblem(draft.reason);
  if (errors.reason === undefined && notOneLine !== undefined) errors.reason = notOneLine;
  return errors;
}
