/**
 * The synthetic generator and its writer, loaded when first asked for (sandbox creation, `synthetic generate`). Faker's
 * name data takes about 0.3 s to load, and the engine's threads, `serve` and every other command of the CLI never need
 * it.
 */
import type { generatePopulation } from './generate.ts';
import type { writePopulation } from './write.ts';

export interface SyntheticGenerator {
  readonly generatePopulation: typeof generatePopulation;
  readonly writePopulation: typeof writePopulation;
}

export async function loadSynthetic(): Promise<SyntheticGenerator> {
  const [generate, write] = await Promise.all([import('./generate.ts'), import('./write.ts')]);
  return { generatePopulation: generate.generatePopulation, writePopulation: write.writePopulation };
}
