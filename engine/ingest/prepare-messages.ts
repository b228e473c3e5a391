/** What the writer and its preparation thread (prepare-thread.ts) say to each other. */
import type { ErrorIssue } from '../contract/errors.ts';
import type { RecordWrite } from '../store/records.ts';
import type { PreparerSetup } from './record-preparer.ts';

export type PrepareRequest =
  /** An ingestion starts using the thread: what its records are prepared with, under a number of its own. */
  | { readonly kind: 'setup'; readonly setupId: number; readonly setup: PreparerSetup }
  /** That ingestion ended. */
  | { readonly kind: 'forget'; readonly setupId: number }
  /** A chunk's lines; null for a line the reader already rejected. */
  | {
      readonly kind: 'prepare';
      readonly id: number;
      readonly setupId: number;
      readonly texts: readonly (string | null)[];
    };

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

export type PrepareReply =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'prepared';
      readonly id: number;
      readonly prepared: readonly (ThreadPrepared | null)[];
      /** Every tag of the chunk, TAG_BYTES each, in order. */
      readonly tagBytes: Uint8Array;
    }
  /** The request named a setup the thread does not hold (never expected): the writer prepares the chunk itself. */
  | { readonly kind: 'unknown-setup'; readonly id: number };
