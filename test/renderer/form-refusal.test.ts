import { describe, expect, it } from 'vitest';
import { asSentence, ClientError, formRefusalText } from '../../renderer/client/errors.ts';

const FIELDS = { baseUrl: 'Registry URL', token: 'Access token' };
const refused = (issues: { path: string; message: string }[]): ClientError =>
  new ClientError({ kind: 'validation', message: 'the values given were refused', issues });

describe("a form's refusal in its alert", () => {
  it('names the fields marked under the form and says what to do', () => {
    expect(formRefusalText(refused([{ path: 'baseUrl', message: 'give an https URL' }]), FIELDS, 'connect')).toBe(
      'Correct the field marked above (Registry URL), then connect again.',
    );
    const both = refused([
      { path: 'baseUrl', message: 'give an https URL' },
      { path: 'token', message: 'required' },
      { path: 'baseUrl', message: 'no user name' },
    ]);
    expect(formRefusalText(both, FIELDS, 'sign in')).toBe(
      'Correct the fields marked above (Registry URL, Access token), then sign in again.',
    );
  });
  it('says in the alert what no field shows', () => {
    expect(formRefusalText(refused([{ path: '(root)', message: '1 unknown key' }]), FIELDS, 'connect')).toBe(
      'the values given were refused: 1 unknown key',
    );
    expect(
      formRefusalText(
        refused([
          { path: 'token', message: 'required' },
          { path: 'scope', message: 'too long' },
        ]),
        FIELDS,
        'connect',
      ),
    ).toBe('Correct the field marked above (Access token), then connect again. Also: too long.');
  });
  it('keeps any other error as it is', () => {
    const gone = new ClientError({
      kind: 'remote_http',
      message: 'nothing is listening at http://127.0.0.1:1',
      issues: [],
    });
    expect(formRefusalText(gone, FIELDS, 'connect')).toBe('nothing is listening at http://127.0.0.1:1');
    expect(formRefusalText(new Error('network down'), FIELDS, 'connect')).toBe('network down');
    expect(formRefusalText(refused([]), FIELDS, 'connect')).toBe('the values given were refused');
  });
});

describe('an engine message before another sentence', () => {
  it('starts with a capital and ends with a full stop, once', () => {
    expect(asSentence('blocking key version "k1" is missing (BlockingKeys.t.k1)')).toBe(
      'Blocking key version "k1" is missing (BlockingKeys.t.k1).',
    );
    expect(asSentence('The registry did not answer.')).toBe('The registry did not answer.');
    expect(asSentence('  what now? ')).toBe('What now?');
    expect(asSentence('')).toBe('');
  });
});
