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

/** Each file's SHA-256, by its path relative to root (with forward slashes). */
export function fileDigests(root: string, files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of [...files].sort())
    out.set(relative(root, file).replace(/\\/g, '/'), createHash('sha256').update(readFileSync(file)).digest('hex'));
  return out;
}

export function inputsDigest(root: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort())
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Whether outDir holds a build of exactly these inputs (its stamp file records their digest). */
export function isCurrent(outDir: string, digest: string, stamp = '.build-inputs.sha256'): boolean {
  const path = join(outDir, stamp);
  return existsSync(path) && readFileSync(path, 'utf8') === digest;
}
