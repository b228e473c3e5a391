import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssues } from '../../../engine/contract/zod-issues.ts';

const VALUE = 'Jane Doe 1970-01-01 SECRET';

function issuesOf(schema: z.ZodType, input: unknown, mayEchoValues = false): { path: string; message: string }[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a refusal');
  return zodIssues(parsed.error, '', mayEchoValues);
}

describe('zod issues as the engine reports them', () => {
  it("keeps a schema's own message: its rule in words, without the value", () => {
    const schema = z.strictObject({
      fileName: z.string().regex(/^[a-z]+\.db$/, 'a file name is lower-case letters ending in .db'),
    });
    expect(issuesOf(schema, { fileName: VALUE })).toEqual([
      { path: 'fileName', message: 'a file name is lower-case letters ending in .db' },
    ]);
  });

  it("says zod's own rules by their code and expectation", () => {
    const schema = z.strictObject({
      code: z.string().regex(/^[a-z]+$/),
      count: z.number().int().min(3).max(9),
      kind: z.enum(['a', 'b']),
      name: z.string(),
    });
    expect(issuesOf(schema, { code: VALUE, count: 1, kind: VALUE, name: 5 })).toEqual([
      { path: 'code', message: 'invalid format (regex)' },
      { path: 'count', message: 'too small (minimum 3)' },
      { path: 'kind', message: 'not one of the allowed values' },
      { path: 'name', message: 'expected string' },
    ]);
  });

  it('counts unknown keys and never shows them, whatever their schema says', () => {
    const messages = [
      ...issuesOf(z.strictObject({ a: z.string() }), { a: 'x', [VALUE]: 1 }),
      ...issuesOf(z.strictObject({ a: z.string() }, { error: 'only a' }), { a: 'x', [VALUE]: 1 }),
    ].map((issue) => issue.message);
    expect(messages).toEqual([
      '1 unknown key(s), not shown; only the documented fields are accepted',
      '1 unknown key(s), not shown; only the documented fields are accepted',
    ]);
  });

  it('never carries the value received when asked not to, whatever the rule', () => {
    const schema = z.strictObject({
      a: z.literal('x'),
      b: z.string().startsWith('z'),
      c: z.email(),
      d: z.string().max(3),
      e: z.string().regex(/^\d+$/, 'digits only'),
    });
    const messages = issuesOf(schema, { a: VALUE, b: VALUE, c: VALUE, d: VALUE, e: VALUE }).map((i) => i.message);
    expect(messages).toHaveLength(5);
    for (const message of messages) expect(message).not.toContain('Jane');
  });
});
