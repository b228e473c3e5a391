import type { ErrorData, ErrorIssue, ErrorKind } from '../../engine/contract/errors.ts';
import { sentenceStart } from '../../engine/contract/sentence-start.ts';

/** An operation's error as the renderer sees it: the engine's kind, message and issues (field paths). */
export class ClientError extends Error {
  readonly kind: ErrorKind;
  readonly issues: readonly ErrorIssue[];

  constructor(data: Pick<ErrorData, 'kind' | 'message' | 'issues'>) {
    super(data.message);
    this.name = 'ClientError';
    this.kind = data.kind;
    this.issues = data.issues;
  }

  /** The issue messages of one field, joined for display under that field. */
  issueFor(path: string): string | undefined {
    const messages = this.issues.filter((issue) => issue.path === path).map((issue) => issue.message);
    return messages.length === 0 ? undefined : messages.join('; ');
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'something went wrong';
}

/** An engine message (lower case, no full stop) as a sentence of its own, to stand before another one. */
export function asSentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const capital = sentenceStart(text);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * What a form's alert says when the form was refused. Where the refusal's issues are shown under the form's own
 * fields, the alert names those fields and says what to do, rather than repeating a general "refused"; an issue no
 * field shows is said in the alert itself. fields: the form's issue paths and their labels; retry: the button's verb.
 */
export function formRefusalText(error: Error, fields: Readonly<Record<string, string>>, retry: string): string {
  if (!(error instanceof ClientError) || error.kind !== 'validation' || error.issues.length === 0) return error.message;
  const labels = [...new Set(error.issues.flatMap((issue) => fields[issue.path] ?? []))];
  const unshown = error.issues.filter((issue) => fields[issue.path] === undefined).map((issue) => issue.message);
  if (labels.length === 0) return `${error.message}: ${unshown.join('; ')}`;
  const fix = `Correct the ${labels.length === 1 ? 'field' : 'fields'} marked above (${labels.join(', ')}), then ${retry} again.`;
  return unshown.length === 0 ? fix : `${fix} Also: ${unshown.join('; ')}.`;
}
