/**
 * The free-text rule over a whole input: every string value and every object key, at any depth. Free text
 * (a job's reason, a dataset ID, a model version) reaches job records, audit rows, reports and terminals, so it
 * may not hold:
 *  - a control character (engine/normalise/control-characters.ts): an ANSI escape could rewrite what a person sees;
 *  - an unpaired surrogate (U+D800-U+DFFF alone, e.g. the JSON escape `\uD800`): no character, it cannot be stored
 *    as UTF-8 without being replaced, so what is stored would differ from what was sent;
 *  - a bidirectional control (Unicode Bidi_Control: embeddings, overrides, isolates, marks): it reorders how the
 *    text around it is shown (the "Trojan Source" attack), so a reason could read differently from what it says.
 * Patient data follows its own rules (FHIR validation refuses the first two; names keep marks for matching but are
 * shown isolated). Issues name the path, never the value.
 */
import type { ErrorIssue } from '../contract/errors.ts';
import { dottedPath } from '../contract/zod-issues.ts';
import { hasControlCharacter } from './control-characters.ts';
import { hasUnpairedSurrogate } from './unpaired-surrogate.ts';

export const CONTROL_CHARACTER_MESSAGE = 'contains a control character';
export const UNPAIRED_SURROGATE_MESSAGE = 'contains an unpaired surrogate (not a character)';
export const BIDI_CONTROL_MESSAGE =
  'contains a bidirectional control character (it would reorder how the text is shown)';

const BIDI_CONTROL = /\p{Bidi_Control}/u;

/** Why a free text is refused, or null. */
export function freeTextProblem(text: string): string | null {
  if (hasControlCharacter(text)) return CONTROL_CHARACTER_MESSAGE;
  if (hasUnpairedSurrogate(text)) return UNPAIRED_SURROGATE_MESSAGE;
  if (BIDI_CONTROL.test(text)) return BIDI_CONTROL_MESSAGE;
  return null;
}

/** Issues for every string or key holding a control character; skip(path) leaves a subtree to its own rules. */
export function freeTextIssues(
  value: unknown,
  skip: (path: readonly PropertyKey[]) => boolean = () => false,
  base = '',
): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const visit = (node: unknown, path: PropertyKey[]): void => {
    if (skip(path)) return;
    if (typeof node === 'string') {
      const problem = freeTextProblem(node);
      if (problem !== null) issues.push({ path: dottedPath(base, path), message: problem });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, [...path, index]);
      });
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const key of Object.keys(node)) {
      const problem = freeTextProblem(key);
      if (problem !== null) {
        // The key itself is not echoed: it is the problem, and the path up to it locates it.
        issues.push({ path: dottedPath(base, path), message: `a key ${problem}` });
        continue;
      }
      visit(Object.getOwnPropertyDescriptor(node, key)?.value, [...path, key]);
    }
  };
  visit(value, []);
  return issues;
}
