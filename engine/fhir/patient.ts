import { z } from 'zod';
import type { ErrorIssue } from '../contract/errors.ts';
import { MIN_BIRTH_YEAR, PLACEHOLDER_BIRTH_DATES, isCalendarDate } from './calendar-date.ts';
import { hasControlCharacter } from '../text/control-characters.ts';
import { hasUnpairedSurrogate } from '../text/unpaired-surrogate.ts';
import { isR4ElementName } from './element-names.ts';
import { compareInstants } from './instant.ts';

/**
 * Validation of an R4 Patient as received from a source.
 *
 * Only the elements the engine reads are checked structurally; everything else passes through
 * (the caller keeps the original JSON). Every string in the whole resource, known or not, values and element
 * names alike, is checked for control characters, unpaired surrogates and length because all of it is
 * stored and may be displayed. The one exception
 * is the narrative (`text.div`, XHTML): its markup legitimately spans lines and runs long, so there TAB, LF
 * and CR are allowed and no per-string length applies (the whole resource stays within MAX_RESOURCE_BYTES).
 *
 * Messages name the path and the rule, never the value: values are patient data. Paths name only FHIR R4
 * elements (engine/fhir/element-names.ts); any other key is shown as `<unknown element N>`, N its position
 * (from 1) among its object's keys, because a sender's own keys can carry patient data.
 */

/** Upper bound on the serialised resource (JSON.stringify, UTF-8). */
export const MAX_RESOURCE_BYTES = 1024 * 1024;
/** Upper bound on any one string, in Unicode code points. */
export const MAX_STRING_LENGTH = 4096;
/** Real Patients nest well under 20 levels; the cap keeps the string walk's recursion bounded. */
export const MAX_DEPTH = 100;
/** A hostile or broken resource can yield an issue per string; the list is cut here. */
export const MAX_ISSUES = 100;
/** Path used for issues about the resource as a whole (FHIRPath names the root by its type). */
export const ROOT_PATH = 'Patient';

export const NAME_USES = ['usual', 'official', 'temp', 'nickname', 'anonymous', 'old', 'maiden'] as const;
export const GENDERS = ['male', 'female', 'other', 'unknown'] as const;
export const ADDRESS_USES = ['home', 'work', 'temp', 'old', 'billing'] as const;
export const CONTACT_SYSTEMS = ['phone', 'fax', 'email', 'pager', 'url', 'sms', 'other'] as const;
export const CONTACT_USES = ['home', 'work', 'temp', 'old', 'mobile'] as const;

export type NameUse = (typeof NAME_USES)[number];
export type Gender = (typeof GENDERS)[number];
export type AddressUse = (typeof ADDRESS_USES)[number];
export type ContactSystem = (typeof CONTACT_SYSTEMS)[number];
export type ContactUse = (typeof CONTACT_USES)[number];

export interface R4Identifier {
  readonly system: string;
  readonly value: string;
}

export interface R4HumanName {
  readonly use?: NameUse;
  readonly family?: string;
  readonly given?: readonly string[];
  readonly text?: string;
}

export interface R4Address {
  readonly use?: AddressUse;
  readonly line?: readonly string[];
  readonly city?: string;
  readonly state?: string;
  readonly postalCode?: string;
  readonly country?: string;
}

export interface R4ContactPoint {
  readonly system?: ContactSystem;
  readonly value?: string;
  readonly use?: ContactUse;
}

/** The subset of an R4 Patient the engine reads. */
export interface R4Patient {
  readonly resourceType: 'Patient';
  readonly id?: string;
  readonly meta?: { readonly lastUpdated?: string };
  readonly identifier?: readonly R4Identifier[];
  readonly name?: readonly R4HumanName[];
  readonly gender?: Gender;
  readonly birthDate?: string;
  readonly address?: readonly R4Address[];
  readonly telecom?: readonly R4ContactPoint[];
  /** The birth order of one of a multiple birth; read leniently (birthOrderOf), so any JSON value here. */
  readonly multipleBirthInteger?: unknown;
  /** Whether the patient is one of a multiple birth; read leniently (only `true` counts), so any JSON value here. */
  readonly multipleBirthBoolean?: unknown;
}

/**
 * Something in a valid Patient the engine cannot use, said without the value: the record is accepted and the
 * field is ignored for matching (treated as missing): `birthDate`; or for ordering versions: `meta.lastUpdated`.
 */
export interface PatientWarning {
  readonly path: string;
  readonly message: string;
}

export type PatientValidation =
  { ok: true; patient: R4Patient; warnings: PatientWarning[] } | { ok: false; issues: ErrorIssue[] };

// ---- rules on single values (messages carry no value) ----

const FHIR_ID = /^[A-Za-z0-9.-]{1,64}$/;
/** An identifier system is a namespace, so it must be absolute: a scheme, a colon, no whitespace. */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
/**
 * The R4 `date` regular expression (https://hl7.org/fhir/R4/datatypes.html#date), anchored: year 0001-9999,
 * month 01-12, day 01-31. It admits days no calendar has (2019-02-30); the spec's prose asks for valid dates,
 * but the shape is what validators check, so such a date is taken as a data-entry error in a valid resource.
 */
const FHIR_DATE =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** The furthest local time zone is UTC+14; a birth "today" there is not in the future. */
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;
/**
 * How far a source's clock may run ahead of ours: a meta.lastUpdated later than now plus this is not believed
 * (lastUpdatedWarning).
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

function idProblem(s: string): string | null {
  return FHIR_ID.test(s) ? null : 'must be a FHIR id: 1-64 letters, digits, "-" or "."';
}

function systemProblem(s: string): string | null {
  return ABSOLUTE_URI.test(s) ? null : 'must be an absolute URI (scheme:..., no spaces)';
}

function identifierValueProblem(s: string): string | null {
  return s.trim() === '' ? 'must not be empty or blank' : null;
}

/** Leap seconds (ss = 60) are rejected: JavaScript dates and our stores cannot represent them. */
function instantProblem(s: string): string | null {
  const m = INSTANT.exec(s);
  const ok =
    m !== null &&
    Number(m[1]) >= 1 &&
    isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) <= 23 &&
    Number(m[5]) <= 59 &&
    Number(m[6]) <= 59 &&
    (m[7] === undefined || offsetIsValid(Number(m[7]), Number(m[8])));
  return ok ? null : 'must be a FHIR instant (YYYY-MM-DDThh:mm:ss[.sss] with Z or ±hh:mm) naming a real date and time';
}

function offsetIsValid(hours: number, minutes: number): boolean {
  return minutes <= 59 && (hours < 14 || (hours === 14 && minutes === 0));
}

/** The largest birth order read: nonuplets are the most recorded; anything larger is a slip. */
const MAX_BIRTH_ORDER = 9;
const BIRTH_ORDER_WARNING = `is not a birth order (a whole number from 1 to ${String(MAX_BIRTH_ORDER)}); ignored for matching`;

/**
 * A Patient's multipleBirthInteger as a birth order (1, 2, ...), or null when it is not one. Read leniently: the
 * element was ignored before it was read, so a sender's odd value (0, "2", 2.5) costs a warning, never the record.
 */
export function birthOrderOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_BIRTH_ORDER ? value : null;
}

/** A birth date that does not have the R4 `date` shape is invalid FHIR: the record is rejected. */
function birthDateProblem(s: string): string | null {
  return FHIR_DATE.test(s) ? null : 'must be a FHIR date (YYYY, YYYY-MM or YYYY-MM-DD)';
}

/**
 * A birth date of the right shape that cannot be a person's: a day the calendar lacks (1980-02-30), before
 * MIN_BIRTH_YEAR (placeholders such as 1800-01-01), a placeholder for "unknown" (PLACEHOLDER_BIRTH_DATES:
 * 1900-01-01), or after today anywhere on Earth at `nowMs` (ingestion
 * time). The record is kept and the date ignored for matching; partial dates (YYYY, YYYY-MM) are plausible and
 * simply too coarse to compare, so they get no warning. Messages never carry the value.
 */
export function birthDateWarning(s: string, nowMs: number): string | null {
  const [yearText, monthText, dayText] = s.split('-');
  const year = Number(yearText);
  if (monthText !== undefined && dayText !== undefined && !isCalendarDate(year, Number(monthText), Number(dayText))) {
    return 'is not a real calendar date; ignored for matching';
  }
  if (year < MIN_BIRTH_YEAR) return `is before ${String(MIN_BIRTH_YEAR)}; ignored for matching`;
  if (PLACEHOLDER_BIRTH_DATES.has(s))
    return 'is a placeholder systems write for an unknown birth date; ignored for matching';
  // Fixed-width ISO strings compare correctly as text, also for the YYYY and YYYY-MM prefixes.
  const latestToday = new Date(nowMs + LATEST_OFFSET_MS).toISOString().slice(0, s.length);
  return s > latestToday ? 'is in the future; ignored for matching' : null;
}

/**
 * A meta.lastUpdated beyond now plus the clock skew allowed cannot be when the source last changed the resource.
 * Believed, it would decide the order of every later version (each real correction skipped as stale), so it is
 * ignored for ordering, as an impossible birth date is ignored for matching: the record is kept, the instant
 * treated as unknown, and a warning names the field, never the value.
 */
export function lastUpdatedWarning(instant: string, nowMs: number): string | null {
  return compareInstants(instant, new Date(nowMs + MAX_CLOCK_SKEW_MS).toISOString()) > 0
    ? 'is in the future; ignored for ordering versions'
    : null;
}

/** True when a stored instant lies beyond now plus the clock skew allowed (kept before the rule above existed). */
export function isFutureInstant(instant: string, nowMs: number): boolean {
  return lastUpdatedWarning(instant, nowMs) !== null;
}

// ---- structure (zod); every schema carries its own message so no default text leaks through ----

type RawIssue = { readonly input?: unknown };
const expecting =
  (what: string) =>
  (issue: RawIssue): string =>
    issue.input === undefined ? 'is required' : `must be ${what}`;

const str = z.string({ error: expecting('a string') });
const strArray = z.array(str, { error: expecting('an array of strings') });

function ruled(schema: z.ZodString, problemOf: (s: string) => string | null): z.ZodString {
  return schema.superRefine((value, ctx) => {
    const problem = problemOf(value);
    if (problem !== null) ctx.addIssue(problem);
  });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

function objectOf<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.looseObject(shape, { error: expecting('a JSON object') });
}

function listOf<T extends z.ZodType>(item: T) {
  return z.array(item, { error: expecting('an array') });
}

const IdentifierSchema = objectOf({
  system: ruled(z.string({ error: expecting('a URI string') }), systemProblem),
  value: ruled(z.string({ error: expecting('a string') }), identifierValueProblem),
});

const HumanNameSchema = objectOf({
  use: oneOf(NAME_USES).exactOptional(),
  family: str.exactOptional(),
  given: strArray.exactOptional(),
  text: str.exactOptional(),
});

const AddressSchema = objectOf({
  use: oneOf(ADDRESS_USES).exactOptional(),
  line: strArray.exactOptional(),
  city: str.exactOptional(),
  state: str.exactOptional(),
  postalCode: str.exactOptional(),
  country: str.exactOptional(),
});

const ContactPointSchema = objectOf({
  system: oneOf(CONTACT_SYSTEMS).exactOptional(),
  value: str.exactOptional(),
  use: oneOf(CONTACT_USES).exactOptional(),
});

/** Built once (zod schemas are costly to build). */
const PatientSchema = objectOf({
  resourceType: z.literal('Patient', { error: 'must be "Patient"' }),
  id: ruled(str, idProblem).exactOptional(),
  meta: objectOf({ lastUpdated: ruled(str, instantProblem).exactOptional() }).exactOptional(),
  identifier: listOf(IdentifierSchema).exactOptional(),
  name: listOf(HumanNameSchema).exactOptional(),
  gender: oneOf(GENDERS).exactOptional(),
  birthDate: ruled(str, birthDateProblem).exactOptional(),
  address: listOf(AddressSchema).exactOptional(),
  telecom: listOf(ContactPointSchema).exactOptional(),
});

// ---- paths ----

type Segment = string | number;

function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? ROOT_PATH : out;
}

function zodPath(path: readonly PropertyKey[]): string {
  return formatPath(path.filter((s): s is Segment => typeof s === 'string' || typeof s === 'number'));
}

// ---- issue collection ----

class IssueList {
  readonly issues: ErrorIssue[] = [];
  private truncated = false;

  get full(): boolean {
    return this.truncated;
  }

  add(path: string, message: string): void {
    if (this.issues.length >= MAX_ISSUES) this.truncated = true;
    else this.issues.push({ path, message });
  }

  finish(): ErrorIssue[] {
    if (this.truncated) {
      this.issues.push({
        path: ROOT_PATH,
        message: `more than ${MAX_ISSUES} issues; only the first ${MAX_ISSUES} are listed`,
      });
    }
    return this.issues;
  }
}

// ---- the string walk ----

/** The narrative's XHTML: Patient.text.div. */
function isNarrative(path: readonly Segment[]): boolean {
  return path.length === 2 && path[0] === 'text' && path[1] === 'div';
}

/** Counts code points only when the UTF-16 length could exceed the limit (the common case is O(1)). */
function isTooLong(s: string): boolean {
  if (s.length <= MAX_STRING_LENGTH) return false;
  let codePoints = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A low surrogate continues the code point its high surrogate started.
    if (c < 0xdc00 || c > 0xdfff) codePoints++;
  }
  return codePoints > MAX_STRING_LENGTH;
}

/** `subject` is '' for a value and 'the element name ' for a key, so both read as one rule. */
function checkString(s: string, path: readonly Segment[], subject: string, issues: IssueList): void {
  const narrative = subject === '' && isNarrative(path);
  if (hasControlCharacter(s, narrative)) {
    issues.add(
      formatPath(path),
      narrative
        ? 'must not contain control characters other than tab, line feed and carriage return'
        : `${subject}must not contain control characters (U+0000-U+001F, U+007F-U+009F)`,
    );
  }
  if (hasUnpairedSurrogate(s))
    issues.add(
      formatPath(path),
      `${subject}must not contain an unpaired surrogate (U+D800-U+DFFF): it is no character`,
    );
  if (!narrative && isTooLong(s))
    issues.add(formatPath(path), `${subject}must be at most ${MAX_STRING_LENGTH} characters`);
}

function walkStrings(value: unknown, path: Segment[], issues: IssueList): void {
  if (issues.full) return;
  if (typeof value === 'string') {
    checkString(value, path, '', issues);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (path.length >= MAX_DEPTH) {
    issues.add(formatPath(path), `elements must not be nested deeper than ${MAX_DEPTH} levels`);
    return;
  }
  if (Array.isArray(value)) {
    const items = value as readonly unknown[];
    for (let i = 0; i < items.length; i++) {
      path.push(i);
      walkStrings(items[i], path, issues);
      path.pop();
    }
    return;
  }
  const record = value as Record<string, unknown>;
  let position = 0;
  for (const key of Object.keys(record)) {
    position++;
    path.push(isR4ElementName(key) ? key : `<unknown element ${String(position)}>`);
    checkString(key, path, 'the element name ', issues);
    walkStrings(record[key], path, issues);
    path.pop();
  }
}

// ---- helpers ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- entry point ----

/**
 * Validates a parsed JSON value as an R4 Patient. Returns every issue in a stable order: structure of
 * the read elements (document order of the schema), then string content over the whole resource in
 * document order. A value that is not a Patient object, or is too large, yields just that one issue:
 * checking the rest would be noise (or unbounded work).
 *
 * A Patient needs no name (R4 has none required: newborns, unknown patients); matching uses what is there
 * and the scorer holds a record without name evidence back from Certain. A valid Patient can still carry
 * warnings (birthDateWarning): `nowMs` is the ingestion time the future-date rule is judged against.
 */
export function validatePatient(resource: unknown, nowMs = Date.now()): PatientValidation {
  if (!isRecord(resource)) return fail(ROOT_PATH, 'a Patient must be a JSON object');

  let serialised: string;
  try {
    serialised = JSON.stringify(resource);
  } catch {
    return fail(ROOT_PATH, 'a Patient must be serialisable as JSON');
  }
  if (Buffer.byteLength(serialised, 'utf8') > MAX_RESOURCE_BYTES) {
    return fail(ROOT_PATH, `a serialised Patient must be at most ${MAX_RESOURCE_BYTES} bytes`);
  }
  if (resource.resourceType !== 'Patient') return fail('resourceType', 'must be "Patient"');

  const issues = new IssueList();
  const parsed = PatientSchema.safeParse(resource);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issues.add(zodPath(issue.path), issue.message);
  }
  walkStrings(resource, [], issues);

  if (issues.issues.length > 0 || !parsed.success) return { ok: false, issues: issues.finish() };
  const patient: R4Patient = parsed.data;
  const warnings: PatientWarning[] = [];
  const birth = patient.birthDate === undefined ? null : birthDateWarning(patient.birthDate, nowMs);
  if (birth !== null) warnings.push({ path: 'birthDate', message: birth });
  const updated = patient.meta?.lastUpdated === undefined ? null : lastUpdatedWarning(patient.meta.lastUpdated, nowMs);
  if (updated !== null) warnings.push({ path: 'meta.lastUpdated', message: updated });
  if (patient.multipleBirthInteger !== undefined && birthOrderOf(patient.multipleBirthInteger) === null)
    warnings.push({ path: 'multipleBirthInteger', message: BIRTH_ORDER_WARNING });
  if (patient.multipleBirthBoolean !== undefined && typeof patient.multipleBirthBoolean !== 'boolean')
    warnings.push({ path: 'multipleBirthBoolean', message: 'is not true or false; ignored for matching' });
  return { ok: true, patient, warnings };
}

function fail(path: string, message: string): PatientValidation {
  return { ok: false, issues: [{ path, message }] };
}
