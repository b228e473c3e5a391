/** The registry API on the command line: `serve`, `token` and the `--remote` options (registered in main.ts). */
import type { CliContext } from './context.ts';

export const API_OPTIONS = {
  remote: { type: 'string' },
  'token-file': { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  worker: { type: 'boolean' },
  'dev-auth': { type: 'boolean' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  scope: { type: 'string' },
  ttl: { type: 'string' },
  'client-id': { type: 'string' },
  before: { type: 'string' },
} as const;

// Loaded when asked for: the server's stack (HTTP, sign-in, the engine pool) and the token signer take a fifth of a
// second to load, which every other command would pay at start.
export const API_COMMANDS: Record<string, (cli: CliContext) => Promise<number>> = {
  serve: async (cli) => (await import('./commands/serve.ts')).serveCommand(cli),
  token: async (cli) => (await import('./commands/token.ts')).tokenCommand(cli),
};

export const API_HELP = `  serve [--host H] [--port P] [--worker] [--dev-auth] [--tls-cert FILE --tls-key FILE]
                                               the registry API /api/v1 over --db (docs/api.md); --worker runs jobs
                                               in this process; --dev-auth (loopback only) accepts \`token\` tokens
  token --scope "mpi.admin mpi.operations" [--ttl 1h] [--client-id ID]
                                               print a development token for --tenant (key in the --config file)

Against a registry API: --remote URL with --token-file FILE (or $MPI_TOKEN) on reindex, reconcile, jobs,
job show, job cancel, evaluate, calibrate, estimate, labels sample, explain and profile show (the token names the tenant).
`;
