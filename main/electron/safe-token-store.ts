/**
 * The Electron token store: the remote session encrypted with safeStorage (the OS keychain: Keychain,
 * DPAPI, libsecret/kwallet) in a 0600 file of the console's data folder. The rules, tested in plain Node
 * against a fake of the small interface below:
 * - never written when encryption is unavailable or Linux offers only the plain-text backend (`basic_text`,
 *   a hard-coded key: no protection); the session then lives in memory only, and any older file is removed;
 * - a file that does not decrypt (another user, a reset keychain) or does not hold a session is "unreadable":
 *   the console says to sign in again, and the file is removed.
 * main.ts passes Electron's own safeStorage; this module does not import electron.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseStoredSession, type LoadedSession, type StoredSession, type TokenStore } from '../backend/token-store.ts';

/** The part of Electron's safeStorage this store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means no real protection. */
  getSelectedStorageBackend?(): string;
}

export const TOKEN_FILE = 'registry-session.bin';

export function secureStorageProblem(
  storage: SafeStorageLike,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (!storage.isEncryptionAvailable()) return 'the operating system offers no encryption for saved sign-ins';
  if (platform === 'linux' && storage.getSelectedStorageBackend?.() === 'basic_text') {
    return 'only the plain-text storage backend is available (no keyring): sign-ins are not saved';
  }
  return undefined;
}

export class SafeStorageTokenStore implements TokenStore {
  readonly kind = 'encrypted';
  private memory: StoredSession | undefined;
  readonly path: string;

  constructor(
    private readonly storage: SafeStorageLike,
    folder: string,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    this.path = join(folder, TOKEN_FILE);
  }

  save(session: StoredSession): boolean {
    this.memory = session;
    if (secureStorageProblem(this.storage, this.platform) !== undefined) {
      rmSync(this.path, { force: true });
      return false;
    }
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${String(process.pid)}.tmp`;
    writeFileSync(temporary, this.storage.encryptString(JSON.stringify(session)), { mode: 0o600 });
    renameSync(temporary, this.path);
    return true;
  }

  load(): LoadedSession {
    if (this.memory !== undefined) return { state: 'ok', session: this.memory };
    if (!existsSync(this.path)) return { state: 'none' };
    const unreadable: LoadedSession = {
      state: 'unreadable',
      message: 'the saved sign-in could not be decrypted on this computer: sign in again',
    };
    if (secureStorageProblem(this.storage, this.platform) !== undefined) {
      rmSync(this.path, { force: true });
      return unreadable;
    }
    let session: StoredSession | undefined;
    try {
      session = parseStoredSession(this.storage.decryptString(readFileSync(this.path)));
    } catch {
      session = undefined;
    }
    if (session === undefined) {
      rmSync(this.path, { force: true });
      return unreadable;
    }
    this.memory = session;
    return { state: 'ok', session };
  }

  clear(): void {
    this.memory = undefined;
    rmSync(this.path, { force: true });
  }
}
