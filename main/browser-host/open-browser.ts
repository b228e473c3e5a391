/** Opens the user's browser at the console's address when there is one to open (a desktop session). */
import { spawn } from 'node:child_process';

export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): [string, string[]] | null {
  // $BROWSER is the usual way to choose (and, set to "none" or empty, to refuse) a browser.
  if (env.BROWSER !== undefined) return env.BROWSER === '' || env.BROWSER === 'none' ? null : [env.BROWSER, [url]];
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  // Without a display (SSH, containers, CI) there is no browser to open: the printed address is enough.
  if ((env.DISPLAY ?? '') === '' && (env.WAYLAND_DISPLAY ?? '') === '') return null;
  return ['xdg-open', [url]];
}

/** Resolves true when a browser launcher started, false when none is available. */
export function openBrowser(url: string): Promise<boolean> {
  const command = browserCommand(url);
  if (command === null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command[0], command[1], { detached: true, stdio: 'ignore' });
    child.once('error', () => {
      resolve(false);
    });
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
