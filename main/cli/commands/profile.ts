import { readFileSync } from 'node:fs';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { checkInputFile } from '../files.ts';
import { json, keyValues, table } from '../format.ts';
import { IMPACT_KINDS, IMPACT_TEXT } from '../../../engine/contract/impact-preview.ts';
import { countText } from '../../../engine/contract/count-text.ts';

function readDocument(file: string | undefined): unknown {
  if (file === undefined) throw usage('give the profile file: profile validate FILE | profile apply FILE');
  checkInputFile(file);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw usage(`file ${file} is not valid JSON`);
  }
}

/** `profile apply FILE --preview`: what the candidate would change on the registry (profile/preview); nothing is applied. */
async function previewCommand(cli: CliContext, document: unknown): Promise<number> {
  const preview = await cli.longCall('profile/preview', { document, maxExamples: cli.integer('limit', 10) });
  if (cli.json) {
    cli.write(json(preview));
    return 0;
  }
  const { active, candidate } = preview.thresholds;
  cli.write(
    keyValues([
      [
        'active profile',
        `version ${String(preview.activeVersion)} (Probable ${String(active.probable)}, Certain ${String(active.certain)})`,
      ],
      ['candidate', `Probable ${String(candidate.probable)}, Certain ${String(candidate.certain)}`],
      [
        'linked records compared',
        `${countText(preview.linkedRecordsCompared)} in ${countText(preview.identitiesWithSeveralRecords)} identities with several records`,
      ],
      [
        'identity pairs compared',
        `${countText(preview.candidatePairsCompared)} (blocking candidates of ${countText(preview.identitiesCompared)} identities)`,
      ],
      ['cases a reconciliation would open', String(preview.reviewCasesReconciliationWouldOpen)],
    ]),
  );
  cli.write(
    '\n' +
      table(
        ['change', 'count', 'meaning'],
        IMPACT_KINDS.map((k) => [k, String(preview.changes[k]), IMPACT_TEXT[k]]),
      ),
  );
  if (preview.examples.length > 0) {
    cli.write(
      '\n' +
        table(
          ['change', 'left', 'right', 'score now', 'candidate'],
          preview.examples.map((e) => [
            e.kind,
            `${e.left.sourceSystem}/${e.left.localId}`,
            `${e.right.sourceSystem}/${e.right.localId}`,
            e.scoreNow.toFixed(4),
            e.scoreCandidate.toFixed(4),
          ]),
        ),
    );
  }
  if (preview.blockingNote !== null) cli.write(`\n${preview.blockingNote}\n`);
  cli.write(
    '\nNothing was applied. `mpi-console explain --left … --right …` shows an example pair; apply without --preview when the change is approved.\n',
  );
  return 0;
}

export async function profile(cli: CliContext): Promise<number> {
  const [action, file] = cli.positionals;
  switch (action) {
    case 'show': {
      cli.write(json(await cli.client.call('profile/get', {}, cli.call)));
      return 0;
    }
    case 'validate': {
      const result = await cli.engine.call('profile/validate', { document: readDocument(file) }, cli.call);
      if (cli.json) cli.write(json(result));
      else if (result.valid) cli.write('The profile is valid.\n');
      else
        cli.write(
          `The profile is invalid:\n${table(
            ['path', 'problem'],
            result.issues.map((i) => [i.path, i.message]),
          )}`,
        );
      return result.valid ? 0 : 1;
    }
    case 'apply': {
      if (cli.values.preview === true) return previewCommand(cli, readDocument(file));
      const result = await cli.engine.call(
        'profile/apply',
        { document: readDocument(file), reason: cli.string('reason') ?? `applied from ${file ?? ''}` },
        cli.call,
      );
      if (cli.json) cli.write(json(result));
      else
        cli.write(
          `Matching profile version ${String(result.matchingProfileVersion)} is now active (was ${String(result.previousVersion)}).\n`,
        );
      return 0;
    }
    case 'rollback': {
      const result = await cli.engine.call(
        'profile/rollback',
        { reason: cli.string('reason') ?? 'rollback' },
        cli.call,
      );
      if (cli.json) cli.write(json(result));
      else {
        cli.write(
          `Matching profile version ${String(result.matchingProfileVersion)} is now active: the content of version ${String(result.restoredFrom)} (was ${String(result.previousVersion)}).\n`,
        );
      }
      return 0;
    }
    default:
      throw usage(
        'profile show | profile validate FILE | profile apply FILE [--reason TEXT] [--preview] | profile rollback [--reason TEXT]',
      );
  }
}
