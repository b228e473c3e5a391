/**
 * Reading a search page: a FHIR R4 Bundle of type `searchset`. Entries whose search mode is `include` or
 * `outcome` are not matches and are passed over; an entry without a resource is reported by its path. Nothing
 * here quotes the body: a page that is not a searchset Bundle is a permanent error naming the rule.
 *
 * A page holds at most what was asked for: `_count` (PageSize) matches and a few other entries
 * (OTHER_ENTRIES_ALLOWED: an OperationOutcome, say). A source that answers a `_count` of 25 with 208,000 entries
 * fails the job before any of them is prepared: paging it any further cannot be trusted either.
 */
import { SourceError } from './source-error.ts';
import { countText } from '../contract/count-text.ts';

export interface PageEntry {
  /** `Bundle.entry[i].resource` */
  readonly path: string;
  readonly resource: unknown;
}

export interface SearchPage {
  readonly entries: readonly PageEntry[];
  /** Entries that are not search matches (includes, outcomes) and were passed over. */
  readonly passedOver: number;
  /** The raw next link, not yet checked (search-url.ts checkedNextLink). */
  readonly next: string | null;
  /** Entries without a resource: their paths. */
  readonly empty: readonly string[];
  /**
   * The matches the search holds (`Bundle.total`), when the server says: a whole number, else null. A hint only
   * (the import judges its pairs at the size it brings the registry to), never a bound on what is read.
   */
  readonly total: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Entries a page may carry beyond the matches asked for. */
export const OTHER_ENTRIES_ALLOWED = 10;

export function readSearchPage(body: string, pageSize: number = Number.MAX_SAFE_INTEGER): SearchPage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new SourceError('the FHIR server sent a page that is not valid JSON', false);
  }
  if (!isObject(parsed) || parsed.resourceType !== 'Bundle')
    throw new SourceError('the FHIR server sent a page that is not a Bundle (resourceType)', false);
  if (parsed.type !== 'searchset')
    throw new SourceError('the FHIR server sent a Bundle that is not a searchset (Bundle.type)', false);
  const rawEntries = parsed.entry ?? [];
  if (!Array.isArray(rawEntries))
    throw new SourceError('the FHIR server sent a Bundle whose entry is not an array (Bundle.entry)', false);
  if (rawEntries.length > pageSize + OTHER_ENTRIES_ALLOWED) {
    throw new SourceError(
      `the FHIR server sent ${countText(rawEntries.length)} entries in one page; ${String(pageSize)} were asked for (_count, PageSize). Nothing of the page was imported`,
      false,
    );
  }
  const rawLinks = parsed.link ?? [];
  if (!Array.isArray(rawLinks))
    throw new SourceError('the FHIR server sent a Bundle whose link is not an array (Bundle.link)', false);
  const nexts = rawLinks.filter((link): link is Record<string, unknown> => isObject(link) && link.relation === 'next');
  if (nexts.length > 1)
    throw new SourceError('the FHIR server sent a Bundle with more than one next link (Bundle.link)', false);
  const nextUrl = nexts[0]?.url;
  if (nexts.length === 1 && (typeof nextUrl !== 'string' || nextUrl === ''))
    throw new SourceError('the FHIR server sent a next link without a URL (Bundle.link.url)', false);
  const entries: PageEntry[] = [];
  const empty: string[] = [];
  let passedOver = 0;
  rawEntries.forEach((entry: unknown, index) => {
    const path = `Bundle.entry[${String(index)}]`;
    if (!isObject(entry)) {
      empty.push(path);
      return;
    }
    const mode = isObject(entry.search) ? entry.search.mode : undefined;
    if (mode === 'include' || mode === 'outcome') {
      passedOver++;
      return;
    }
    if (entry.resource === undefined) empty.push(`${path}.resource`);
    else entries.push({ path: `${path}.resource`, resource: entry.resource });
  });
  if (entries.length + empty.length > pageSize) {
    throw new SourceError(
      `the FHIR server sent ${String(entries.length + empty.length)} matches in one page; ${String(pageSize)} were asked for (_count, PageSize). Nothing of the page was imported`,
      false,
    );
  }
  const total = Number.isSafeInteger(parsed.total) && (parsed.total as number) >= 0 ? (parsed.total as number) : null;
  return { entries, passedOver, next: typeof nextUrl === 'string' ? nextUrl : null, empty, total };
}
