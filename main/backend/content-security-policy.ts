/**
 * The renderer's Content-Security-Policy, the same in Electron (app:// protocol) and in the browser host
 * (http://127.0.0.1): scripts only from the app's own files (no inline script, no eval), no plugins, no
 * frames, no forms posting elsewhere, requests only to the app's own origin. Inline styles are allowed:
 * Mantine sets CSS variables through style attributes and a <style> element, and nonces cannot cover
 * style attributes; styles cannot run code.
 */
export const CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'none'"],
  ['script-src', "'self'"],
  ['style-src', "'self' 'unsafe-inline'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['manifest-src', "'self'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['object-src', "'none'"],
  ['frame-src', "'none'"],
  ['worker-src', "'none'"],
  ['frame-ancestors', "'none'"],
];

/** The policy for the Content-Security-Policy response header. */
export function contentSecurityPolicy(): string {
  return CSP_DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ');
}

/** The policy for a <meta http-equiv> element, which ignores frame-ancestors (the header carries it). */
export function metaContentSecurityPolicy(): string {
  return CSP_DIRECTIVES.filter(([name]) => name !== 'frame-ancestors')
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}
