/**
 * The check of a run's start (POST /runs): its operation, and that operation's own input against its schema, so a
 * run that could never start is refused at once (a 422), not after it was queued. The pool checks a small body in
 * place and a large one on its intake thread (intake-thread.ts), off the thread that answers requests.
 */
import { EngineError } from '../../engine/contract/errors.ts';
import { operations } from '../../engine/contract/operations.ts';
import type { RunOperation } from '../../engine/contract/runs.ts';
import { zodIssues } from '../../engine/contract/zod-issues.ts';

export function checkRunStart(value: unknown): { readonly operation: RunOperation; readonly input: unknown } {
  const parsed = operations['runs/start'].input.safeParse(value);
  if (!parsed.success)
    throw new EngineError('validation', 'invalid input for runs/start', zodIssues(parsed.error, '', false));
  const { operation, input } = parsed.data;
  const inner = operations[operation].input.safeParse(input);
  if (!inner.success)
    throw new EngineError('validation', `invalid input for ${operation}`, zodIssues(inner.error, 'input', false));
  return { operation, input };
}
