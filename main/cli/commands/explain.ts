import type { CliContext } from '../context.ts';
import { parseRecordRef } from '../record-ref.ts';
import { json, keyValues, table, fixed } from '../format.ts';
import { householdOnlyReason, limitLine, TWIN_REASON_TEXT } from '../../../engine/contract/score-explanation.ts';

function ref(cli: CliContext, name: string): { sourceSystem: string; localId: string } {
  return parseRecordRef(cli.required(name), `--${name}`);
}

export async function explain(cli: CliContext): Promise<number> {
  const result = await cli.client.call(
    'matching/explain',
    { left: ref(cli, 'left'), right: ref(cli, 'right') },
    cli.call,
  );
  if (cli.json) {
    cli.write(json(result));
    return 0;
  }
  cli.write(
    keyValues([
      ['left', `${result.left.sourceSystem}/${result.left.localId} → ${result.left.enterpriseId ?? '(unlinked)'}`],
      ['right', `${result.right.sourceSystem}/${result.right.localId} → ${result.right.enterpriseId ?? '(unlinked)'}`],
      ['profile version', String(result.matchingProfileVersion)],
      ['comparator version', result.comparatorVersion],
      ['score method', `${result.scoreMethod} (${result.scoreMethodVersion})`],
      ['score', result.score.toFixed(6)],
      [
        'decision',
        `${result.decision} (by ${result.decidedBy}${result.conflictRule === undefined ? '' : `: ${result.conflictRule}`})`,
      ],
      ...(result.limitedBy === undefined
        ? []
        : [['score limited by', limitLine(result.limitedBy, result.heldFrom)] as const]),
      ...(result.twinReason === undefined ? [] : [['why', TWIN_REASON_TEXT[result.twinReason]] as const]),
      [
        'shared blocking rules',
        result.sharedBlockingRules.length === 0
          ? '(none: not candidates of each other)'
          : result.sharedBlockingRules.join(', '),
      ],
    ]),
  );
  cli.write('\n');
  const fs = result.scoreMethod === 'fellegi-sunter';
  cli.write(
    table(
      ['field', 'comparator', 'similarity', 'band', fs ? 'ln(m/u)' : 'weight', 'note'],
      result.evidence.map((e) => [
        e.field,
        e.comparator ?? '—',
        fixed(e.similarity),
        e.band ?? 'missing (neutral)',
        fs ? fixed(e.logLikelihood ?? null, 3) : fixed(e.weight ?? null, 2),
        [
          e.level ?? '',
          e.impliedBy === undefined ? '' : `implied by ${e.impliedBy}`,
          e.householdOnly === true ? `household evidence: not counted (${householdOnlyReason(result.evidence)})` : '',
          e.culture === undefined ? '' : `nickname ${e.culture} ${e.dictionaryVersion ?? ''}`.trim(),
        ]
          .filter((note) => note !== '')
          .join('; '),
      ]),
    ),
  );
  return 0;
}
