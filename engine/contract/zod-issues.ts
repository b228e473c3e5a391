import { z } from 'zod';
import type { ErrorIssue } from './errors.ts';

/** `a.b[2].c` from a zod path, prefixed with base. */
export function dottedPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const part of path) {
    if (typeof part === 'number') out += `[${String(part)}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Zod issues as our issues. zod's messages can quote received values; for patient data and secrets we keep
 * only the rule (code and expectation, or the schema's own message), so callers choose whether the message may carry
 * the value.
 */
export function zodIssues(error: z.ZodError, base = '', mayEchoValues = true): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: dottedPath(base, issue.path),
    message: mayEchoValues ? issue.message : safeMessage(issue),
  }));
}

const zodMessages = z.locales.en();

/** Whether the message is zod's own for the issue, rather than one its schema was written with. */
function isZodMessage(issue: z.core.$ZodIssue): boolean {
  const made = zodMessages.localeError(issue as Parameters<typeof zodMessages.localeError>[0]);
  return (typeof made === 'string' ? made : made?.message) === issue.message;
}

function safeMessage(issue: z.core.$ZodIssue): string {
  // A schema's own message states its rule in words fixed where the schema is written ("a file name is letters,
  // digits, …"), never the value received, and tells the caller more than the rule's code. Not for a wrong type
  // (zod's message names the type received, which the final issue no longer holds, so it cannot be recognised) or
  // unknown keys (the caller's text).
  if (issue.code !== 'invalid_type' && issue.code !== 'unrecognized_keys' && !isZodMessage(issue)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'unrecognized_keys':
      // A key outside the schema is the caller's text, which may hold anything: counted, never shown.
      return `${String(issue.keys.length)} unknown key(s), not shown; only the documented fields are accepted`;
    case 'too_small':
      return `too small (minimum ${String(issue.minimum)})`;
    case 'too_big':
      return `too big (maximum ${String(issue.maximum)})`;
    case 'invalid_value':
      return 'not one of the allowed values';
    case 'invalid_format':
      return `invalid format (${issue.format})`;
    default:
      return issue.message;
  }
}
