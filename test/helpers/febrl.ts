import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

/** The shared FEBRL folder beside the project (never copied into it). */
export const FEBRL_DIR = fileURLToPath(new URL('../../../shared/data/febrl/', import.meta.url));

export function febrlFile(name: string): string {
  const path = `${FEBRL_DIR}${name}`;
  if (!existsSync(path))
    throw new Error(`FEBRL data not found at ${path}: the shared folder must sit beside the project`);
  return path;
}
