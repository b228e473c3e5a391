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

const capital = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The filter's choices, each twin case under its rule. */
export function heldOptions(): { value: string; label: string }[] {
  return [
    { value: 'any', label: 'Any, held or not' },
    { value: 'none', label: 'No rule' },
    ...ScoreLimitSchema.options.flatMap((limit) => [
      { value: limit, label: capital(limit === 'PossibleTwin' ? `${holdName(limit)}, any case` : holdName(limit)) },
      ...(limit === 'PossibleTwin'
        ? TwinReasonSchema.options.map((reason) => ({
            value: `${TWIN_PREFIX}${reason}`,
            label: capital(holdName(limit, reason)),
          }))
        : []),
    ]),
  ];
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
