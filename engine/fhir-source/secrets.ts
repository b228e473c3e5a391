/**
 * Secrets of an external source (a bearer token, an OAuth client secret), read when a job or a check needs
 * them: from a file that only its owner may read (mode 0600 or stricter) or from an environment variable the
 * configuration names. They are never stored in the database, job records or logs, and no message here quotes
 * them: errors name the configuration key, and the file path or variable name, which are not secret.
 * A value that is still a placeholder (`<CLIENT_SECRET>`) is refused.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { validationError } from '../contract/errors.ts';
import { hasControlCharacter } from '../text/control-characters.ts';

const MAX_SECRET_BYTES = 16 * 1024;
const PLACEHOLDER = /^<[^<>]*>$/;

export interface SecretReference {
  /** Where the reference is in the configuration, e.g. `Maintenance.FhirSources[0].Authentication.ClientSecretFile`. */
  readonly key: string;
  readonly file?: string | undefined;
  readonly env?: string | undefined;
}

function checked(value: string, where: string, key: string): string {
  const secret = value.replace(/\r?\n$/, '');
  if (secret.trim() === '') throw validationError(`${key}: ${where} is empty`);
  if (PLACEHOLDER.test(secret.trim()))
    throw validationError(
      `${key}: ${where} still holds a placeholder such as <CLIENT_SECRET>; put the real secret there`,
    );
  if (hasControlCharacter(secret))
    throw validationError(`${key}: ${where} holds a control character or more than one line`);
  return secret;
}

function fromFile(path: string, key: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw validationError(`${key}: the secret file ${path} ${code === 'ENOENT' ? 'does not exist' : 'cannot be read'}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw validationError(`${key}: ${path} is not a regular file`);
    // Windows has no POSIX modes: its ACLs are the file's protection there.
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw validationError(
        `${key}: the secret file ${path} can be read by group or others; make it owner-only (chmod 600)`,
      );
    }
    if (stat.size > MAX_SECRET_BYTES)
      throw validationError(`${key}: the secret file ${path} is larger than ${String(MAX_SECRET_BYTES)} bytes`);
    return checked(readFileSync(fd, 'utf8'), `the secret file ${path}`, key);
  } finally {
    closeSync(fd);
  }
}

/** The secret a reference names; a validation error naming the key (never the value) when it cannot be used. */
export function readSecret(reference: SecretReference, env: NodeJS.ProcessEnv = process.env): string {
  if (reference.file !== undefined) return fromFile(reference.file, reference.key);
  if (reference.env !== undefined) {
    const value = env[reference.env];
    if (value === undefined)
      throw validationError(`${reference.key}: the environment variable ${reference.env} is not set`);
    return checked(value, `the environment variable ${reference.env}`, reference.key);
  }
  throw validationError(`${reference.key}: no secret file or environment variable is named`);
}
