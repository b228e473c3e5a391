/** A digest of a set of source files (names and contents): a build is redone only when its inputs changed. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export function filesUnder(dir: string, keep: (name: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(entry.name)) out.push(path);
  }
  return out;
}

/** A file's path under root, with forward slashes on every platform. */
export function relativePath(root: string, file: string): string {
  return relative(root, file).split(/[\\/]/).join('/');
}

/** Each file's SHA-256, by its path relative to root. */
export function fileDigests(root: string, files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of [...files].sort())
    out.set(relativePath(root, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
  return out;
}

/** One digest of a set of files, from their paths and their contents' digests. */
export function digestOf(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const [path, digest] of files) hash.update(path).update('\0').update(digest).update('\0');
  return hash.digest('hex');
}

export function inputsDigest(root: string, files: readonly string[]): string {
  return digestOf(fileDigests(root, files));
}

/** Whether outDir holds a build of exactly these inputs (its stamp file records their digest). */
export function isCurrent(outDir: string, digest: string, stamp = '.build-inputs.sha256'): boolean {
  const path = join(outDir, stamp);
  return existsSync(path) && readFileSync(path, 'utf8') === digest;
}
