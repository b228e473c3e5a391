/**
 * Files named on the command line. An input file must be a regular file that can be read (a missing path,
 * a folder or an unreadable file is a usage error naming it). An output (`--out`) is written whole through a
 * temporary file with mode 0600 and renamed into place (engine/files/atomic-file.ts): it replaces a regular
 * file, and the command says so, but never a symbolic link, a folder or a device, nor a file the command uses
 * (CliContext.filesInUse: every caller passes them, so none can forget the registry's own database).
 */
import { accessSync, constants, existsSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { usage } from './context.ts';
import { targetKind, writeFileAtomic } from '../../engine/index.ts';

/**
 * Refuses (as a usage error naming the path) anything but a readable regular file or pipe; returns what it found, so a
 * caller that needs the size or the kind does not look again.
 */
export function checkInputFile(path: string, what = 'file'): Stats {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw usage(`${what} ${path} does not exist`);
  }
  if (stat.isDirectory()) throw usage(`${what} ${path} is a directory; give a file`);
  // A named pipe is input too (`--ndjson <(zcat big.ndjson.gz)`, or a FIFO another program writes).
  if (!stat.isFile() && !stat.isFIFO()) throw usage(`${what} ${path} is not a regular file or a pipe`);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw usage(`${what} ${path} cannot be read (permission denied)`);
  }
  return stat;
}

/** A file the command uses (its database, configuration, an input), which an output must never replace. */
export interface FileInUse {
  readonly path: string;
  /** What it is, for the refusal: "the database this command uses". */
  readonly what: string;
}

/** True when both paths name one existing file (however spelled: relative, `..`, a hard link). */
function sameFile(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Refuses (as a usage error naming the path) an output target that is not absent or a regular file, or that is a
 * file the command uses: `--out` naming the registry's own database would replace it with a model, and the
 * configuration would lose the blocking secrets.
 */
export function checkOutputTarget(path: string, inUse: readonly FileInUse[]): void {
  const folder = dirname(path);
  if (targetKind(folder) !== 'directory' && !existsSync(folder))
    throw usage(`--out ${path}: the folder ${folder} does not exist`);
  const kind = targetKind(path);
  if (kind !== 'absent' && kind !== 'file')
    throw usage(
      `--out ${path} is a ${kind}; give the path of a new or regular file (a symbolic link is never followed)`,
    );
  if (kind === 'absent') return;
  const used = inUse.find((file) => sameFile(path, file.path));
  if (used !== undefined) throw usage(`--out ${path} is ${used.what}; give the path of another file`);
}

/** Writes an output file atomically with mode 0600; the text to add to the command's report. */
export function writeOutput(
  path: string,
  text: string,
  inUse: readonly FileInUse[],
): { replaced: boolean; note: string } {
  checkOutputTarget(path, inUse);
  const { replaced } = writeFileAtomic(path, text);
  return { replaced, note: replaced ? ' (replacing the file that was there)' : '' };
}
