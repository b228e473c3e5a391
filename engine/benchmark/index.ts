/**
 * The benchmark's door: the FEBRL loader the CLI's `quality` command uses. Kept apart from the front door
 * (engine/index.ts) because the console and the registry server are built and packaged without engine/benchmark/.
 */
export { loadFebrl, type FebrlSource } from './febrl-run.ts';
