/**
 * The review list's "Held by" filter: every case, cases no rule held, cases one rule held at Probable, or the twin
 * rule's cases of one case ("Possible twin, names alike"), so a reviewer can work through one kind of doubt at a time.
 * One value a choice, kept with the list's view, and the list request's `limitedBy` and `twinReason` it stands for.
 */
import { z } from 'zod';
import {
  ScoreLimitSchema,
  TwinReasonSchema,
  type ScoreLimit,
  type TwinReason,
} from '../../../engine/contract/matching.ts';
import { holdName } from '../../../engine/contract/score-explanation.ts';
import { formatCount } from '../../format.ts';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';

const TWIN_PREFIX = 'PossibleTwin:';

export const HELD_VALUES: readonly string[] = [
  'any',
  'none',
  ...ScoreLimitSchema.options,
  ...TwinReasonSchema.options.map((reason) => `${TWIN_PREFIX}${reason}`),
];
const KNOWN = new Set(HELD_VALUES);

/** A kept choice: one of HELD_VALUES; a view kept before the filter existed reads as every case. */
export const HeldSchema = z
  .string()
  .refine((value) => KNOWN.has(value))
  .default('any');

/** A hold as a row or a choice names it: 'Possible twin, names alike', 'Names only', 'No rule'. */
export function holdTitle(limitedBy: ScoreLimit | null, twinReason: TwinReason | null): string {
  return limitedBy === null ? 'No rule' : sentenceStart(holdName(limitedBy, twinReason));
}

/** One count of the list's answer (`holds`): the cases one rule held, of one case of the twin rule. */
export interface HoldCount {
  readonly limitedBy: ScoreLimit | null;
  readonly twinReason: TwinReason | null;
  readonly cases: number;
}

/** How many cases a choice would list, from the answer's counts. */
function casesOf(value: string, holds: readonly HoldCount[]): number {
  const { limitedBy, twinReason } = heldInput(value);
  return holds
    .filter(
      (h) =>
        limitedBy === undefined ||
        (limitedBy === 'none'
          ? h.limitedBy === null
          : h.limitedBy === limitedBy && (twinReason === undefined || h.twinReason === twinReason)),
    )
    .reduce((n, h) => n + h.cases, 0);
}

/**
 * The filter's choices, each twin case under its rule. With the list's counts, each says how many cases it would list
 * ("Possible twin, names alike (3)"), and a choice that would list none is left out unless it is the one chosen; without
 * them (an older registry, or before the first answer), every choice, uncounted.
 */
export function heldOptions(holds?: readonly HoldCount[], chosen = 'any'): { value: string; label: string }[] {
  const all = [
    { value: 'any', label: 'Any, held or not' },
    { value: 'none', label: holdTitle(null, null) },
    ...ScoreLimitSchema.options.flatMap((limit) => [
      {
        value: limit,
        label: sentenceStart(limit === 'PossibleTwin' ? `${holdName(limit)}, any case` : holdName(limit)),
      },
      ...(limit === 'PossibleTwin'
        ? TwinReasonSchema.options.map((reason) => ({
            value: `${TWIN_PREFIX}${reason}`,
            label: holdTitle(limit, reason),
          }))
        : []),
    ]),
  ];
  if (holds === undefined) return all;
  return all.flatMap((option) => {
    const cases = casesOf(option.value, holds);
    if (cases === 0 && option.value !== 'any' && option.value !== chosen) return [];
    return [{ value: option.value, label: `${option.label} (${formatCount(cases)})` }];
  });
}

/** The choice that lists one hold's cases (a twin case's own when it is known). */
export function heldValue(limitedBy: ScoreLimit | null, twinReason: TwinReason | null): string {
  if (limitedBy === null) return 'none';
  return limitedBy === 'PossibleTwin' && twinReason !== null ? `${TWIN_PREFIX}${twinReason}` : limitedBy;
}

/** The list request's filter a choice stands for. */
export function heldInput(held: string): { limitedBy?: ScoreLimit | 'none'; twinReason?: TwinReason } {
  if (held === 'any' || !KNOWN.has(held)) return {};
  if (held === 'none') return { limitedBy: 'none' };
  if (held.startsWith(TWIN_PREFIX))
    return { limitedBy: 'PossibleTwin', twinReason: held.slice(TWIN_PREFIX.length) as TwinReason };
  return { limitedBy: held as ScoreLimit };
}

/** The choice in the words of a sentence ("held: possible twin, names alike", "held by no rule"); null for every case. */
export function heldText(held: string): string | null {
  const { limitedBy, twinReason } = heldInput(held);
  if (limitedBy === undefined) return null;
  if (limitedBy === 'none') return 'held by no rule';
  return `held: ${holdName(limitedBy, twinReason)}`;
}
