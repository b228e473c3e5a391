/**
 * Placeholder identifiers, phones, e-mail addresses and address lines: what registration staff type when the patient
 * has none, does not know it or declines to give it ("999-99-9999", "000-000-0000", "noemail@noemail.com", a masked
 * "***-**-1234", "Homeless", "No fixed abode"). Such a value is the same on the records of every patient who has
 * none, so agreement on it says nothing about who the person is, and on an identifier system the profile trusts it
 * linked strangers outright (two patients of another name, sex and birth date, both registered with 999-99-9999, at
 * score 1). A placeholder is missing for matching, as placeholder names and birth dates are (name.ts,
 * fhir/calendar-date.ts); the ingest report warns of each, naming the element, never the value (record-preparer.ts).
 *
 * Only patterns no real number or address takes: one character repeated, an unbroken run of ascending or descending
 * digits, a value typed masked, words that say there is none; and for a United States Social Security number (its
 * FHIR and OID systems), what the Social Security Administration never issues (area 000 or 666, group 00, serial
 * 0000, not nine digits) and the two numbers printed on sample cards that thousands of people have used. Area 900-999
 * is not an SSN either, but there the IRS issues taxpayer numbers (ITINs) that sources file as one: each is still one
 * person's, so it is kept.
 */

/** Identifier values that are words for "none": compared as upper-case letters and digits (code.ts). */
const PLACEHOLDER_CODES: ReadonlySet<string> = new Set([
  'NONE',
  'NA',
  'NULL',
  'NIL',
  'UNK',
  'UNKN',
  'UNKNOWN',
  'TBD',
  'PENDING',
  'REFUSED',
  'DECLINED',
  'NOTGIVEN',
  'NOTKNOWN',
  'NOTPROVIDED',
  'NOTAVAILABLE',
  'UNAVAILABLE',
  'NOSSN',
  'NONUMBER',
]);

/** The Social Security number's systems: FHIR's and the HL7 OID. */
const SSN_SYSTEMS: ReadonlySet<string> = new Set(['http://hl7.org/fhir/sid/us-ssn', 'urn:oid:2.16.840.1.113883.4.1']);

/** Numbers printed on sample Social Security cards (a wallet insert of 1938, an advertisement), used by thousands. */
const SAMPLE_SSNS: ReadonlySet<string> = new Set(['078051120', '219099999']);

/** The shortest run of consecutive digits (1234567, 9876543) taken for a placeholder rather than a number. */
const MIN_DIGIT_RUN = 7;

/** A value typed masked: asterisks or a run of X standing for the hidden digits ("***-**-1234", "XXX-XX-1234"). */
const MASKED = /\*|[xX]{3,}/;

/** True when the value is at least minLength characters, all the same one ("000", "99999999", "XXXX"). */
function isRepeated(value: string, minLength: number): boolean {
  if (value.length < minLength) return false;
  for (let i = 1; i < value.length; i++) if (value[i] !== value[0]) return false;
  return true;
}

/** True when the value is digits that each go one up (or each one down) from the last, wrapping 9 to 0. */
function isDigitRun(value: string): boolean {
  if (value.length < MIN_DIGIT_RUN || !/^[0-9]+$/.test(value)) return false;
  const step = (value.charCodeAt(1) - value.charCodeAt(0) + 10) % 10;
  if (step !== 1 && step !== 9) return false;
  for (let i = 1; i < value.length; i++) {
    if ((value.charCodeAt(i) - value.charCodeAt(i - 1) + 10) % 10 !== step) return false;
  }
  return true;
}

/** What the Social Security Administration never issues, or printed on a sample card: a SSN value that is no one's. */
function isUnissuedSsn(code: string): boolean {
  if (!/^[0-9]{9}$/.test(code)) return true;
  const area = code.slice(0, 3);
  if (area === '000' || area === '666') return true;
  return code.slice(3, 5) === '00' || code.slice(5) === '0000' || SAMPLE_SSNS.has(code);
}

/**
 * True when an identifier's value is a placeholder rather than a number of the person's: `raw` as the source sent
 * it (a mask shows there), `code` its normalised form (upper-case letters and digits, code.ts).
 */
export function isPlaceholderIdentifier(system: string, raw: string, code: string): boolean {
  if (MASKED.test(raw) || isRepeated(code, 3) || /^0+$/.test(code) || isDigitRun(code)) return true;
  if (PLACEHOLDER_CODES.has(code)) return true;
  return SSN_SYSTEMS.has(system) && isUnissuedSsn(code);
}

/**
 * True when a phone number (its normalised digits, phone.ts) is a placeholder: the line's last seven digits one digit
 * repeated ("000-000-0000", "(204) 999-9999") or the whole number a run of consecutive digits ("123-4567").
 */
export function isPlaceholderPhone(digits: string): boolean {
  return isRepeated(digits.slice(-7), 7) || isDigitRun(digits);
}

/** Local parts that say there is no address, compared without dots, dashes, underscores or '+'. */
const PLACEHOLDER_MAILBOXES: ReadonlySet<string> = new Set([
  'none',
  'noemail',
  'noemailaddress',
  'nomail',
  'noaddress',
  'email',
  'unknown',
  'unk',
  'na',
  'null',
  'nil',
  'notprovided',
  'notgiven',
  'declined',
  'refused',
  'patientdeclined',
  'noreply',
  'donotreply',
  'invalid',
]);

/**
 * Domain names (the part before the first dot) that say there is no address. Not the reserved example domains
 * (RFC 2606): synthetic data rightly uses them for addresses that stand for real ones.
 */
const PLACEHOLDER_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'none',
  'noemail',
  'nomail',
  'noaddress',
  'unknown',
  'noreply',
  'donotreply',
  'declined',
  'refused',
  'invalid',
]);

/**
 * True when a normalised e-mail address (email.ts: trimmed, lower case, text either side of an '@') says the patient
 * has none: "noemail@noemail.com", "none@gmail.com", "declined@clinic.org", "x@none.com", "xxx@mail.com".
 */
export function isPlaceholderEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  const mailbox = email.slice(0, at).replace(/[._+-]/g, '');
  const domainName = (email.slice(at + 1).split('.')[0] ?? '').replace(/[-_]/g, '');
  return PLACEHOLDER_MAILBOXES.has(mailbox) || isRepeated(mailbox, 3) || PLACEHOLDER_MAIL_DOMAINS.has(domainName);
}

/**
 * Address lines (normalised text, text.ts: lower case, punctuation a space) that say the patient has no address: a
 * homeless patient's "Homeless" or "No fixed abode" is the same on every such patient's record, and agreeing on it
 * lifted the hold on two namesakes of whom one had no birth date. The whole line only: "Homeless shelter, 12 Quay
 * Road" is a place.
 */
const PLACEHOLDER_ADDRESS_LINES: ReadonlySet<string> = new Set([
  'homeless',
  'homeless shelter',
  'no fixed abode',
  'no fixed address',
  'nfa',
  'no address',
  'no permanent address',
  'address unknown',
  'unknown',
  'unknown address',
  'unk',
  'none',
  'na',
  'n a',
  'not known',
  'not given',
  'not provided',
  'declined',
  'refused',
  'general delivery',
  'transient',
  'unhoused',
  'undomiciled',
]);

/** True when a normalised address line says the patient has no address ("Homeless", "N/A", "No fixed abode"). */
export function isPlaceholderAddressLine(line: string): boolean {
  return PLACEHOLDER_ADDRESS_LINES.has(line);
}
