/**
 * The sandboxes this user opened recently, newest first, kept in the console's data folder. A file that has
 * since moved is still listed (marked missing) so the user sees where it was.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { RecentSandbox } from '../../console-protocol/protocol.ts';

const MAX_RECENT = 8;
const StoredSchema = z.object({
  recent: z.array(z.object({ path: z.string(), tenantId: z.string(), openedAt: z.string() })).max(100),
});
type Stored = z.infer<typeof StoredSchema>;

export class RecentSandboxes {
  private readonly file: string;

  constructor(private readonly dataFolder: string) {
    this.file = join(dataFolder, 'recent-sandboxes.json');
  }

  private read(): Stored['recent'] {
    try {
      const parsed = StoredSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      // An unreadable list is not worth failing over: the user opens a sandbox by path and it is rebuilt.
      return parsed.success ? parsed.data.recent : [];
    } catch {
      return [];
    }
  }

  list(): RecentSandbox[] {
    return this.read().map((entry) => ({ ...entry, exists: existsSync(entry.path) }));
  }

  remember(path: string, tenantId: string, at = new Date().toISOString()): void {
    const recent = [{ path, tenantId, openedAt: at }, ...this.read().filter((e) => e.path !== path)].slice(
      0,
      MAX_RECENT,
    );
    mkdirSync(this.dataFolder, { recursive: true, mode: 0o700 });
    // Written beside and renamed, so a crash never leaves half a file.
    const partial = `${this.file}.partial`;
    writeFileSync(partial, JSON.stringify({ recent }, null, 2) + '\n', { mode: 0o600 });
    renameSync(partial, this.file);
  }
}
