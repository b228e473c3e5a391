/**
 * `--remote URL` on the command line: the commands the registry API covers send their operation to a
 * remote registry instead of the local database. The token comes from --token-file FILE (read before every
 * request) or $MPI_TOKEN; the tenant is the token's, so --tenant does not apply.
 */
import { isEngineError } from '../../engine/contract/errors.ts';
import { RemoteEngine } from '../remote/remote-engine.ts';
import { StaticTokenProvider, TokenFileProvider, type TokenProvider } from '../remote/token-provider.ts';

/** A remote client, or the usage problem that prevents one. */
export function remoteClient(
  values: Readonly<Record<string, string | boolean | undefined>>,
  url: string,
): RemoteEngine | { readonly usage: string } {
  if (typeof values.tenant === 'string')
    return { usage: '--tenant does not apply with --remote: the registry acts for the tenant named in the token' };
  const file = values['token-file'];
  const fromEnv = process.env.MPI_TOKEN;
  let tokens: TokenProvider;
  try {
    if (typeof file === 'string') tokens = new TokenFileProvider(file);
    else if (fromEnv !== undefined && fromEnv.trim() !== '') tokens = new StaticTokenProvider(fromEnv, 'MPI_TOKEN');
    else return { usage: '--remote needs a token: --token-file FILE or the MPI_TOKEN environment variable' };
  } catch (error) {
    if (isEngineError(error)) return { usage: error.message };
    throw error;
  }
  try {
    return new RemoteEngine({ baseUrl: url, tokens, allowInsecureHttp: values['allow-insecure-http'] === true });
  } catch (error) {
    if (isEngineError(error)) return { usage: `--remote ${url}: ${error.message}` };
    throw error;
  }
}
