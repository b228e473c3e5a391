/**
 * A pair's fields at a glance: one tone a field, in the scorer's order, in the comparison viewer's band colours, and
 * the same in words for the picture's text alternative. The review list draws a case's pair with it, the evaluation
 * report its error examples (field-strip.tsx). Pure, so it is tested without a browser.
 */
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { evidenceTone, type BandTone } from './record-fields.ts';
import { sentenceStart } from '../../../engine/contract/sentence-start.ts';

/** What each tone says of a field, in the words of a pair's fields at a glance and of its legend. */
export const TONE_WORDS: Readonly<Record<BandTone, string>> = {
  exact: 'agree',
  strong: 'nearly agree',
  partial: 'partly agree',
  different: 'differ',
  none: 'not compared',
};

/**
 * A pair's fields at a glance: one tone a field, in the scorer's field order, and the same in words ("Agree: family
 * name, birth date. Differ: given name. Not compared: email."), for the picture's text alternative. Null without
 * evidence: a review case that carries no pair (a link quality case carries its weakest link's, if any).
 */
export function fieldsAtAGlance(
  evidence: readonly Pick<FieldEvidence, 'field' | 'band' | 'level'>[],
): { readonly tones: readonly { readonly field: string; readonly tone: BandTone }[]; readonly text: string } | null {
  if (evidence.length === 0) return null;
  const byField = new Map(evidence.map((e) => [e.field as string, e]));
  const tones = FIELD_NAMES.map((field) => ({ field, tone: evidenceTone(byField.get(field)) }));
  const text = (Object.keys(TONE_WORDS) as BandTone[])
    .map((tone) => {
      const fields = tones.filter((t) => t.tone === tone).map((t) => fieldTitle(t.field).toLowerCase());
      if (fields.length === 0) return null;
      const words = TONE_WORDS[tone];
      return `${sentenceStart(words)}: ${fields.join(', ')}.`;
    })
    .filter((part) => part !== null)
    .join(' ');
  return { tones, text };
}

/** One pattern of fields among a list's pairs: its squares and words, and how many pairs of each kind show it. */
export interface GlancePattern {
  readonly glance: NonNullable<ReturnType<typeof fieldsAtAGlance>>;
  readonly counts: ReadonlyMap<string, number>;
  readonly total: number;
}

/**
 * The pairs of several lists (the evaluation's false positives and false negatives, by kind) grouped by their
 * pattern of fields at a glance, most common first (ties in the order first met): what kinds of pair a model gets
 * wrong, read in a few rows, as Splink's comparison-vector patterns are. Pairs without evidence are left out.
 */
export function glancePatterns(
  lists: readonly {
    readonly kind: string;
    readonly pairs: readonly { readonly evidence: Parameters<typeof fieldsAtAGlance>[0] }[];
  }[],
): GlancePattern[] {
  const byText = new Map<string, { glance: GlancePattern['glance']; counts: Map<string, number>; total: number }>();
  for (const { kind, pairs } of lists)
    for (const pair of pairs) {
      const glance = fieldsAtAGlance(pair.evidence);
      if (glance === null) continue;
      const pattern = byText.get(glance.text) ?? { glance, counts: new Map<string, number>(), total: 0 };
      pattern.counts.set(kind, (pattern.counts.get(kind) ?? 0) + 1);
      pattern.total++;
      byText.set(glance.text, pattern);
    }
  // Array.prototype.sort is stable: equal totals keep the order first met.
  return [...byText.values()].sort((a, b) => b.total - a.total);
}
