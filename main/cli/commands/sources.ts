/**
 * `sources list` shows the tenant's external FHIR sources (never a secret: only where it is read from);
 * `sources check NAME` reads the secret, obtains a token (client credentials) and reads a first search page,
 * and exits 1 when a step fails.
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import { checkSource, listSources } from '../../../engine/index.ts';

export async function sources(cli: CliContext): Promise<number> {
  const [action, name, ...extra] = cli.positionals;
  if (action === 'list' && name === undefined) {
    const rows = listSources(cli.engine.env, cli.call);
    if (cli.json) cli.write(json({ rows }));
    else if (rows.length === 0)
      cli.write(
        'No external FHIR source is configured for this tenant (Maintenance.FhirSources in the configuration file).\n',
      );
    else {
      cli.write(
        table(
          ['source system', 'base URL', 'authentication', 'secret from', 'local identifier system', 'page size'],
          rows.map((r) => [
            r.sourceSystem,
            r.baseUrl,
            r.authentication,
            r.secretFrom ?? '—',
            r.localIdentifierSystem,
            String(r.pageSize),
          ]),
        ),
      );
    }
    return 0;
  }
  if (action !== 'check' || name === undefined || extra.length > 0) throw usage('sources list | sources check NAME');
  const check = await checkSource(cli.engine.env, cli.call, name);
  if (cli.json) cli.write(json(check));
  else {
    cli.write(
      keyValues([
        ['source system', check.sourceSystem],
        ['configuration and secret', check.configuration],
        ['token', check.token],
        [
          'first search page',
          check.firstPage === 'ok'
            ? `ok (${String(check.entries ?? 0)} entr${check.entries === 1 ? 'y' : 'ies'}${check.hasNextPage === true ? ', more pages' : ''})`
            : check.firstPage,
        ],
        ['error', check.error ?? '—'],
      ]),
    );
  }
  return check.error === null ? 0 : 1;
}
