import { describe, expect, it } from 'vitest';
import { windowOptions } from '../../../main/electron/window-options.ts';
import { guardWebContents, isAllowedExternal, type PreventableEvent } from '../../../main/electron/navigation-guard.ts';
import { denyAllPermissions } from '../../../main/electron/permissions.ts';
import { menuTemplate } from '../../../main/electron/menu-template.ts';

describe('window options', () => {
  it('isolate the renderer: context isolation, sandbox, no Node, no webview, web security on', () => {
    const prefs = windowOptions({ preloadPath: '/app/preload.cjs', devTools: false }).webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
  });
});

class FakeContents {
  readonly listeners = new Map<string, (event: PreventableEvent, url: string) => void>();
  windowOpen: ((details: { url: string }) => { action: 'deny' }) | undefined;
  on(event: string, listener: (event: PreventableEvent, url: string) => void): this {
    this.listeners.set(event, listener);
    return this;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpen = handler;
  }
  fire(event: string, url = ''): boolean {
    let prevented = false;
    const listener = this.listeners.get(event);
    if (listener === undefined) throw new Error(`no ${event} listener`);
    listener({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('navigation and new-window guard', () => {
  it('denies every navigation, redirect and webview, and opens only allowlisted https pages in the system browser', () => {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardWebContents(contents, (url) => opened.push(url));

    expect(contents.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(contents.fire('will-navigate', 'app://console/other.html')).toBe(true);
    expect(contents.fire('will-navigate', 'https://hl7.org/fhir/R4/patient.html')).toBe(true);
    expect(contents.fire('will-redirect', 'https://hl7.org/')).toBe(true);
    expect(contents.fire('will-attach-webview')).toBe(true);

    expect(contents.windowOpen?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpen?.({ url: 'http://hl7.org/fhir/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpen?.({ url: 'https://hl7.org/fhir/R4/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://hl7.org/fhir/R4/patient.html', 'https://hl7.org/fhir/R4/']);
  });

  it('allows only https, allowlisted origins, without credentials or look-alike hosts', () => {
    expect(isAllowedExternal('https://hl7.org/fhir/R4/patient.html')).toBe(true);
    expect(isAllowedExternal('http://hl7.org/fhir/R4/patient.html')).toBe(false);
    expect(isAllowedExternal('https://hl7.org.evil.example/')).toBe(false);
    expect(isAllowedExternal('https://user:pass@hl7.org/')).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternal('not a url')).toBe(false);
  });
});

describe('permission guard', () => {
  it('refuses every permission request, check and device', () => {
    let request: ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, permission: string) => boolean) | undefined;
    let device: ((details: unknown) => boolean) | undefined;
    denyAllPermissions({
      setPermissionRequestHandler: (handler) => (request = handler),
      setPermissionCheckHandler: (handler) => (check = handler),
      setDevicePermissionHandler: (handler) => (device = handler),
    });
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      request?.({}, permission, (value) => (granted = value));
      expect(granted).toBe(false);
      expect(check?.({}, permission)).toBe(false);
    }
    expect(device?.({ deviceType: 'usb' })).toBe(false);
  });
});

describe('menu', () => {
  const roles = (template: ReturnType<typeof menuTemplate>): string[] =>
    template.flatMap((item) => [
      item.role ?? '',
      ...(Array.isArray(item.submenu) ? item.submenu.map((sub) => sub.role ?? '') : []),
    ]);

  it('offers developer tools and reload only in an unpackaged build', () => {
    expect(roles(menuTemplate({ platform: 'linux', packaged: true, openExternal: () => undefined }))).not.toContain(
      'toggleDevTools',
    );
    expect(roles(menuTemplate({ platform: 'linux', packaged: true, openExternal: () => undefined }))).not.toContain(
      'reload',
    );
    expect(roles(menuTemplate({ platform: 'linux', packaged: false, openExternal: () => undefined }))).toContain(
      'toggleDevTools',
    );
  });

  it('opens its help link through the external-link allowlist', () => {
    const opened: string[] = [];
    const help = menuTemplate({ platform: 'linux', packaged: true, openExternal: (url) => opened.push(url) }).find(
      (item) => item.role === 'help',
    );
    const item = Array.isArray(help?.submenu) ? help.submenu[0] : undefined;
    (item?.click as (() => void) | undefined)?.();
    expect(opened).toHaveLength(1);
    expect(isAllowedExternal(opened[0] ?? '')).toBe(true);
  });
});
