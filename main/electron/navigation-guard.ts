/**
 * Navigation and new windows are denied: the app is one page (hash routes never navigate). A link to an
 * allowlisted https page opens in the system browser; every other URL is dropped. Webviews are refused.
 * Written against a structural WebContents so it is tested without Electron.
 */
export const EXTERNAL_ORIGINS: readonly string[] = ['https://hl7.org', 'https://www.hl7.org'];

/** Only https pages on an allowlisted origin, without credentials in the URL, leave the app (to the system browser). */
export function isAllowedExternal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.username === '' &&
    parsed.password === '' &&
    EXTERNAL_ORIGINS.includes(parsed.origin)
  );
}

export interface PreventableEvent {
  preventDefault(): void;
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export function guardWebContents(contents: WebContentsLike, openExternal: (url: string) => void): void {
  const leave = (url: string): void => {
    if (isAllowedExternal(url)) openExternal(url);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    leave(url);
  });
  contents.on('will-redirect', (event) => {
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    leave(url);
    return { action: 'deny' };
  });
}
