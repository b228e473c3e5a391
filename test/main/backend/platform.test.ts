import { describe, expect, it } from 'vitest';
import { defaultDataFolder } from '../../../main/backend/data-folder.ts';
import { browserCommand } from '../../../main/browser-host/open-browser.ts';

describe('default data folder', () => {
  it('follows each platform: XDG on Linux (an absolute XDG_DATA_HOME only), Application Support on macOS, APPDATA on Windows', () => {
    expect(defaultDataFolder({ XDG_DATA_HOME: '/data/xdg' }, 'linux', '/home/ana')).toBe('/data/xdg/mpi-console');
    expect(defaultDataFolder({ XDG_DATA_HOME: 'relative/xdg' }, 'linux', '/home/ana')).toBe(
      '/home/ana/.local/share/mpi-console',
    );
    expect(defaultDataFolder({}, 'linux', '/home/ana')).toBe('/home/ana/.local/share/mpi-console');
    expect(defaultDataFolder({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Application Support/mpi-console');
    expect(
      defaultDataFolder({ APPDATA: 'C:\\\\Users\\\\ana\\\\AppData\\\\Roaming' }, 'win32', 'C:\\\\Users\\\\ana'),
    ).toMatch(/mpi-console$/);
  });
});

describe('opening the browser', () => {
  const url = 'http://127.0.0.1:5000/open?token=abc';

  it('uses the platform launcher, or $BROWSER', () => {
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, 'darwin', {})).toEqual(['open', [url]]);
    expect(browserCommand(url, 'linux', { BROWSER: 'firefox', DISPLAY: ':0' })).toEqual(['firefox', [url]]);
  });

  it('does not try without a display, or when $BROWSER says none', () => {
    expect(browserCommand(url, 'linux', {})).toBeNull();
    expect(browserCommand(url, 'linux', { BROWSER: 'none', DISPLAY: ':0' })).toBeNull();
    expect(browserCommand(url, 'linux', { BROWSER: '', DISPLAY: ':0' })).toBeNull();
  });
});
