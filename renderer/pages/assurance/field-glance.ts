/**
 * A pair's fields at a glance: one tone a field, in the scorer's order, in the comparison viewer's band colours, and
 * the same in words for the picture's text alternative. The review list draws a case's pair with it, the evaluation
 * report its error examples (field-strip.tsx). Pure, so it is tested without a browser.
 */
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { evidenceTone, type BandTone } from './record-fields.ts';

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
      return `${words.charAt(0).toUpperCase()}${words.slice(1)}: ${fields.join(', ')}.`;
    })
    .filter((part) => part !== null)
    .join(' ');
  return { tones, text };
}
