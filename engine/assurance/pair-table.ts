/**
 * The distinct record pairs of a candidate enumeration, each with a 32-bit set of flags (the rules under which its two
 * records share a usable key), in the order the pairs were first added. It answers as the `Map<number, number>` keyed
 * by a * records + b that it replaces; the pairs are interned in a PairIndex (pair-index.ts), the flags kept by ID.
 */
import { grownInt32, PairIndex } from './pair-index.ts';

/** A pair and its flags, as a `Map<number, number>` entry: the pair as a * records + b. */
export type PairEntry = readonly [pair: number, flags: number];

export class PairTable implements Iterable<PairEntry> {
  private readonly index = new PairIndex();
  private flags = new Int32Array(1024);

  /** `records`: how many records the pairs index (every index below it); a pair's number is a * records + b. */
  constructor(readonly records: number) {}

  get size(): number {
    return this.index.size;
  }

  /** Adds the pair (a, b), a < b, or ORs the flags into those it has. */
  add(a: number, b: number, flags: number): void {
    if (!(a >= 0 && a < b && b < this.records)) throw new Error(`unreachable: pair (${a}, ${b}) of ${this.records}`);
    const id = this.index.intern(a, b);
    this.flags = grownInt32(this.flags, id);
    this.flags[id] = (this.flags[id] ?? 0) | flags;
  }

  /** The flags of the pair numbered a * records + b, or undefined when it was never added. */
  get(pair: number): number | undefined {
    const a = Math.floor(pair / this.records);
    const b = pair - a * this.records;
    if (!(a >= 0 && a < b && b < this.records && Number.isInteger(b))) return undefined;
    const id = this.index.find(a, b);
    return id < 0 ? undefined : (this.flags[id] ?? 0) >>> 0;
  }

  /** The pairs' numbers, in the order they were first added (a new array). */
  keys(): number[] {
    const out = new Array<number>(this.size);
    for (let id = 0; id < out.length; id++) out[id] = this.pairOf(id);
    return out;
  }

  /** The pairs' flags, in the same order (a new array). */
  values(): number[] {
    const out = new Array<number>(this.size);
    for (let id = 0; id < out.length; id++) out[id] = (this.flags[id] ?? 0) >>> 0;
    return out;
  }

  *[Symbol.iterator](): Iterator<PairEntry> {
    for (let id = 0; id < this.size; id++) yield [this.pairOf(id), (this.flags[id] ?? 0) >>> 0];
  }

  private pairOf(id: number): number {
    return this.index.first(id) * this.records + this.index.second(id);
  }
}
