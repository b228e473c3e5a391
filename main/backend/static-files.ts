/** Serves the built renderer's files (browser host and Electron protocol), and nothing outside its folder. */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  /** Hashed asset names never change content: they may be cached for good. */
  readonly immutable: boolean;
}

/** The file for a URL path, or undefined (missing, a folder, outside the root, or a hidden file). */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (relative.includes('\0') || relative.split(/[\\/]/).some((part) => part.startsWith('.'))) return undefined;
  const path = normalize(join(root, relative));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  const type = TYPES[extname(path)];
  if (type === undefined) return undefined;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    return { body: await readFile(path), type, immutable: relative.startsWith('assets/') };
  } catch {
    return undefined;
  }
}
