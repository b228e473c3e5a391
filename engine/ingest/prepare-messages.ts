/** What the writer and its preparation thread (prepare-thread.ts) say to each other. */
import type { ErrorIssue } from '../contract/errors.ts';
import type { RecordWrite } from '../store/records.ts';

/** A chunk's lines; null for a line the reader already rejected. */
export interface PrepareRequest {
  readonly id: number;
  readonly texts: readonly (string | null)[];
}

/** A prepared record as it travels: the text left out, each tag an index into the reply's packed tag bytes. */
export type ThreadPrepared =
  | {
      readonly kind: 'ready';
      readonly write: RecordWrite;
      readonly tags: readonly {
        readonly at: number;
        readonly ruleName: string;
        readonly ruleSetVersion: number;
        readonly keyVersion: string;
      }[];
      readonly warnings: readonly ErrorIssue[];
    }
  | { readonly kind: 'rejected'; readonly issues: readonly ErrorIssue[] };

export interface PrepareReply {
  readonly id: number;
  readonly prepared: readonly (ThreadPrepared | null)[];
  /** Every tag of the chunk, TAG_BYTES each, in order. */
  readonly tagBytes: Uint8Array;
}
