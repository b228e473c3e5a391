/**
 * The Patient search of an import (spec "External source search") and the rule for its next links.
 * The first URL is BaseUrl/Patient with the configured extra parameters, an inclusive `_lastUpdated=ge` lower
 * bound for an incremental run, an upper bound `_lastUpdated=le` fixed to the instant the job started, and a
 * bounded `_count`. A next link (`Bundle.link[relation=next]`) is opaque, but it must keep the configured
 * scheme, authority and base path, and carry no user information; otherwise it is not followed. Errors name
 * the rule, never the link (its query can carry anything).
 */
import { SourceError } from './source-error.ts';

export interface SearchWindow {
  /** Inclusive lower bound (incremental runs only). */
  readonly changedSince: string | null;
  /** The instant the job started. */
  readonly upTo: string;
  readonly pageSize: number;
}

function basePath(base: URL): string {
  return base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
}

export function firstPageUrl(
  baseUrl: string,
  parameters: Readonly<Record<string, string>>,
  window: SearchWindow,
): string {
  const base = new URL(baseUrl);
  const url = new URL(`${basePath(base)}Patient`, base.origin);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.append(name, value);
  if (window.changedSince !== null) url.searchParams.append('_lastUpdated', `ge${window.changedSince}`);
  url.searchParams.append('_lastUpdated', `le${window.upTo}`);
  url.searchParams.append('_count', String(window.pageSize));
  return url.href;
}

/**
 * The path's segments, percent-decoded, or undefined when one holds a malformed escape, decodes to a slash or a
 * backslash, or is a dot segment once decoded (`%2e%2e`).
 */
function decodedSegments(pathname: string): string[] | undefined {
  const out: string[] = [];
  for (const raw of pathname.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment.includes('/') || segment.includes('\\') || segment === '.' || segment === '..') return undefined;
    out.push(segment);
  }
  return out;
}

/** The next link as a URL to follow, or a permanent SourceError naming the rule it breaks. */
export function checkedNextLink(next: string, baseUrl: string): string {
  const fail = (rule: string): never => {
    throw new SourceError(`the server's next-page link was not followed: ${rule}`, false);
  };
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    return fail('it is not an absolute URL');
  }
  const base = new URL(baseUrl);
  if (url.protocol !== base.protocol) fail('it changes the scheme of BaseUrl');
  if (url.host !== base.host) fail('it leaves the authority (host and port) of BaseUrl');
  if (url.username !== '' || url.password !== '') fail('it carries user information');
  // Compared segment by segment, decoded: the URL parser resolves dot segments but not encoded ones, and a server
  // behind a proxy may decode `..%2f` into a step out of the base path.
  const segments =
    decodedSegments(url.pathname) ?? fail('it holds an encoded slash, backslash or dot segment, or a malformed escape');
  const baseSegments = decodedSegments(basePath(base)) ?? fail('BaseUrl holds an encoded slash or dot segment');
  const under = baseSegments.filter((segment) => segment !== '');
  const given = segments.filter((segment, index) => segment !== '' || index === segments.length - 1);
  if (!under.every((segment, index) => given[index] === segment)) fail('it leaves the base path of BaseUrl');
  if (url.href.length > 8192) fail('it is longer than 8,192 characters');
  url.hash = '';
  return url.href;
}
