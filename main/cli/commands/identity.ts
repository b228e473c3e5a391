/** `identity show ID --history`: an identity's records and, with --history, why each is where it is. */
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, keyValues, table } from '../format.ts';
import type { HistoryEvent } from '../../../engine/contract/identity-history.ts';

function what(e: HistoryEvent): string {
  const record = e.record === null ? '' : `${e.record.sourceSystem}/${e.record.localId} `;
  const score = e.score === null ? '' : ` score ${e.score.toFixed(4)}`;
  const under = e.profileVersion === null ? '' : ` (profile v${String(e.profileVersion)}${e.jobId === null ? '' : `, job ${e.jobId}`})`;
  switch (e.kind) {
    case 'identity-created':
      return `${record}arrived; no candidate was Certain, so a new identity${score === '' ? '' : ` (best candidate${score})`}${under}`;
    case 'record-joined':
      return `${record}joined: certain by ${e.decidedBy === 'trusted-identifier' ? 'a trusted identifier' : 'score'}${score}${under}`;
    case 'record-linked':
      return `${record}linked${score} (before the history was kept: how it was decided is not recorded)`;
    case 'record-updated':
      return `${record}updated by its source${under}`;
    case 'canonical-rebuilt':
      return `canonical record rebuilt by reconciliation${under}`;
    case 'review-case-opened':
      return `${e.caseKind ?? 'review'} case ${e.caseId ?? ''} opened${score}${under}`;
    case 'review-decided':
      return `case ${e.caseId ?? ''} decided: ${e.decision ?? ''} by ${e.actor ?? ''}`;
  }
}

export async function identityShow(cli: CliContext): Promise<number> {
  const [enterpriseId, ...extra] = cli.positionals;
  if (enterpriseId === undefined || extra.length > 0) throw usage('identity show takes one enterprise ID: mpi-console identity show ID [--history]');
  const history = await cli.client.call('identities/history', { enterpriseId }, cli.call);
  if (cli.json) {
    cli.write(json(cli.values.history === true ? history : { ...history, events: undefined }));
    return 0;
  }
  cli.write(keyValues([['enterprise ID', history.enterpriseId], ['status', `${history.status}, version ${String(history.version)}`], ['created', history.createdAt]]));
  cli.write('\n' + table(['source', 'local ID', 'linked at', 'link', 'score'], history.records.map((r) => [r.sourceSystem, r.localId, r.linkedAt, r.linkKind, r.score === null ? '—' : r.score.toFixed(4)])));
  if (cli.values.history === true) {
    cli.write('\n' + table(['at', 'what happened'], history.events.map((e) => [e.at, what(e)])));
    if (history.recordsWithoutDetail > 0) cli.write(`\n${String(history.recordsWithoutDetail)} record(s) were linked before the history was kept: their link time, kind and score are shown, not how the link was decided.\n`);
  }
  return 0;
}
