/**
 * The console served to the browser tests (and to `npm start` afterwards) is React's production build, though the
 * test runner sets NODE_ENV=test: Vite takes the bundle's mode from NODE_ENV, and a development build is several
 * times slower (the Match assurance page's slider went from about 35 to 150 ms) while looking the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_OUT } from '../../main/build/renderer.ts';

describe('the built console', () => {
  it('is a production bundle even when built under the test runner', () => {
    expect(process.env.NODE_ENV).toBe('test');
    const assets = join(RENDERER_OUT, 'assets');
    const code = readdirSync(assets)
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(assets, name), 'utf8'))
      .join('\n');
    expect(code.length).toBeGreaterThan(100_000);
    // Strings only React's development build carries.
    for (const marker of [
      'validateDOMNesting',
      'react-stack-bottom-frame',
      'Each child in a list should have a unique',
    ]) {
      expect(code.includes(marker), marker).toBe(false);
    }
  });
});
