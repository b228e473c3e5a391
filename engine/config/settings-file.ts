/**
 * Where the settings live and how they change. A file-backed source (the configuration file beside the
 * database, or --config) and an in-memory one (for an in-memory database, which must leave no secret file
 * behind) share one interface.
 *
 * Every read-modify-write of the file runs under the configuration lock, `<file>.lock`: an exclusive lock
 * held through SQLite's file locking (engine/store/db.ts withFileLock), which the kernel drops when its
 * holder dies, so a crash never leaves a stale lock. It is keyed by the configuration file, not by a
 * database, because two databases may share one --config. The lock is always taken before the database's
 * write lock, never the other way round.
 *
 * A change that touches the file and the registry (a blocking key added or removed, a tenant created) is
 * all or nothing. The registry commit is the commit point:
 *
 *   1. the new text goes to a temporary file (0600, synced);
 *   2. a marker `<file>.pending` records the change ID and the database;
 *   3. the current file is kept as `<file>.previous` (a hard link) and the temporary file is renamed over it;
 *   4. one registry transaction writes the change's rows, among them an audit row carrying the change ID;
 *   5. the marker and the previous file are removed.
 *
 * If step 4 fails, the previous file is put back before the error is reported. If the process dies between
 * 2 and 5, whoever next takes the lock (any change, or opening the engine) finds the marker and looks for
 * the change ID in the audit records: found, the change committed and the leftovers are removed; not found,
 * the previous file is put back. A reader never sees a partly written file; during a change in flight it may
 * see the new file a moment before the registry commits (a new key no profile uses yet, or a tenant's key
 * before the tenant row): harmless, and undone if the change fails. Change reports come only after step 4,
 * so nothing is reported that did not persist.
 */
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  fstatSync,
  linkSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { crashPoint } from '../fault-injection.ts';
import { validationError } from '../contract/errors.ts';
import { withFileLock } from '../store/db.ts';
import { Store, isPostgresUrl } from '../store/store.ts';
import { currentTenant, withTenant } from '../store/tenant-scope.ts';
import { auditHasChange } from '../store/audit.ts';
import { replaceWith, syncDirectory, writeTemporary } from '../files/atomic-file.ts';
import { emptySettings, loadSettings, settingsJson, type Settings } from './settings.ts';

/** A change of the settings together with the registry writes that must commit with it. */
export interface SettingsChange<T> {
  readonly next: Settings;
  /** The registry writes, run in one write transaction; audit rows carry changeId. */
  readonly commit: (changeId: string) => T;
}

export interface SettingsSource {
  /** The configuration file, or null when the settings are kept in memory. */
  readonly path: string | null;
  read(): Settings;
  /** Changes whenever the settings may have changed; cheap enough for every job batch. */
  stamp(): string;
  /** Runs fn under the configuration lock (re-entrant within a process). */
  locked<T>(fn: () => T): T;
  /** Plans a change from the current settings and applies it with its registry writes, all or nothing. */
  change<T>(store: Store, plan: (current: Settings) => SettingsChange<T>): T;
  /** Finishes or undoes a change a crashed process left half done. */
  recover(): void;
}

/** Settings of an in-memory database: nothing is written to disk. */
export class MemorySettings implements SettingsSource {
  readonly path = null;
  private current: Settings = emptySettings();
  private version = 0;

  read(): Settings {
    return this.current;
  }

  stamp(): string {
    return `memory:${String(this.version)}`;
  }

  locked<T>(fn: () => T): T {
    return fn();
  }

  change<T>(store: Store, plan: (current: Settings) => SettingsChange<T>): T {
    const { next, commit } = plan(this.current);
    const result = store.write(() => commit(randomUUID()));
    this.current = next;
    this.version++;
    return result;
  }

  recover(): void {
    // Nothing survives the process, so nothing is ever left half done.
  }
}

interface Marker {
  readonly changeId: string;
  /** The registry's file path, or its postgres:// URL. */
  readonly database: string;
  readonly hadFile: boolean;
  /** The tenant whose call made the change (its audit record is that tenant's). */
  readonly tenantId?: string;
}

const warnedOpenFiles = new Set<string>();

export interface SettingsFileOptions {
  readonly busyTimeoutMs: number;
  /** Where a warning goes (the CLI: stderr). Said once per file per process, never with the file's contents. */
  readonly warn: (message: string) => void;
}

export class SettingsFile implements SettingsSource {
  private readonly lockPath: string;
  private readonly markerPath: string;
  private readonly previousPath: string;

  constructor(
    readonly path: string,
    private readonly options: SettingsFileOptions,
  ) {
    this.lockPath = `${path}.lock`;
    this.markerPath = `${path}.pending`;
    this.previousPath = `${path}.previous`;
  }

  read(): Settings {
    this.checkPermissions();
    return loadSettings(this.path);
  }

  /** One stat call (jobs ask at every batch): open, fstat and close took three. */
  stamp(): string {
    try {
      const stat = statSync(this.path, { throwIfNoEntry: false });
      return stat === undefined ? 'absent' : `${String(stat.size)}:${String(stat.mtimeMs)}:${String(stat.ino)}`;
    } catch {
      return 'absent';
    }
  }

  locked<T>(fn: () => T): T {
    return withFileLock(
      this.lockPath,
      this.options.busyTimeoutMs,
      `the configuration file ${this.path} is busy (another process is changing it); try again`,
      () => {
        this.recoverLocked();
        return fn();
      },
    );
  }

  recover(): void {
    if (existsSync(this.markerPath)) this.locked(() => undefined);
  }

  change<T>(store: Store, plan: (current: Settings) => SettingsChange<T>): T {
    const folder = dirname(this.path);
    if (!existsSync(folder))
      throw validationError(`the folder ${folder} for the configuration file ${this.path} does not exist`);
    return this.locked(() => {
      const current = this.read();
      const { next, commit } = plan(current);
      const text = settingsJson(next);
      const changeId = randomUUID();
      if (existsSync(this.path) && text === settingsJson(current)) return store.write(() => commit(changeId));
      const hadFile = existsSync(this.path);
      const temporary = writeTemporary(this.path, text);
      crashPoint('config:temporary-written');
      const tenantId = currentTenant();
      this.writeMarker({
        changeId,
        database: store.path === ':memory:' || isPostgresUrl(store.path) ? store.path : resolve(store.path),
        hadFile,
        ...(tenantId === undefined ? {} : { tenantId }),
      });
      crashPoint('config:marker-written');
      removeIfPresent(this.previousPath);
      if (hadFile) linkSync(this.path, this.previousPath);
      crashPoint('config:previous-kept');
      replaceWith(temporary, this.path);
      crashPoint('config:renamed');
      let result: T;
      try {
        result = store.write(() => {
          const value = commit(changeId);
          crashPoint('config:before-commit');
          return value;
        });
      } catch (error) {
        this.undo(hadFile);
        throw error;
      }
      crashPoint('config:committed');
      this.finish();
      return result;
    });
  }

  private checkPermissions(): void {
    if (warnedOpenFiles.has(this.path)) return;
    let mode: number;
    try {
      mode = fstatMode(this.path);
    } catch {
      return;
    }
    if ((mode & 0o077) === 0) return;
    warnedOpenFiles.add(this.path);
    this.options.warn(
      `the configuration file ${this.path} can be read by group or others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); it holds blocking secrets: chmod 600 it`,
    );
  }

  private writeMarker(marker: Marker): void {
    replaceWith(writeTemporary(this.markerPath, JSON.stringify(marker)), this.markerPath);
  }

  private readMarker(): Marker | undefined {
    try {
      return JSON.parse(readFileSync(this.markerPath, 'utf8')) as Marker;
    } catch {
      return undefined;
    }
  }

  /** Under the lock: settles a change left by a crashed process, and removes its temporary files. */
  private recoverLocked(): void {
    const marker = existsSync(this.markerPath) ? this.readMarker() : undefined;
    if (marker !== undefined) {
      if (committed(marker)) this.finish();
      else this.undo(marker.hadFile);
    } else if (existsSync(this.markerPath)) {
      // Written whole by rename, so unreadable means damaged by hand: settle nothing, drop it.
      removeIfPresent(this.markerPath);
    }
    // Under the lock nobody else is mid-change: any temporary file of ours is a crashed writer's.
    const prefixes = [`${basename(this.path)}.tmp-`, `${basename(this.markerPath)}.tmp-`];
    const dir = dirname(this.path);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      names = [];
    }
    for (const name of names) if (prefixes.some((p) => name.startsWith(p))) removeIfPresent(join(dir, name));
  }

  /** The change did not commit: the previous file (or no file) again. */
  private undo(hadFile: boolean): void {
    if (hadFile) {
      if (existsSync(this.previousPath)) {
        renameSync(this.previousPath, this.path);
        // rename(2) of two links to one file does nothing; the previous name must still go.
        removeIfPresent(this.previousPath);
      }
    } else {
      removeIfPresent(this.path);
    }
    syncDirectory(dirname(this.path));
    removeIfPresent(this.markerPath);
    syncDirectory(dirname(this.path));
  }

  /** The change committed: only the leftovers go. */
  private finish(): void {
    removeIfPresent(this.previousPath);
    removeIfPresent(this.markerPath);
    syncDirectory(dirname(this.path));
  }
}

function fstatMode(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).mode;
  } finally {
    closeSync(fd);
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
}

/** Whether the registry named by the marker holds the change's audit record. */
function committed(marker: Marker): boolean {
  if (marker.database === ':memory:') return false;
  if (!isPostgresUrl(marker.database) && !existsSync(marker.database)) return false;
  const store = Store.open(marker.database, { readonly: true });
  try {
    return withTenant(marker.tenantId ?? '', () => auditHasChange(store, marker.tenantId, marker.changeId));
  } finally {
    store.close();
  }
}
