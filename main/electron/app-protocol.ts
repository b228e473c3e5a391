/**
 * The app is served from its built files through a custom, privileged `app://console/` scheme (standard and
 * secure, so it has an origin and `'self'` in the CSP means exactly the app), never from a remote URL or a
 * loosely-privileged file:// origin.
 */
import { contentSecurityPolicy } from '../backend/content-security-policy.ts';
import { staticFile, type StaticFile } from '../backend/static-files.ts';

export const APP_SCHEME = 'app';
export const APP_HOST = 'console';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The privileges registered for the scheme before the app is ready (protocol.registerSchemesAsPrivileged). */
// corsEnabled: Vite's module scripts carry crossorigin; without it Chromium refuses to load them from a custom scheme.
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: true,
  codeCache: true,
} as const;

/** URL.origin is opaque ("null") for a custom scheme outside Chromium, so scheme and host are compared. */
function isAppLocation(url: URL): boolean {
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    url.username === '' &&
    url.password === '' &&
    url.port === ''
  );
}

export function isAppUrl(url: string): boolean {
  try {
    return isAppLocation(new URL(url));
  } catch {
    return false;
  }
}

export type AppResponse =
  | { readonly status: 200; readonly body: Buffer; readonly headers: Record<string, string> }
  | { readonly status: 404; readonly body: string; readonly headers: Record<string, string> };

/** The answer to one app:// request: a built file with its type and the CSP, or 404 for anything else. */
export async function appResponse(rendererDir: string, requestUrl: string): Promise<AppResponse> {
  const notFound: AppResponse = {
    status: 404,
    body: 'not found',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  };
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return notFound;
  }
  if (!isAppLocation(url)) return notFound;
  const file: StaticFile | undefined = await staticFile(rendererDir, url.pathname);
  if (file === undefined) return notFound;
  return {
    status: 200,
    body: file.body,
    headers: {
      'content-type': file.type,
      'content-security-policy': contentSecurityPolicy(),
      'x-content-type-options': 'nosniff',
    },
  };
}
