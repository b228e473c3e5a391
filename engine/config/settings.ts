/**
 * The configuration file: what must not live in the database. It holds the tenants' HMAC blocking secrets
 * (by key version) and the maintenance worker settings. Its secrets never appear in logs, errors, job
 * records or the renderer; how it is written (atomically, under a lock, together with its audit rows) is in
 * settings-file.ts.
 *
 * Tenant IDs and key versions are user-chosen keys, so the parsed form keeps them in Maps: `__proto__`,
 * `constructor` or `toString` are tenants like any other, never members of Object.prototype.
 *
 * Errors name where the problem is and never a value, not even a key: a secret typed where a key belongs
 * (a swapped key and value, a stray top-level key) would otherwise be printed. A key is shown only when it
 * fits its position (a tenant ID, a key version, a schema key) and is not shaped like a secret; any other
 * key is shown as KEY_NOT_SHOWN.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { validationError, type ErrorIssue } from '../contract/errors.ts';
import { MaintenanceSettingsSchema, ReconciliationScheduleSchema, type MaintenanceSettings } from './maintenance.ts';
import { FHIR_SOURCE_KEYS } from './fhir-sources.ts';
import { ApiSettingsSchema, DevAuthSettingsSchema, type ApiSettings } from './api.ts';

export const TENANT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const KEY_VERSION_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;
export const KEY_NOT_SHOWN = '<key not shown>';
const SECRET_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;
const MIN_SECRET_BYTES = 32;
const SECTIONS = ['BlockingKeys', 'Maintenance', 'Api'] as const;

export interface Settings {
  /** tenant → key version → base64 secret. */
  readonly BlockingKeys: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Background worker and scheduled reconciliations (engine/config/maintenance.ts); defaults when absent. */
  readonly Maintenance?: MaintenanceSettings | undefined;
  /** Token validation of `mpi-console serve` and the development issuer (engine/config/api.ts). */
  readonly Api?: ApiSettings | undefined;
}

export function emptySettings(): Settings {
  return { BlockingKeys: new Map() };
}

export function settingsPathFor(dbPath: string): string {
  return dbPath.replace(/\.(db|sqlite|sqlite3)$/i, '') + '.config.json';
}

export function isSecret(text: string): boolean {
  return SECRET_PATTERN.test(text) && Buffer.from(text, 'base64').length >= MIN_SECRET_BYTES;
}

const SECRET_SHAPED = /[A-Za-z0-9+/]{40,}={0,2}/g;
export const SECRET_NOT_SHOWN = '<not shown: shaped like a blocking secret>';

/**
 * Text with every run shaped like a blocking secret (base64 of 32 bytes or more) replaced: for messages that
 * echo configuration values (profile validation), so a secret pasted into the wrong file is never repeated.
 */
export function maskSecrets(text: string): string {
  return text.replace(SECRET_SHAPED, (run) => (isSecret(run) ? SECRET_NOT_SHOWN : run));
}

/** A key as it may appear in an error: itself when it fits its position and cannot be a secret. */
function shownKey(key: string, fits: (key: string) => boolean): string {
  return fits(key) && !isSecret(key) ? key : KEY_NOT_SHOWN;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MAINTENANCE_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(MaintenanceSettingsSchema.shape),
  ...Object.keys(ReconciliationScheduleSchema.shape),
  ...FHIR_SOURCE_KEYS,
]);

const API_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(ApiSettingsSchema.shape),
  ...Object.keys(DevAuthSettingsSchema.shape),
  ...Object.keys(DevAuthSettingsSchema.shape.PrivateKey.shape),
]);

/** A zod error of one section as issues that name schema keys only (engine/config/maintenance.ts, api.ts). */
function sectionIssues(section: string, knownKeys: ReadonlySet<string>, error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => {
    const parts = [section];
    for (const part of issue.path) {
      if (typeof part === 'number') parts.push(`${parts.pop() ?? ''}[${String(part)}]`);
      else parts.push(shownKey(String(part), (k) => knownKeys.has(k)));
    }
    const path = parts.join('.');
    switch (issue.code) {
      case 'unrecognized_keys':
        return {
          path,
          message: `${String(issue.keys.length)} unknown key(s), not shown (a key outside the schema may hold a secret)`,
        };
      case 'invalid_type':
        return { path, message: `expected ${issue.expected}` };
      case 'too_small':
        return { path, message: `too small (minimum ${String(issue.minimum)})` };
      case 'too_big':
        return { path, message: `too big (maximum ${String(issue.maximum)})` };
      case 'invalid_value':
        return { path, message: 'not one of the allowed values' };
      default:
        // Our own rules' messages (regex and refinements) never quote the value.
        return { path, message: issue.message };
    }
  });
}

function blockingKeyIssues(raw: unknown, keys: Map<string, Map<string, string>>): ErrorIssue[] {
  if (!isPlainObject(raw))
    return [{ path: 'BlockingKeys', message: 'expected an object: tenant ID → key version → base64 secret' }];
  const issues: ErrorIssue[] = [];
  for (const tenantId of Object.keys(raw)) {
    const tenantPath = `BlockingKeys.${shownKey(tenantId, (k) => TENANT_ID_PATTERN.test(k))}`;
    if (!TENANT_ID_PATTERN.test(tenantId)) {
      issues.push({ path: tenantPath, message: 'a tenant ID is 1-64 letters, digits, dot, dash or underscore' });
      continue;
    }
    const versions = Object.getOwnPropertyDescriptor(raw, tenantId)?.value as unknown;
    if (!isPlainObject(versions)) {
      issues.push({ path: tenantPath, message: 'expected an object: key version → base64 secret' });
      continue;
    }
    const tenantKeys = new Map<string, string>();
    for (const version of Object.keys(versions)) {
      const path = `${tenantPath}.${shownKey(version, (k) => KEY_VERSION_PATTERN.test(k))}`;
      const secret = Object.getOwnPropertyDescriptor(versions, version)?.value as unknown;
      if (!KEY_VERSION_PATTERN.test(version))
        issues.push({ path, message: 'a key version is 1-32 letters, digits, dot, dash or underscore' });
      else if (typeof secret !== 'string' || !isSecret(secret))
        issues.push({ path, message: `a secret is the base64 of at least ${String(MIN_SECRET_BYTES)} random bytes` });
      else tenantKeys.set(version, secret);
    }
    keys.set(tenantId, tenantKeys);
  }
  return issues;
}

/** Settings from the file's parsed JSON; a validation error names every problem (never a value) and the file. */
export function parseSettings(raw: unknown, path: string): Settings {
  if (!isPlainObject(raw))
    throw validationError(`configuration file ${path} is invalid`, [
      { path: '(root)', message: 'expected an object with BlockingKeys and, optionally, Maintenance and Api' },
    ]);
  const issues: ErrorIssue[] = [];
  const unknown = Object.keys(raw).filter((key) => !(SECTIONS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    issues.push({
      path: '(root)',
      message: `${String(unknown.length)} unknown key(s), not shown (a key outside the schema may hold a secret); the known keys are ${SECTIONS.join(' and ')}`,
    });
  }
  const keys = new Map<string, Map<string, string>>();
  if (Object.hasOwn(raw, 'BlockingKeys')) issues.push(...blockingKeyIssues(raw.BlockingKeys, keys));
  else issues.push({ path: 'BlockingKeys', message: 'required' });
  let maintenance: MaintenanceSettings | undefined;
  if (Object.hasOwn(raw, 'Maintenance')) {
    const parsed = MaintenanceSettingsSchema.safeParse(raw.Maintenance);
    if (parsed.success) maintenance = parsed.data;
    else issues.push(...sectionIssues('Maintenance', MAINTENANCE_KEYS, parsed.error));
  }
  let api: ApiSettings | undefined;
  if (Object.hasOwn(raw, 'Api')) {
    const parsed = ApiSettingsSchema.safeParse(raw.Api);
    if (parsed.success) api = parsed.data;
    else issues.push(...sectionIssues('Api', API_KEYS, parsed.error));
  }
  if (issues.length > 0) throw validationError(`configuration file ${path} is invalid`, issues);
  return {
    BlockingKeys: keys,
    ...(maintenance === undefined ? {} : { Maintenance: maintenance }),
    ...(api === undefined ? {} : { Api: api }),
  };
}

/** The file's text: JSON with null-prototype objects, so a tenant named `__proto__` is an own key. */
export function settingsJson(settings: Settings): string {
  const blockingKeys: Record<string, Record<string, string>> = Object.create(null) as Record<
    string,
    Record<string, string>
  >;
  for (const [tenantId, versions] of settings.BlockingKeys) {
    const entry: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [version, secret] of versions) entry[version] = secret;
    blockingKeys[tenantId] = entry;
  }
  const document = {
    BlockingKeys: blockingKeys,
    ...(settings.Maintenance === undefined ? {} : { Maintenance: settings.Maintenance }),
    ...(settings.Api === undefined ? {} : { Api: settings.Api }),
  };
  return JSON.stringify(document, null, 2) + '\n';
}

/** Where JSON.parse stopped, as `line L, column C` (never the text there); `(file)` when it does not say. */
function jsonErrorPlace(text: string, error: unknown): string {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  const at = position === null ? text.length : Number(position[1]);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return text.trim() === '' ? '(file)' : `line ${String(line)}, column ${String(at - before.lastIndexOf('\n'))}`;
}

/** Reads and parses a configuration file; an absent file is an empty configuration. */
export function loadSettings(path: string): Settings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return emptySettings();
    if ((error as { code?: unknown }).code === 'EISDIR')
      throw validationError(`configuration file ${path} is a directory`);
    throw validationError(`configuration file ${path} cannot be read`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw validationError(`configuration file ${path} is not valid JSON`, [
      { path: jsonErrorPlace(text, error), message: 'not valid JSON' },
    ]);
  }
  return parseSettings(raw, path);
}

export function newSecret(): string {
  return randomBytes(32).toString('base64');
}

/** The key versions of a tenant, sorted. */
export function keyVersionsOf(settings: Settings, tenantId: string): string[] {
  return [...(settings.BlockingKeys.get(tenantId)?.keys() ?? [])].sort();
}

/** The secret of one key version of a tenant, or undefined. */
export function blockingSecret(settings: Settings, tenantId: string, keyVersion: string): Buffer | undefined {
  const secret = settings.BlockingKeys.get(tenantId)?.get(keyVersion);
  return secret === undefined ? undefined : Buffer.from(secret, 'base64');
}

/** The settings with a tenant's key versions replaced. */
export function withTenantKeys(settings: Settings, tenantId: string, keys: ReadonlyMap<string, string>): Settings {
  const all = new Map(settings.BlockingKeys);
  all.set(tenantId, new Map(keys));
  return { ...settings, BlockingKeys: all };
}

/** Builds settings from a plain object, as a test or a tool would write the file. */
export function settingsFromObject(raw: unknown): Settings {
  return parseSettings(raw, '(in memory)');
}
