/** What `npm start` needs before it runs: the built renderer and the host's JavaScript, each rebuilt only when stale. */
import { join } from 'node:path';
import { buildJavaScript, currentBuild } from './javascript.ts';
import { buildRenderer, RENDERER_OUT, rendererIsCurrent } from './renderer.ts';

const HOST_ENTRY = join('main', 'browser-host', 'main.js');

/** The built console when both builds are current, else null (cheap: file digests only, no compiler loaded). */
export function currentConsole(): { hostEntry: string; staticDir: string } | null {
  const build = rendererIsCurrent() ? currentBuild() : null;
  return build === null ? null : { hostEntry: join(build, HOST_ENTRY), staticDir: RENDERER_OUT };
}

export async function prepareConsole(log: (line: string) => void): Promise<{ hostEntry: string; staticDir: string }> {
  const { outDir } = await buildRenderer({ log });
  const { dir } = await buildJavaScript({ log });
  return { hostEntry: join(dir, HOST_ENTRY), staticDir: outDir };
}
