/**
 * The Importing phase of a reconciliation with an external FHIR source. Per page:
 *
 *   read   (outside any transaction)   GET the stored next-page URL (or the first search URL), with retries;
 *                                      validate, find the local identifier and normalise each Patient
 *   write  (the batch's transaction)   the existing ingestion of each Patient (receipts, digests, matching,
 *                                      survivorship, tags), the seen identifiers, and, with the runner's
 *                                      advance, the validated next URL and the counters
 *
 * so a worker killed mid-import resumes on another worker from the last committed page: nothing imported
 * twice, nothing skipped (and a page read again is recognised by receipts and digests as unchanged anyway).
 * Ingestion runs inside the write lock, so a concurrent clinical update is either already committed (then an
 * older version from the source is recognised as stale and skipped) or waits: newer data is never overwritten.
 * An invalid resource is a counted failure with its path; the import goes on. So is one whose meta.lastUpdated
 * lies outside the import's own window (before changedSince, or after the job started beyond the clock skew
 * allowed): the search asked the source for that window, so such an entry is not what was asked for, and a far
 * future instant would otherwise decide the order of every later correction. A valid one with a field ignored
 * for matching or ordering (an impossible or future birth date, a future meta.lastUpdated) is imported and counted
 * as a warning with its path. After a full import (no changedSince) the source's records the search did not
 * return are counted as warnings; nothing is unlinked.
 *
 * The import's pairs are judged at the size it brings the registry to (ingest/load-size.ts) when the first page this
 * run reads says how many Patients the search holds (Bundle.total); without it, at the registry's size as counted.
 *
 * Bounds: at most MaxPages pages (the page count is the durable cursor); each request's deadline, the request rate
 * and the size of a page are the client's (engine/fhir-source/client.ts). A page is read under the runner's
 * signal, so a cancelled job or a stopping worker abandons it at once.
 */
import type { JobCounters } from '../contract/maintenance.ts';
import { EngineError } from '../contract/errors.ts';
import type { Settings } from '../config/settings.ts';
import { FhirSourceClient, type CheckedPage } from '../fhir-source/client.ts';
import { sourceForImport } from '../fhir-source/resolve.ts';
import type { RetryPolicy } from '../fhir-source/retry.ts';
import { Ingestor, type RecordOutcome } from '../ingest/ingestor.ts';
import type { PreparedResource } from '../ingest/record-preparer.ts';
import { compareInstants } from '../fhir/instant.ts';
import { MAX_CLOCK_SKEW_MS } from '../fhir/patient.ts';
import { SourceError } from '../fhir-source/source-error.ts';
import type { JobRow, PhaseNote, PhaseRow } from './job-store.ts';
import type { Store } from '../store/store.ts';
import { ChunkWrites } from '../ingest/chunk-writes.ts';
import { countUnseen, forgetSeen, markSeen } from './import-seen.ts';
import { BatchItemFailed, type BatchPlan, type JobContext, type PhaseWork } from './phase-work.ts';
import { countText } from '../contract/count-text.ts';

/** The cursor value of a phase whose last page is committed. */
export const LAST_PAGE_DONE = '';

export interface ImportOptions {
  readonly retry?: RetryPolicy;
}

export function importPhase(ctx: JobContext, settings: Settings, job: JobRow, options: ImportOptions = {}): PhaseWork {
  const sourceSystem = job.externalSourceSystem;
  if (sourceSystem === null) throw new EngineError('internal', 'an importing phase without an external source');
  const upTo = job.startedAt;
  if (upTo === null) throw new EngineError('internal', 'an importing phase of a job that has not started');
  const { source, key, allowInsecureHttp } = sourceForImport(
    settings,
    ctx.profile.profile,
    ctx.tenantId,
    sourceSystem,
    'job.externalSourceSystem',
  );
  const client = new FhirSourceClient(source, {
    allowInsecureHttp,
    key,
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  const ingestor = new Ingestor(ctx.store, ctx.tenantId, sourceSystem, settings, ctx.jobId);
  const full = job.changedSince === null;
  const window: ImportWindow = {
    from: job.changedSince,
    upTo: new Date(Date.parse(upTo) + MAX_CLOCK_SKEW_MS).toISOString(),
  };
  // The next page is fetched while this one is written (the server works meanwhile); the cursor still moves
  // only when a page commits, so a prefetched page that is never written is simply fetched again on resume.
  let prefetched: { readonly url: string; readonly page: Promise<CheckedPage> } | undefined;
  // Whether the load's size was read off this run's first page (judgeLoad).
  let judged = false;
  const fetchPage = (url: string, signal: AbortSignal | undefined): Promise<CheckedPage> => {
    const ready = prefetched?.url === url ? prefetched.page : client.page(url, signal);
    prefetched = undefined;
    return ready;
  };
  const prefetch = (url: string, signal: AbortSignal | undefined): void => {
    const page = client.page(url, signal);
    // Observed when the page is awaited; until then a failure must not be an unhandled rejection.
    page.catch(() => undefined);
    prefetched = { url, page };
  };

  return {
    readBatch(): BatchPlan | null {
      throw new EngineError('internal', 'the importing phase is read page by page');
    },

    async readPage(phase: PhaseRow, signal?: AbortSignal): Promise<BatchPlan | null> {
      if (phase.cursorUrl === LAST_PAGE_DONE) return null;
      const first = phase.cursorUrl === null;
      const pageNumber = phase.cursor + 1;
      if (pageNumber > source.MaxPages) {
        throw new SourceError(
          `the source paged on past ${countText(source.MaxPages)} pages (MaxPages of ${key}); the import stopped. Raise MaxPages if the source really holds that many Patients`,
          false,
        );
      }
      const url =
        phase.cursorUrl ?? client.firstPageUrl({ changedSince: job.changedSince, upTo, pageSize: source.PageSize });
      const page = await fetchPage(url, signal);
      if (!judged && page.total !== null) {
        // The search's size, as the server gives it (at most what MaxPages pages can hold): the import's pairs are
        // judged at the size it brings the registry to (ingest/load-size.ts), from its first page.
        ingestor.judgeLoad({ lines: Math.min(page.total, source.MaxPages * source.PageSize) });
      }
      judged = true;
      if (page.nextUrl !== null && pageNumber < source.MaxPages) prefetch(page.nextUrl, signal);
      const prepared = page.entries.map((entry) => ({
        path: entry.path,
        prepared: prepareEntry(ingestor, entry.resource, window),
      }));
      const last = page.nextUrl === null;
      const notes: PhaseNote[] = [];
      if (first && client.insecure)
        notes.push({
          text: 'plain HTTP under AllowInsecureHttp (development only): the source was read without TLS',
          important: true,
        });
      const emptyPaths: PhaseNote[] = page.empty.map((path) => ({
        text: `page ${String(pageNumber)}, ${path}: no resource`,
      }));
      // What the write found, from its last run (a batch rolled back and written again reports the second run's):
      // refused entries, Patients accepted with a field ignored for matching (ingestion's warnings), records the
      // full import did not return.
      let written: { failed: PhaseNote[]; warned: PhaseNote[]; concluded: PhaseNote[] } = {
        failed: [],
        warned: [],
        concluded: [],
      };
      const readCounters: Partial<JobCounters> = {
        scanned: page.entries.length + page.empty.length,
        warning: first && client.insecure ? 1 : 0,
        failure: page.empty.length,
      };
      return {
        lastIdentityId: pageNumber,
        cursorUrl: page.nextUrl ?? LAST_PAGE_DONE,
        items: page.entries.length + page.empty.length,
        counters: readCounters,
        get notes(): readonly PhaseNote[] {
          return [...notes, ...written.concluded, ...emptyPaths, ...written.failed, ...written.warned];
        },
        write(at, isolated): Partial<JobCounters> {
          const counters = { imported: 0, updated: 0, unchanged: 0, failure: 0, warning: 0, reviewCreated: 0 };
          written = { failed: [], warned: [], concluded: [] };
          const { failed: failedPaths, warned: warnedPaths } = written;
          const outcomes = applyPage(ctx.store, ingestor, prepared, at, isolated);
          const seen: string[] = [];
          outcomes.forEach((outcome, index) => {
            const item = prepared[index];
            if (item === undefined) return;
            switch (outcome.kind) {
              case 'created':
                counters.imported++;
                counters.reviewCreated += outcome.reviewCases;
                break;
              case 'updated':
                counters.updated++;
                counters.reviewCreated += outcome.reviewCases;
                break;
              case 'unchanged':
              case 'stale':
                counters.unchanged++;
                break;
              case 'rejected': {
                counters.failure++;
                const issue = outcome.issues[0];
                failedPaths.push({
                  text: `page ${String(pageNumber)}, ${item.path}${issue === undefined ? '' : `.${issue.path}: ${issue.message}`}`,
                });
                break;
              }
            }
            if (outcome.kind !== 'rejected') {
              seen.push(localIdOf(item.prepared));
              for (const warning of item.prepared.kind === 'ready' ? item.prepared.warnings : []) {
                counters.warning++;
                warnedPaths.push({
                  text: `page ${String(pageNumber)}, ${item.path}.${warning.path}: ${warning.message}`,
                });
              }
            }
          });
          if (full) {
            markSeen(ctx.store, ctx.tenantId, job.jobId, seen);
            if (last) {
              const missing = countUnseen(ctx.store, ctx.tenantId, job.jobId, sourceSystem);
              if (missing > 0) {
                counters.warning += missing;
                written.concluded.push({
                  text: `${String(missing)} record(s) of this source system were not returned by the full import; they stay linked (nothing is unlinked or deleted)`,
                  important: true,
                });
              }
              forgetSeen(ctx.store, ctx.tenantId, job.jobId);
            }
          }
          return counters;
        },
      };
    },

    dispose(): Promise<void> {
      return client.close();
    },
  };
}

/**
 * Ingests a page's entries inside the batch's transaction. First all in one run, without savepoints: with a
 * savepoint around the whole page, nested in the batch's transaction, the import ran at a third of the speed of the
 * same Patients from a file (SQLite's in-memory sub-journal grows with every statement while a savepoint is open).
 * When an entry fails on write, the run throws BatchItemFailed, the runner rolls the batch back and writes it again
 * `isolated`: each entry in a savepoint of its own, so the failing one alone is refused and the others are kept.
 * The first run shares the page's reads and writes the rows nothing reads back at its end (chunk-writes.ts).
 */
function applyPage(
  store: Store,
  ingestor: Ingestor,
  prepared: readonly { readonly prepared: PreparedResource }[],
  at: string,
  isolated: boolean,
): RecordOutcome[] {
  if (!isolated) {
    try {
      const chunk = new ChunkWrites(
        store,
        ingestor.tenantId,
        prepared.map((item) => item.prepared),
      );
      const outcomes = prepared.map((item) => ingestor.apply(item.prepared, at, false, chunk));
      chunk.flush();
      return outcomes;
    } catch (error) {
      // The rolled-back rows' IDs can be given to other rows.
      ingestor.discardCaches();
      throw new BatchItemFailed(error);
    }
  }
  const outcomes = prepared.map((item) => ingestor.apply(item.prepared, at, true));
  if (outcomes.some((outcome, index) => outcome.kind === 'rejected' && prepared[index]?.prepared.kind === 'ready'))
    ingestor.discardCaches();
  return outcomes;
}

/** The instants an import asked the source for: changedSince (inclusive, or none) to the job's start plus the skew allowed. */
interface ImportWindow {
  readonly from: string | null;
  readonly upTo: string;
}

/**
 * One entry made ready for ingestion, or rejected alone with its reason: a resource that cannot be serialised
 * (nested thousands of levels deep) or whose meta.lastUpdated lies outside the import's window. Never the whole
 * page: the rest of it is imported.
 */
function prepareEntry(ingestor: Ingestor, resource: unknown, window: ImportWindow): PreparedResource {
  let json: string;
  try {
    json = JSON.stringify(resource);
  } catch {
    return {
      kind: 'rejected',
      issues: [{ path: 'record', message: 'cannot be serialised as JSON (nested too deeply); not imported' }],
    };
  }
  const prepared = ingestor.prepareResource(resource, json);
  if (prepared.kind !== 'ready') return prepared;
  // As received: a far-future instant is ignored for ordering by ingestion (a warning), but refused here.
  const lastUpdated = (resource as { meta?: { lastUpdated?: unknown } }).meta?.lastUpdated;
  if (typeof lastUpdated === 'string') {
    if (window.from !== null && compareInstants(lastUpdated, window.from) < 0) {
      return {
        kind: 'rejected',
        issues: [
          { path: 'meta.lastUpdated', message: 'is before the import window asked for (changedSince); not imported' },
        ],
      };
    }
    if (compareInstants(lastUpdated, window.upTo) > 0) {
      return {
        kind: 'rejected',
        issues: [
          {
            path: 'meta.lastUpdated',
            message: 'is after the instant the job started, the end of the window asked for; not imported',
          },
        ],
      };
    }
  }
  return prepared;
}

function localIdOf(prepared: PreparedResource): string {
  if (prepared.kind !== 'ready') throw new EngineError('internal', 'a rejected resource has no local identifier');
  return prepared.write.localId;
}
