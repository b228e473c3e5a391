/** A seeded uniform sample without replacement: the workbench's candidate draw, the estimate and its record sample. */
import { createRng, deriveSeed } from '../synthetic/prng.ts';

/** The stream a caller takes unless it names another. */
const SAMPLE_STREAM = 43;

/**
 * A uniform sample of k keys (all when there are fewer), by a seeded partial Fisher-Yates shuffle. Two samples
 * drawn from one seed for different purposes take different streams.
 */
export function sampleKeys(keys: number[], k: number, seed: number, stream = SAMPLE_STREAM): number[] {
  if (keys.length <= k) return keys;
  const rng = createRng(deriveSeed(seed, stream));
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(keys.length - i);
    const tmp = keys[i] ?? 0;
    keys[i] = keys[j] ?? 0;
    keys[j] = tmp;
  }
  return keys.slice(0, k);
}
