import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appResponse, isAppUrl } from '../../../main/electron/app-protocol.ts';
import { contentSecurityPolicy, metaContentSecurityPolicy } from '../../../main/backend/content-security-policy.ts';
import { scratchDir } from '../../helpers/temp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function rendererDir(): string {
  const root = scratchDir('mpi-app-').dir;
  dirs.push(root);
  const renderer = join(root, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(join(renderer, 'assets', 'index-abc.js'), 'export {}');
  writeFileSync(join(renderer, '.build-inputs.sha256'), 'digest');
  writeFileSync(join(root, 'secret.txt'), 'outside the renderer');
  return renderer;
}

describe('app:// protocol', () => {
  it('serves the built files with their type and the CSP', async () => {
    const dir = rendererDir();
    const index = await appResponse(dir, 'app://console/index.html');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(contentSecurityPolicy());
    expect((await appResponse(dir, 'app://console/')).status).toBe(200);
    expect(await appResponse(dir, 'app://console/assets/index-abc.js')).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8' },
    });
  });

  it('serves nothing outside the renderer folder, no hidden files and no other host', async () => {
    const dir = rendererDir();
    for (const url of [
      'app://console/../secret.txt',
      'app://console/%2e%2e/secret.txt',
      'app://console/..%2fsecret.txt',
      'app://console/assets/%2e%2e%2f..%2fsecret.txt',
      'app://console/.build-inputs.sha256',
      'app://other/index.html',
      'https://console/index.html',
      'app://console/missing.js',
      'app://console/assets',
      'not a url',
    ]) {
      expect((await appResponse(dir, url)).status, url).toBe(404);
    }
  });

  it('recognises only the app origin', () => {
    expect(isAppUrl('app://console/index.html#/maintenance')).toBe(true);
    expect(isAppUrl('app://console.evil/index.html')).toBe(false);
    expect(isAppUrl('http://127.0.0.1/')).toBe(false);
  });
});

describe('Content-Security-Policy', () => {
  const directives = (policy: string): Map<string, string> =>
    new Map(policy.split('; ').map((d) => [d.slice(0, d.indexOf(' ')), d.slice(d.indexOf(' ') + 1)]));

  it('allows scripts only from the app itself: no inline script, no eval, no remote origin', () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('connect-src')).toBe("'self'");
    for (const [name, value] of policy) {
      expect(value, name).not.toMatch(/unsafe-eval|https?:|\*/);
      if (name !== 'style-src') expect(value, name).not.toContain('unsafe-inline');
    }
    for (const locked of ['object-src', 'base-uri', 'form-action', 'frame-ancestors', 'frame-src'])
      expect(policy.get(locked), locked).toBe("'none'");
  });

  it('puts the same policy in the meta element, less frame-ancestors (ignored there)', () => {
    const meta = directives(metaContentSecurityPolicy());
    const header = directives(contentSecurityPolicy());
    header.delete('frame-ancestors');
    expect(meta).toEqual(header);
  });
});
