/**
 * Token storage refusal rules, in plain Node: the Electron store (main/electron/safe-token-store.ts) against a
 * fake of the small safeStorage interface that really encrypts (AES-256-GCM under a key of its own, so another
 * "keychain" cannot decrypt), and the browser host's memory store.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  SafeStorageTokenStore,
  secureStorageProblem,
  TOKEN_FILE,
  type SafeStorageLike,
} from '../../../main/electron/safe-token-store.ts';
import { MemoryTokenStore, type StoredSession } from '../../../main/backend/token-store.ts';
import { scratchDir } from '../../helpers/temp.ts';

class FakeSafeStorage implements SafeStorageLike {
  readonly key = randomBytes(32);
  constructor(
    private readonly available = true,
    private readonly backend = 'gnome_libsecret',
  ) {}
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptString(plainText: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }
  decryptString(encrypted: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(0, 12));
    decipher.setAuthTag(encrypted.subarray(12, 28));
    return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
  }
}

const SESSION: StoredSession = {
  baseUrl: 'https://registry.example.org',
  method: 'sign-in',
  accessToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.secret-signature-part',
  refreshToken: 'refresh-token-value-123',
  issuer: 'https://login.example.org',
  clientId: 'mpi-console',
  identity: 'alice@example.org',
};

const dirs: string[] = [];
function folder(): string {
  const dir = scratchDir('mpi-tokens-').dir;
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the safeStorage token store', () => {
  it('stores the session encrypted in a 0600 file and reads it back in a new store (a restart)', () => {
    const dir = folder();
    const storage = new FakeSafeStorage();
    expect(new SafeStorageTokenStore(storage, dir, 'linux').save(SESSION)).toBe(true);
    const file = join(dir, TOKEN_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(file);
    for (const secret of [SESSION.accessToken, SESSION.refreshToken ?? '', 'secret-signature-part'])
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(new SafeStorageTokenStore(storage, dir, 'linux').load()).toEqual({ state: 'ok', session: SESSION });
  });

  it('never writes when encryption is unavailable: memory only, and an older file is removed', () => {
    const dir = folder();
    new SafeStorageTokenStore(new FakeSafeStorage(), dir, 'darwin').save(SESSION);
    const store = new SafeStorageTokenStore(new FakeSafeStorage(false), dir, 'darwin');
    expect(store.save(SESSION)).toBe(false);
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
    // This run still has the session (in memory); the next one does not.
    expect(store.load().state).toBe('ok');
    expect(new SafeStorageTokenStore(new FakeSafeStorage(false), dir, 'darwin').load()).toEqual({ state: 'none' });
  });

  it("never writes with Linux's plain-text backend (basic_text), though encryption reports available", () => {
    const dir = folder();
    const plain = new FakeSafeStorage(true, 'basic_text');
    expect(secureStorageProblem(plain, 'linux')).toMatch(/plain-text/);
    expect(secureStorageProblem(plain, 'win32')).toBeUndefined();
    expect(new SafeStorageTokenStore(plain, dir, 'linux').save(SESSION)).toBe(false);
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
    expect(new SafeStorageTokenStore(new FakeSafeStorage(true, 'kwallet5'), dir, 'linux').save(SESSION)).toBe(true);
  });

  it('a file another keychain wrote (decryption fails) means sign in again, and is removed', () => {
    const dir = folder();
    new SafeStorageTokenStore(new FakeSafeStorage(), dir, 'linux').save(SESSION);
    const loaded = new SafeStorageTokenStore(new FakeSafeStorage(), dir, 'linux').load();
    expect(loaded).toEqual({
      state: 'unreadable',
      message: 'the saved sign-in could not be decrypted on this computer: sign in again',
    });
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
  });

  it('a file that decrypts to something other than a session is unreadable too; a stored file with the plain-text backend is not trusted', () => {
    const dir = folder();
    const storage = new FakeSafeStorage();
    writeFileSync(
      join(dir, TOKEN_FILE),
      storage.encryptString(
        JSON.stringify({ baseUrl: 'https://x', method: 'sign-in', accessToken: 42, identity: null }),
      ),
    );
    expect(new SafeStorageTokenStore(storage, dir, 'linux').load().state).toBe('unreadable');
    new SafeStorageTokenStore(storage, dir, 'linux').save(SESSION);
    expect(new SafeStorageTokenStore(new FakeSafeStorage(true, 'basic_text'), dir, 'linux').load().state).toBe(
      'unreadable',
    );
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
  });

  it('sign out (clear) forgets the session in memory and on disk', () => {
    const dir = folder();
    const store = new SafeStorageTokenStore(new FakeSafeStorage(), dir, 'linux');
    store.save(SESSION);
    store.clear();
    expect(store.load()).toEqual({ state: 'none' });
    expect(existsSync(join(dir, TOKEN_FILE))).toBe(false);
  });
});

describe('the memory token store (browser host)', () => {
  it('keeps the session for this process only and forgets it on clear', () => {
    const store = new MemoryTokenStore();
    expect(store.kind).toBe('memory');
    expect(store.load()).toEqual({ state: 'none' });
    expect(store.save(SESSION)).toBe(true);
    expect(store.load()).toEqual({ state: 'ok', session: SESSION });
    expect(new MemoryTokenStore().load()).toEqual({ state: 'none' });
    store.clear();
    expect(store.load()).toEqual({ state: 'none' });
  });
});
