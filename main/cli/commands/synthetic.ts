import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CliContext } from '../context.ts';
import { json } from '../format.ts';
import { generatePopulation, writePopulation } from '../../../engine/index.ts';

/** Writes a synthetic population as NDJSON per source plus labels.tsv; needs no database. */
export async function syntheticGenerate(cli: CliContext): Promise<number> {
  const people = cli.integer('people');
  const seed = cli.integer('seed', 1);
  const out = cli.required('out');
  // The files are written whole under fixed names; those that were there already are named as replaced.
  const there = new Set(existsSync(out) && statSync(out).isDirectory() ? readdirSync(out) : []);
  const population = generatePopulation({ people, seed });
  const result = await writePopulation(population, out);
  const replaced = result.files.filter((f) => there.has(basename(f)));
  if (cli.json) cli.write(json({ people, seed, records: population.records.length, files: result.files, replaced }));
  else
    cli.write(
      `Wrote ${String(population.records.length)} records of ${String(people)} synthetic people:\n${result.files.map((f) => `  ${f}${replaced.includes(f) ? ' (replacing the file that was there)' : ''}`).join('\n')}\n`,
    );
  return 0;
}
