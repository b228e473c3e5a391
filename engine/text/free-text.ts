/**
 * The control-character rule (engine/normalise/control-characters.ts) over a whole input: every string
 * value and every object key, at any depth. Free text reaches job records, audit rows, reports and
 * terminals, where a control character (an ANSI escape among them) could rewrite what a person sees.
 * Issues name the path, never the value.
 */
import type { ErrorIssue } from '../contract/errors.ts';
import { dottedPath } from '../contract/zod-issues.ts';
import { hasControlCharacter } from '../normalise/control-characters.ts';

export const CONTROL_CHARACTER_MESSAGE = 'contains a control character';

/** Issues for every string or key holding a control character; skip(path) leaves a subtree to its own rules. */
export function controlCharacterIssues(value: unknown, skip: (path: readonly PropertyKey[]) => boolean = () => false, base = ''): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  const visit = (node: unknown, path: PropertyKey[]): void => {
    if (skip(path)) return;
    if (typeof node === 'string') {
      if (hasControlCharacter(node)) issues.push({ path: dottedPath(base, path), message: CONTROL_CHARACTER_MESSAGE });
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
      if (hasControlCharacter(key)) {
        // The key itself is not echoed: it is the problem, and the path up to it locates it.
        issues.push({ path: dottedPath(base, path), message: `a key ${CONTROL_CHARACTER_MESSAGE}` });
        continue;
      }
      visit(Object.getOwnPropertyDescriptor(node, key)?.value, [...path, key]);
    }
  };
  visit(value, []);
  return issues;
}
