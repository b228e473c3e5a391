/**
 * The configuration file: what must not live in the database. It holds the tenants' HMAC blocking secrets
 * (by key version) and, later, the maintenance worker settings. It is written with mode 0600 and its
 * secrets never appear in logs, errors, job records or the renderer.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { z } from 'zod';
import { validationError } from '../contract/errors.ts';
import { zodIssues } from '../contract/zod-issues.ts';
import { MaintenanceSettingsSchema } from './maintenance.ts';
import { ApiSettingsSchema } from './api.ts';

const SecretSchema = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'a secret is base64')
  .refine((s) => Buffer.from(s, 'base64').length >= 32, 'a secret must be at least 32 bytes (base64 of 32 random bytes)');

export const SettingsSchema = z.strictObject({
  /** tenant → key version → base64 secret. */
  BlockingKeys: z.record(z.string(), z.record(z.string(), SecretSchema)),
  /** Background worker and scheduled reconciliations (engine/config/maintenance.ts); defaults when absent. */
  Maintenance: MaintenanceSettingsSchema.optional(),
  /** Token validation of `mpi-console serve` and the development issuer (engine/config/api.ts). */
  Api: ApiSettingsSchema.optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export function settingsPathFor(dbPath: string): string {
  return dbPath.replace(/\.(db|sqlite|sqlite3)$/i, '') + '.config.json';
}

export function loadSettings(path: string): Settings {
  if (!existsSync(path)) return { BlockingKeys: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw validationError(`configuration file ${path} is not valid JSON`);
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    // Never echo values: they are secrets.
    throw validationError(`configuration file ${path} is invalid`, zodIssues(parsed.error, '', false));
  }
  return parsed.data;
}

export function saveSettings(path: string, settings: Settings): void {
  writeFileSync(path, JSON.stringify(settings, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function newSecret(): string {
  return randomBytes(32).toString('base64');
}

/** The secret of one key version of a tenant, or undefined. */
export function blockingSecret(settings: Settings, tenantId: string, keyVersion: string): Buffer | undefined {
  const secret = settings.BlockingKeys[tenantId]?.[keyVersion];
  return secret === undefined ? undefined : Buffer.from(secret, 'base64');
}
