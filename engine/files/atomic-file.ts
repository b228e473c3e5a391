/**
 * Files written whole or not at all, readable by their owner only: the text goes to a temporary file in the
 * same folder (created exclusively, mode 0600 whatever the umask), is flushed to disk, and is renamed over
 * the target, so a reader sees the old file or the new one, never a part; a crash leaves at most a
 * temporary file. Only a regular file is ever replaced: a symbolic link, a folder or a device at the target
 * is refused, so a write never follows a link to somewhere else.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { validationError } from '../contract/errors.ts';

export type TargetKind = 'absent' | 'file' | 'symbolic link' | 'directory' | 'special file';

/** What is at path now, without following a symbolic link. */
export function targetKind(path: string): TargetKind {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return 'absent';
  }
  if (stat.isSymbolicLink()) return 'symbolic link';
  if (stat.isDirectory()) return 'directory';
  return stat.isFile() ? 'file' : 'special file';
}

/** Refuses a target that is not a regular file or absent; true when a regular file is there (it will be replaced). */
export function checkReplaceable(path: string): boolean {
  const kind = targetKind(path);
  if (kind === 'absent') return false;
  if (kind === 'file') return true;
  throw validationError(`${path} is a ${kind}; only a regular file is replaced (a write never follows a link)`);
}

/** A fresh temporary name beside path; temporary files of path all start with `<name>.tmp-`. */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `${basename(path)}.tmp-${String(process.pid)}-${randomBytes(6).toString('hex')}`);
}

/** Opens a new file exclusively with mode exactly 0600; returns its descriptor. */
export function createPrivateFile(path: string): number {
  const fd = openSync(path, 'wx', 0o600);
  fchmodSync(fd, 0o600);
  return fd;
}

/** Flushes a folder's entries (a rename or unlink in it) to disk. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a folder; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes text to a new temporary file beside path, synced to disk; returns the temporary path. */
export function writeTemporary(path: string, text: string): string {
  const temporary = temporaryPathFor(path);
  const fd = createPrivateFile(temporary);
  try {
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  return temporary;
}

/** Renames a finished temporary file over path (which must be absent or a regular file) and syncs the folder. */
export function replaceWith(temporary: string, path: string): void {
  try {
    checkReplaceable(path);
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone.
    }
    throw error;
  }
  syncDirectory(dirname(path));
}

/** Writes path atomically with mode 0600; replaced tells whether a regular file was there before. */
export function writeFileAtomic(path: string, text: string): { replaced: boolean } {
  const replaced = checkReplaceable(path);
  replaceWith(writeTemporary(path, text), path);
  return { replaced };
}
