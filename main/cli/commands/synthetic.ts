import type { CliContext } from '../context.ts';
import { json } from '../format.ts';
import { loadSynthetic } from '../../../engine/index.ts';
import { countText } from '../../../engine/contract/count-text.ts';

/** Writes a synthetic population as NDJSON per source plus labels.tsv; needs no database. */
export async function syntheticGenerate(cli: CliContext): Promise<number> {
  const people = cli.integer('people');
  const seed = cli.integer('seed', 1);
  const out = cli.required('out');
  const { generatePopulation, writePopulation } = await loadSynthetic();
  const population = generatePopulation({ people, seed });
  // The files are written whole under fixed names; those that were there already are named as replaced.
  const { files, replaced } = await writePopulation(population, out);
  if (cli.json) cli.write(json({ people, seed, records: population.records.length, files, replaced }));
  else
    cli.write(
      `Wrote ${countText(population.records.length)} records of ${countText(people)} synthetic people:\n${files.map((f) => `  ${f}${replaced.includes(f) ? ' (replacing the file that was there)' : ''}`).join('\n')}\n`,
    );
  return 0;
}
