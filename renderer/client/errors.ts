import type { ErrorData, ErrorIssue, ErrorKind } from '../../engine/contract/errors.ts';

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
