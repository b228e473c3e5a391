/**
 * A seeded simple random sample without replacement in each stratum of a stream too long to keep: Vitter's
 * Algorithm R ("Random sampling with a reservoir", ACM TOMS 11(1), 1985) per stratum, keeping at most `capacity`
 * items of each, and the count of every item offered. The reservoir of a stratum is a uniform random subset of its
 * items; `take(k)` draws k of them uniformly (a partial Fisher-Yates with the same generator), which is then a uniform
 * random k-subset of the whole stratum. Memory is strata × capacity, whatever the stream's length.
 */
export interface UniformInt {
  /** A uniform integer in [0, n). */
  int(n: number): number;
}

export class StratifiedReservoir<S, T> {
  private readonly kept = new Map<S, T[]>();
  private readonly seen = new Map<S, number>();

  constructor(
    private readonly capacity: number,
    private readonly rng: UniformInt,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError('capacity must be a whole number ≥ 0');
  }

  offer(stratum: S, item: T): void {
    const i = this.seen.get(stratum) ?? 0;
    this.seen.set(stratum, i + 1);
    let kept = this.kept.get(stratum);
    if (kept === undefined) {
      kept = [];
      this.kept.set(stratum, kept);
    }
    if (i < this.capacity) kept.push(item);
    else {
      const j = this.rng.int(i + 1);
      if (j < this.capacity) kept[j] = item;
    }
  }

  /** Items offered to the stratum. */
  size(stratum: S): number {
    return this.seen.get(stratum) ?? 0;
  }

  /** k items of the stratum drawn uniformly without replacement (k at most the capacity and the stratum's size). */
  take(stratum: S, k: number): T[] {
    const kept = [...(this.kept.get(stratum) ?? [])];
    if (!Number.isSafeInteger(k) || k < 0 || k > kept.length)
      throw new RangeError(`cannot take ${String(k)} of ${String(kept.length)} kept items`);
    for (let i = 0; i < k; i++) {
      const j = i + this.rng.int(kept.length - i);
      const pick = kept[j] as T;
      kept[j] = kept[i] as T;
      kept[i] = pick;
    }
    return kept.slice(0, k);
  }
}
