import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { json, tsv } from '../format.ts';

export async function identities(cli: CliContext): Promise<number> {
  const result = await cli.engine.call('identities/list', { limit: cli.integer('limit', 1_000_000), offset: cli.integer('offset', 0) }, cli.call);
  if (cli.json) cli.write(json(result));
  else cli.write(tsv(['sourceSystem', 'localId', 'enterpriseId'], result.rows.map((r) => [r.sourceSystem, r.localId, r.enterpriseId])));
  return 0;
}

export async function reviews(cli: CliContext): Promise<number> {
  const status = cli.string('status') ?? 'open';
  if (status !== 'open' && status !== 'resolved' && status !== 'dismissed') throw usage('--status is open, resolved or dismissed');
  const result = await cli.engine.call('reviews/list', { status, limit: cli.integer('limit', 1_000_000), offset: cli.integer('offset', 0) }, cli.call);
  if (cli.json) cli.write(json(result));
  else
    cli.write(
      tsv(
        ['caseId', 'kind', 'leftEnterpriseId', 'leftVersion', 'rightEnterpriseId', 'rightVersion', 'profileVersion', 'score', 'decision', 'createdAt'],
        result.rows.map((r) => [
          r.caseId,
          r.kind,
          r.leftEnterpriseId,
          String(r.leftVersion),
          r.rightEnterpriseId,
          String(r.rightVersion),
          String(r.matchingProfileVersion),
          r.score.toFixed(6),
          r.decision,
          r.createdAt,
        ]),
      ),
    );
  return 0;
}
