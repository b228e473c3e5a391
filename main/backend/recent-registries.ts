/**
 * The remote registries this user connected to recently, newest first, kept in the console's data folder: each
 * one's URL and how it was reached (sign-in with its identity provider, client ID and resource, or a pasted token),
 * so signing out or coming back the next day does not mean typing them again. Never a token: those live in the
 * token store only.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecentRegistrySchema, type RecentRegistry } from '../../console-protocol/protocol.ts';
import { z } from 'zod';

const MAX_RECENT = 8;
const StoredSchema = z.object({ recent: z.array(RecentRegistrySchema).max(100) });

export class RecentRegistries {
  private readonly file: string;

  constructor(private readonly dataFolder: string) {
    this.file = join(dataFolder, 'recent-registries.json');
  }

  list(): RecentRegistry[] {
    try {
      const parsed = StoredSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      // An unreadable list is not worth failing over: the user types the registry once more and it is rebuilt.
      return parsed.success ? parsed.data.recent : [];
    } catch {
      return [];
    }
  }

  remember(entry: Omit<RecentRegistry, 'connectedAt'>, at = new Date().toISOString()): void {
    const recent = [{ ...entry, connectedAt: at }, ...this.list().filter((e) => e.baseUrl !== entry.baseUrl)].slice(
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
