/**
 * Where the console keeps its own state (recent sandboxes) and, unless the user chooses another folder, new
 * sandboxes: the platform's per-user application-data folder.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export const APP_FOLDER_NAME = 'mpi-console';

export function defaultDataFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  // XDG Base Directory: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), APP_FOLDER_NAME);
}
