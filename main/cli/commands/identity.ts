/**
 * `identity show ID [--history] [--values]`: an identity's records; with --history, why each is where it is; with
 * --values, its canonical record (patient values, shown only when asked).
 */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import { historyText } from '../../../engine/contract/identity-history.ts';
import { fieldValue, survivingFrom } from '../../../engine/contract/field-value.ts';
import { DisplayFieldsSchema, type DisplayFields } from '../../../engine/contract/workbench.ts';
import { parseRecordRef } from '../record-ref.ts';

/** `identity find SYSTEM/ID`: the identity a source record is linked to (its enterprise ID and status). */
export async function identityFind(cli: CliContext): Promise<number> {
  const [record, ...extra] = cli.positionals;
  if (record === undefined || extra.length > 0)
    throw usage('identity find takes one record: mpi-console identity find SYSTEM/ID');
  const found = await cli.client.call('identities/of-record', parseRecordRef(record, 'the record'), cli.call);
  cli.write(
    cli.json
      ? json(found)
      : keyValues([
          ['enterprise ID', found.enterpriseId],
          ['status', found.status],
        ]),
  );
  return 0;
}

export async function identityShow(cli: CliContext): Promise<number> {
  const [enterpriseId, ...extra] = cli.positionals;
  if (enterpriseId === undefined || extra.length > 0)
    throw usage('identity show takes one enterprise ID: mpi-console identity show ID [--history] [--values]');
  const withValues = cli.values.values === true;
  const history = await cli.client.call(
    'identities/history',
    withValues ? { enterpriseId, withValues } : { enterpriseId },
    cli.call,
  );
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
  const canonical = history.canonical;
  if (canonical !== undefined) {
    // The partial birth date is shown in the birth date's row (fieldValue).
    const fields = (Object.keys(DisplayFieldsSchema.shape) as (keyof DisplayFields)[]).filter(
      (f) => f !== 'partialBirthDate',
    );
    cli.write(
      '\n' +
        table(
          ['field', 'canonical value', 'from'],
          fields.map((f) => [f, fieldValue(canonical.fields, f), survivingFrom(canonical, f)]),
        ),
    );
  }
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
