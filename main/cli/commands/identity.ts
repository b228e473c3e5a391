/** `identity show ID --history`: an identity's records and, with --history, why each is where it is. */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import { historyText } from '../../../engine/contract/identity-history.ts';

export async function identityShow(cli: CliContext): Promise<number> {
  const [enterpriseId, ...extra] = cli.positionals;
  if (enterpriseId === undefined || extra.length > 0)
    throw usage('identity show takes one enterprise ID: mpi-console identity show ID [--history]');
  const history = await cli.client.call('identities/history', { enterpriseId }, cli.call);
  if (cli.json) {
    cli.write(json(cli.values.history === true ? history : { ...history, events: undefined }));
    return 0;
  }
  cli.write(
    keyValues([
      ['enterprise ID', history.enterpriseId],
      ['status', `${history.status}, version ${String(history.version)}`],
      ['created', history.createdAt],
    ]),
  );
  cli.write(
    '\n' +
      table(
        ['source', 'local ID', 'linked at', 'link', 'score'],
        history.records.map((r) => [
          r.sourceSystem,
          r.localId,
          r.linkedAt,
          r.linkKind,
          r.score === null ? '—' : r.score.toFixed(4),
        ]),
      ),
  );
  if (cli.values.history === true) {
    cli.write(
      '\n' +
        table(
          ['at', 'what happened'],
          history.events.map((e) => [e.at, historyText(e)]),
        ),
    );
    if (history.recordsWithoutDetail > 0)
      cli.write(
        `\n${String(history.recordsWithoutDetail)} record(s) were linked before the history was kept: their link time, kind and score are shown, not how the link was decided.\n`,
      );
  }
  return 0;
}
