/**
 * The first step shared by evaluation and calibration: check a labelled dataset against every rule
 * (spec Endpoints, rules 3 and 4) before any work, then prepare both records of every pair and compare
 * them, all inside ONE read transaction so the whole dataset sees one snapshot of the registry.
 *
 * Speed: each distinct record is looked up once (in bulk: a statement per 500 references) and prepared
 * once, and prepared records are remembered between calls while unchanged (prepared-records.ts); per-pair
 * results go into typed arrays (similarities at pair * FIELD_COUNT + field), so 10,000 pairs cost one
 * comparator pass and no per-pair allocation of their own.
 */
import { NO_CONTROL, type RunControl } from '../run-control.ts';
import type { ErrorIssue } from '../contract/errors.ts';
import { validationError } from '../contract/errors.ts';
import type { CallContext } from '../contract/operations.ts';
import type { MatchFields } from '../contract/fields.ts';
import { copyTermReadings, TERM_READINGS, type Scorer } from '../scoring/scorer.ts';
import { FIELD_COUNT, newScratch, pairFlags } from '../scoring/field-comparison.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { activeProfile, type StoredProfile } from '../store/profiles.ts';
import { requireTenant } from '../store/tenants.ts';
import type { Store } from '../store/store.ts';
import { datasetDigest } from './dataset-digest.ts';
import type { LabelPair, RecordRef } from './labels.ts';
import { hasControlCharacter } from '../text/control-characters.ts';
import { labelRuleIssues, RefInterner } from './label-rules.ts';
import { preparedRecords } from './prepared-records.ts';

export interface DatasetRequest {
  readonly datasetId: string;
  readonly pairs: readonly LabelPair[];
  readonly rowNumbers?: readonly number[] | undefined;
}

export interface LoadOptions {
  /** 10 for calibration, 1 for evaluation. */
  readonly minimumPerClass: number;
  /** Further request strings that must be free of control characters (they reach reports and audit). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The scorer's precedence, as small integers in DecidedBy order. */
export const DECIDED_BY = ['trusted-identifier', 'hard-conflict', 'score'] as const;
const DECIDED_CODE = { 'trusted-identifier': 0, 'hard-conflict': 1, score: 2 } as const;

export interface LoadedDataset {
  readonly stored: StoredProfile;
  readonly scorer: Scorer;
  readonly pairs: readonly LabelPair[];
  readonly digest: string;
  readonly matches: number;
  readonly nonMatches: number;
  /** Distinct records, in first-seen order; pairs point into these. */
  readonly fields: readonly MatchFields[];
  readonly prepared: readonly PreparedRecord[];
  readonly left: Uint32Array;
  readonly right: Uint32Array;
  readonly isMatch: Uint8Array;
  /** Field similarities at pair * FIELD_COUNT + field index (FIELD_NAMES order); NaN = missing on a side. */
  readonly similarity: Float64Array;
  /** The active scorer's outcome score (trusted identifier 1, hard conflict 0, else the score method's score). */
  readonly score: Float64Array;
  /** Index into DECIDED_BY. */
  readonly decidedBy: Uint8Array;
  /**
   * The pair's term-frequency readings at pair * TERM_READINGS (copyTermReadings), from which modelTermFrequency
   * gives the adjustment (log-odds) the live scorer adds under any model.
   */
  readonly termReadings: Float64Array;
  /**
   * Each pair's flags (field-comparison.ts pairFlags): a personal identifier system compared, two given names alike
   * (by sound only, or but for their first sound), and the other twin hints.
   */
  readonly flags: Uint8Array;
}

function rowNamer(request: DatasetRequest): (index: number) => string {
  const numbers = request.rowNumbers;
  return numbers === undefined ? (index) => `pairs[${index}]` : (index) => `line ${numbers[index] ?? index + 1}`;
}

/**
 * Validates the dataset (one validation EngineError listing every issue, with rows named `line N` or
 * `pairs[i]` and no patient values), then loads, prepares and compares every pair. Writes nothing.
 */
export function loadDataset(
  store: Store,
  ctx: CallContext,
  request: DatasetRequest,
  options: LoadOptions,
  control: RunControl = NO_CONTROL,
): LoadedDataset {
  requireTenant(store, ctx.tenantId);
  const { pairs } = request;
  const shapeIssues: ErrorIssue[] = [];
  if (request.rowNumbers !== undefined && request.rowNumbers.length !== pairs.length) {
    shapeIssues.push({
      path: 'rowNumbers',
      message: `must have one entry per pair (${pairs.length}); found ${request.rowNumbers.length}`,
    });
  }
  for (const [name, value] of Object.entries({ datasetId: request.datasetId, ...options.labels })) {
    if (hasControlCharacter(value)) shapeIssues.push({ path: name, message: 'contains a control character' });
  }
  if (shapeIssues.length > 0) throw validationError('the request is invalid', shapeIssues);

  return store.read(() => {
    const stored = activeProfile(store, ctx.tenantId);
    const cache = preparedRecords(store, ctx.tenantId, stored);
    // The distinct references, numbered in first-seen order, then looked up all together.
    const records = new RefInterner();
    const left = new Uint32Array(pairs.length);
    const right = new Uint32Array(pairs.length);
    const isMatch = new Uint8Array(pairs.length);
    pairs.forEach((pair, i) => {
      left[i] = records.idOf(pair.left);
      right[i] = records.idOf(pair.right);
      isMatch[i] = pair.isMatch ? 1 : 0;
    });
    const lookups = cache.findAll(records.refs);
    const exists = (ref: RecordRef): boolean => lookups[records.idOf(ref)] !== undefined;
    const issues = labelRuleIssues(pairs, {
      rowName: rowNamer(request),
      recordExists: exists,
      minimumPerClass: options.minimumPerClass,
      refId: (ref) => records.idOf(ref),
    });
    if (issues.length > 0) {
      const rows = new Set(issues.filter((issue) => issue.path !== 'pairs').map((issue) => issue.path)).size;
      throw validationError(
        `the label dataset was rejected (${rows} invalid ${rows === 1 ? 'row' : 'rows'}${issues.some((i) => i.path === 'pairs') ? ' and dataset-level problems' : ''}); nothing was evaluated or written`,
        issues,
      );
    }

    const { scorer } = cache;
    const items = lookups.map((lookup, index) => {
      const ref = records.refs[index];
      if (lookup === undefined || ref === undefined) throw new Error('unreachable: validated records exist');
      return { sourceSystem: ref.sourceSystem, localId: ref.localId, lookup };
    });
    const labelled = cache.prepareAll(items, (done) => {
      control.step('preparing the labelled records', done, items.length);
    });
    const fields: MatchFields[] = labelled.map((record) => record.fields);
    const prepared: PreparedRecord[] = labelled.map((record) => record.prepared);

    const similarity = new Float64Array(pairs.length * FIELD_COUNT);
    const score = new Float64Array(pairs.length);
    const decidedBy = new Uint8Array(pairs.length);
    const termReadings = new Float64Array(pairs.length * TERM_READINGS);
    const flags = new Uint8Array(pairs.length);
    const scratch = newScratch();
    let matches = 0;
    for (let i = 0; i < pairs.length; i++) {
      if ((i & 1023) === 0) control.step('scoring the labelled pairs', i, pairs.length);
      const a = prepared[left[i] ?? 0];
      const b = prepared[right[i] ?? 0];
      if (a === undefined || b === undefined) throw new Error('unreachable: every pair has two prepared records');
      const outcome = scorer.outcome(a, b, scratch);
      score[i] = outcome.score;
      decidedBy[i] = DECIDED_CODE[outcome.decidedBy];
      copyTermReadings(scratch, termReadings, i * TERM_READINGS);
      flags[i] = pairFlags(scratch);
      similarity.set(scratch.similarity, i * FIELD_COUNT);
      matches += isMatch[i] ?? 0;
    }
    return {
      stored,
      scorer,
      pairs,
      digest: datasetDigest(pairs),
      matches,
      nonMatches: pairs.length - matches,
      fields,
      prepared,
      left,
      right,
      isMatch,
      similarity,
      score,
      decidedBy,
      termReadings,
      flags,
    };
  });
}
