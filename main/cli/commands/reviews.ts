/** Review cases on the command line: list with filters, show one, record a decision, export decisions as labels. */
import { ScoreLimitSchema, TwinReasonSchema } from '../../../engine/contract/matching.ts';
import { limitLine, TWIN_REASON_TEXT } from '../../../engine/contract/score-explanation.ts';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table, tsv } from '../format.ts';
import { writeOutput } from '../files.ts';
import {
  identityRecordsText,
  REVIEW_DECISIONS,
  REVIEW_KINDS,
  REVIEW_SORTS,
  ReviewListInputSchema,
  type ReviewDecision,
} from '../../../engine/contract/reviews.ts';
import { countOfText, countText } from '../../../engine/contract/count-text.ts';
import { shownFirstText } from '../../../engine/contract/link-quality.ts';

const STATUSES = ['open', 'resolved', 'dismissed', 'all'] as const;

function oneOf<T extends string>(cli: CliContext, option: string, allowed: readonly T[]): T | undefined {
  const value = cli.string(option);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw usage(`--${option} is one of ${allowed.join(', ')}`);
  return value as T;
}

function caseArgument(cli: CliContext, command: string): string {
  const [caseId, ...extra] = cli.positionals;
  if (caseId === undefined || extra.length > 0)
    throw usage(`${command} takes one review case ID: mpi-console ${command} CASE_ID`);
  return caseId;
}

/** The list's filters as the options give them: status (open by default), kind, job, source, opened after. */
function listFilters(cli: CliContext) {
  const kind = oneOf(cli, 'kind', REVIEW_KINDS);
  const jobId = cli.string('job');
  const sourceSystem = cli.string('source');
  const openedAfter = cli.string('opened-after');
  if (openedAfter !== undefined && !ReviewListInputSchema.shape.openedAfter.safeParse(openedAfter).success)
    throw usage("--opened-after takes a date and time in ISO 8601, such as 2026-12-07T14:02:05Z (a health row's time)");
  return {
    status: oneOf(cli, 'status', STATUSES) ?? 'open',
    ...(kind === undefined ? {} : { kind }),
    ...(jobId === undefined ? {} : { jobId }),
    ...(sourceSystem === undefined ? {} : { sourceSystem }),
    ...(openedAfter === undefined ? {} : { openedAfter }),
  };
}

export async function reviews(cli: CliContext): Promise<number> {
  const limitedBy = oneOf(cli, 'held-by', [...ScoreLimitSchema.options, 'none'] as const);
  const twinReason = oneOf(cli, 'twin-case', TwinReasonSchema.options);
  const result = await cli.client.call(
    'reviews/list',
    {
      ...listFilters(cli),
      sort: oneOf(cli, 'sort', REVIEW_SORTS) ?? 'oldest',
      limit: cli.integer('limit', 1000),
      offset: cli.integer('offset', 0),
      ...(limitedBy === undefined ? {} : { limitedBy }),
      ...(twinReason === undefined ? {} : { twinReason }),
    },
    cli.call,
  );
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(
    tsv(
      [
        'caseId',
        'kind',
        'status',
        'leftEnterpriseId',
        'leftVersion',
        'rightEnterpriseId',
        'rightVersion',
        'profileVersion',
        'score',
        'decision',
        'heldBy',
        'heldFrom',
        'jobId',
        'review',
        'createdAt',
        'sourceSystem',
        'stale',
        'flags',
        'twinReason',
      ],
      result.rows.map((r) => [
        r.caseId,
        r.kind,
        r.status,
        r.leftEnterpriseId,
        String(r.leftVersion),
        r.rightEnterpriseId,
        String(r.rightVersion),
        String(r.matchingProfileVersion),
        r.score.toFixed(6),
        r.decision,
        r.limitedBy ?? '',
        r.heldFrom === null ? '' : r.heldFrom.toFixed(6),
        r.jobId ?? '',
        r.review?.decision ?? '',
        r.createdAt,
        r.sourceSystem ?? '',
        r.stale ? 'stale' : '',
        r.flags === undefined || r.flags === null ? '' : r.flags.length === 0 ? 'none now' : r.flags.join(','),
        r.twinReason ?? '',
      ]),
    ),
  );
  if (result.total > result.rows.length)
    process.stderr.write(
      `${countText(result.rows.length)} of ${countText(result.total)} cases shown; --offset N for more\n`,
    );
  return 0;
}

/** An identity of a case: its version when the case was opened (and now, when it changed) and its records now. */
function identityText(
  enterpriseId: string,
  caseVersion: number,
  now: {
    readonly version: number;
    readonly active: boolean;
    readonly records: readonly unknown[];
    readonly recordCount?: number | undefined;
  },
): string {
  const changed = now.version === caseVersion ? '' : ` (v${String(now.version)} now)`;
  const retired = now.active ? '' : ', retired';
  return `${enterpriseId} v${String(caseVersion)}${changed}${retired}: ${identityRecordsText(now)}`;
}

export async function reviewShow(cli: CliContext): Promise<number> {
  const detail = await cli.client.call('reviews/get', { caseId: caseArgument(cli, 'review show') }, cli.call);
  if (cli.json) {
    cli.write(json(detail));
    return 0;
  }
  const c = detail.case;
  cli.write(
    keyValues([
      ['case', c.caseId],
      ['kind', c.kind],
      ...(detail.flags === undefined || detail.flags === null
        ? []
        : [['flags', detail.flags.length === 0 ? 'none now' : detail.flags.join(', ')] as [string, string]]),
      [
        'status',
        c.review === null ? c.status : `${c.status} (${c.review.decision}, ${c.review.actor}, ${c.review.decidedAt})`,
      ],
      [
        'opened',
        `${c.createdAt}${c.jobId === null ? '' : ` by job ${c.jobId}`}${c.sourceSystem === null ? '' : ` from ${c.sourceSystem}`}`,
      ],
      [
        'score',
        c.kind === 'LinkQuality'
          ? `${c.score.toFixed(6)} (the identity's weakest link, profile version ${String(c.matchingProfileVersion)})`
          : `${c.score.toFixed(6)} (${c.decision}, profile version ${String(c.matchingProfileVersion)})`,
      ],
      ...(c.limitedBy === null ? [] : [['held by', limitLine(c.limitedBy, c.heldFrom)] as [string, string]]),
      ...(c.twinReason == null ? [] : [['why', TWIN_REASON_TEXT[c.twinReason]] as [string, string]]),
      ['left', identityText(c.leftEnterpriseId, c.leftVersion, detail.left)],
      ...(c.kind === 'LinkQuality'
        ? []
        : [['right', identityText(c.rightEnterpriseId, c.rightVersion, detail.right)] as [string, string]]),
      [
        'stale',
        detail.case.stale ? 'yes: an identity changed since the case was opened; a decision would be refused' : 'no',
      ],
      ...(detail.supersededBy === null
        ? []
        : [['superseded', `by ${detail.supersededBy}, a newer case about the same identities`] as [string, string]]),
      ...(detail.bestPair === null || c.kind !== 'LinkQuality'
        ? []
        : [['shown first', shownFirstText(detail.bestPairShows)] as [string, string]]),
      ...(detail.bestPair === null
        ? []
        : [
            [
              'compare',
              `mpi-console explain --left ${detail.bestPair.left.sourceSystem}/${detail.bestPair.left.localId} --right ${detail.bestPair.right.sourceSystem}/${detail.bestPair.right.localId}`,
            ] as const,
          ]),
    ]),
  );
  cli.write(
    `\n${c.kind === 'LinkQuality' ? "the weakest link's evidence" : "the pair's evidence"} when the case was opened\n` +
      table(
        ['field', 'band', 'weight'],
        c.evidence.map((e) => [e.field, e.band ?? 'missing', (e.logLikelihood ?? e.weight ?? 0).toFixed(3)]),
      ),
  );
  if (detail.decisions.length > 0)
    cli.write(
      '\n' +
        table(
          ['decided at', 'by', 'decision', 'reason'],
          detail.decisions.map((d) => [d.decidedAt, d.actor, d.decision, d.reason]),
        ),
    );
  return 0;
}

export async function reviewDecide(cli: CliContext): Promise<number> {
  const caseId = caseArgument(cli, 'review decide');
  const decision: ReviewDecision | undefined = oneOf(cli, 'decision', REVIEW_DECISIONS);
  if (decision === undefined)
    throw usage(`review decide needs --decision ${REVIEW_DECISIONS.join('|')} and --reason TEXT`);
  const result = await cli.client.call(
    'reviews/decide',
    { caseId, decision, reason: cli.required('reason') },
    cli.call,
  );
  if (cli.json) cli.write(json(result));
  else
    cli.write(
      `Recorded "${decision}" on ${caseId}; the case is ${result.case.status}. Nothing was merged or unlinked.\n`,
    );
  return 0;
}

/**
 * `reviews holds`: the cases the filters keep, counted by the rule that held them at Probable and the twin rule's
 * case, most first: what the queue holds, and what `reviews --held-by R [--twin-case C]` would list; of decided
 * cases, how many were one person and how many two.
 */
export async function reviewHolds(cli: CliContext): Promise<number> {
  const filters = listFilters(cli);
  const result = await cli.client.call('reviews/list', { ...filters, withHolds: true, limit: 1 }, cli.call);
  const holds = result.holds ?? [];
  if (cli.json) {
    cli.write(json({ total: result.total, holds }));
    return 0;
  }
  // Decided cases (--status resolved) also say how many were one person, and how many two.
  const decided = filters.status === 'resolved';
  cli.write(
    tsv(
      ['heldBy', 'twinReason', 'cases', ...(decided ? ['samePerson', 'differentPeople'] : [])],
      holds.map((h) => [
        h.limitedBy ?? 'none',
        h.twinReason ?? '',
        String(h.cases),
        ...(decided ? [String(h.samePerson ?? 0), String(h.cases - (h.samePerson ?? 0))] : []),
      ]),
    ),
  );
  return 0;
}

export async function reviewLabels(cli: CliContext): Promise<number> {
  const jobId = cli.string('job');
  const out = cli.required('out');
  const result = await cli.client.call('reviews/labels', jobId === undefined ? {} : { jobId }, cli.call);
  const { note } = writeOutput(out, result.tsv, cli.filesInUse());
  if (cli.json) cli.write(json({ labels: result.labels, out, note: result.note }));
  else cli.write(`Wrote ${countOfText(result.labels, 'label')} to ${out}${note}.\n${result.note}\n`);
  return 0;
}
