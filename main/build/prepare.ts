/** What `npm start` needs before it runs: the built renderer and the host's JavaScript, each rebuilt only when stale. */
import { buildHost, HOST_ENTRY, hostIsCurrent } from './host.ts';
import { buildRenderer, RENDERER_OUT, rendererIsCurrent } from './renderer.ts';

/** The built console when both builds are current, else null (cheap: file digests only, no compiler loaded). */
export function currentConsole(): { hostEntry: string; staticDir: string } | null {
  return rendererIsCurrent() && hostIsCurrent() ? { hostEntry: HOST_ENTRY, staticDir: RENDERER_OUT } : null;
}

export async function prepareConsole(log: (line: string) => void): Promise<{ hostEntry: string; staticDir: string }> {
  const { outDir } = await buildRenderer({ log });
  await buildHost({ log });
  return { hostEntry: HOST_ENTRY, staticDir: outDir };
}
