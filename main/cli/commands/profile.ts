import { readFileSync } from 'node:fs';
import type { CliContext } from '../context.ts';
import { usage } from '../context.ts';
import { checkInputFile } from '../files.ts';
import { json, table } from '../format.ts';

function readDocument(file: string | undefined): unknown {
  if (file === undefined) throw usage('give the profile file: profile validate FILE | profile apply FILE');
  checkInputFile(file);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw usage(`file ${file} is not valid JSON`);
  }
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
      else cli.write(`The profile is invalid:\n${table(['path', 'problem'], result.issues.map((i) => [i.path, i.message]))}`);
      return result.valid ? 0 : 1;
    }
    case 'apply': {
      const result = await cli.engine.call('profile/apply', { document: readDocument(file), reason: cli.string('reason') ?? `applied from ${file ?? ''}` }, cli.call);
      if (cli.json) cli.write(json(result));
      else cli.write(`Matching profile version ${String(result.matchingProfileVersion)} is now active (was ${String(result.previousVersion)}).\n`);
      return 0;
    }
    case 'rollback': {
      const result = await cli.engine.call('profile/rollback', { reason: cli.string('reason') ?? 'rollback' }, cli.call);
      if (cli.json) cli.write(json(result));
      else {
        cli.write(
          `Matching profile version ${String(result.matchingProfileVersion)} is now active: the content of version ${String(result.restoredFrom)} (was ${String(result.previousVersion)}).\n`,
        );
      }
      return 0;
    }
    default:
      throw usage('profile show | profile validate FILE | profile apply FILE [--reason TEXT] | profile rollback [--reason TEXT]');
  }
}
