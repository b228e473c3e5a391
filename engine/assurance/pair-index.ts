/**
 * Dense IDs for pairs of 32-bit integers, in the order the pairs are first seen: the first pair interned is 0, the
 * next new one 1, and so on. What a `Map` keyed by a number made of the two would do, without its cost: past 2^31 such
 * a number is a heap number, allocated for every lookup and hashed as a double, and a million-entry map of them kept
 * the collector busy. Here the two integers are hashed as they are into a table of slots (open addressing, linear
 * probing, at most half full) and the pairs sit in typed arrays; nothing is allocated but when an array doubles.
 *
 * Candidate pairs (pair-table.ts) and blocking keys made of two part values (shared-key-groups.ts) are interned here.
 */
export class PairIndex {
  /** The pair with ID i is (firsts[i], seconds[i]). */
  private firsts = new Int32Array(1024);
  private seconds = new Int32Array(1024);
  /** Each slot is 0 when empty, or 1 + the ID of the pair it holds. */
  private slots = new Int32Array(2048);
  private count = 0;

  /** How many distinct pairs were interned; their IDs are 0 to size - 1. */
  get size(): number {
    return this.count;
  }

  /** The pair's ID, a new one (size before the call) when it was not seen yet. Both must be 32-bit integers. */
  intern(first: number, second: number): number {
    const at = this.slotOf(first, second);
    const held = this.slots[at] ?? 0;
    if (held !== 0) return held - 1;
    if (this.count === this.firsts.length) this.growPairs();
    const id = this.count++;
    this.firsts[id] = first;
    this.seconds[id] = second;
    this.slots[at] = id + 1;
    if (this.count * 2 > this.slots.length) this.growSlots();
    return id;
  }

  /** The pair's ID, or -1 when it was never interned. */
  find(first: number, second: number): number {
    return (this.slots[this.slotOf(first, second)] ?? 0) - 1;
  }

  first(id: number): number {
    return this.firsts[id] ?? 0;
  }

  second(id: number): number {
    return this.seconds[id] ?? 0;
  }

  /** The slot holding the pair, or the empty slot where it would go. */
  private slotOf(first: number, second: number): number {
    const mask = this.slots.length - 1;
    let at = hash(first, second) & mask;
    for (;;) {
      const held = this.slots[at] ?? 0;
      if (held === 0 || (this.firsts[held - 1] === first && this.seconds[held - 1] === second)) return at;
      at = (at + 1) & mask;
    }
  }

  private growPairs(): void {
    this.firsts = grownInt32(this.firsts, this.count);
    this.seconds = grownInt32(this.seconds, this.count);
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let at = hash(this.firsts[id] ?? 0, this.seconds[id] ?? 0) & mask;
      while (this.slots[at] !== 0) at = (at + 1) & mask;
      this.slots[at] = id + 1;
    }
  }
}

/** Two 32-bit integers mixed into 32 bits by odd multipliers and xor-shifts, as in murmur3's finaliser. */
function hash(first: number, second: number): number {
  let h = Math.imul(first, 0x9e3779b1) ^ Math.imul(second + 0x632be5ab, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h;
}

/** An Int32Array twice as long holding the same values first, when `needed` is past its end. */
export function grownInt32(values: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed < values.length) return values;
  const grown = new Int32Array(Math.max(needed + 1, values.length * 2));
  grown.set(values);
  return grown;
}
