/**
 * The tags held by two or more of a tenant's identities, as one ordered scan of the tag index found them
 * (later-tags.ts): for any tag, the highest identity holding it; and, for the tags held by at most MAX_BLOCK_SIZE
 * identities, the block itself (every holder, ascending) with, for each identity, the blocks it is in, in tag order.
 *
 * A block held here is what `identitiesWithTags` reads of that tag, and an identity's blocks come in the order its
 * stored tags are read (tag order): the later candidates ranked from them are the ones the database's lookups give,
 * to the last floating-point addition (reconcile.ts laterCandidates). A tag held by more than MAX_BLOCK_SIZE
 * identities is too common to rank candidates with, so only its highest holder is kept.
 *
 * Memory: 12 bytes a shared tag (the first 8 bytes of it and its highest holder: tags are HMAC outputs, so two
 * distinct tags sharing them is a 2^-64 chance, and even then only one tag more is looked up), 8 bytes a holder of a
 * usable block (the holder and the block in the identity's list), and 4 bytes per identity ID from the lowest to the
 * highest holder (holders spread thinner than 8 IDs each are not indexed by identity): some 6 MB for the jobs bench's
 * 100,000 people.
 */
import { MAX_BLOCK_SIZE } from '../ingest/candidates.ts';

/** The highest identity ID the arrays hold; past it the scan answers nothing and every tag is looked up. */
const MAX_ID = 0x7fffffff;

/** The identity index has an entry per ID between the lowest and highest holder: at most this many per holder row. */
const SPREAD_PER_HOLDER = 8;
const MIN_SPREAD = 1 << 20;

/** The same values in an array twice as long, when `needed` is past the end. */
function grown<T extends Uint32Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(values: T, needed: number): T {
  if (needed < values.length) return values;
  const next = new (values.constructor as new (length: number) => T)(Math.max(needed + 1, values.length * 2));
  next.set(values);
  return next;
}

export class SharedTags {
  // Parallel arrays of (high word, low word, highest holder), in ascending tag order.
  private high = new Uint32Array(1024);
  private low = new Uint32Array(1024);
  private last = new Int32Array(1024);
  private size = 0;
  // The usable blocks, in tag order: block b's holders are holders[blockStart[b] .. blockStart[b + 1]).
  private blockStart = new Int32Array(1024);
  private holders = new Int32Array(1024);
  private blocks = 0;
  // After `finish`: identity i's blocks are blocksOf[identityStart[i - firstIdentity] .. the next start).
  private identityStart = new Int32Array(1);
  private blocksOf = new Int32Array(0);
  private firstIdentity = 0;
  // Set when a holder's ID does not fit the arrays (past 2^31 - 1): every tag is then looked up, as with no scan.
  private lookUpAll = false;
  // Set when the holders' IDs are spread so thinly that an entry per ID would outweigh the blocks: the blocks are
  // then not indexed by identity, and the tags a later identity holds are looked up.
  private unindexed = false;

  /** Shared tags noted (a figure for tests and benches). */
  get count(): number {
    return this.size;
  }

  /** Notes a tag and its holders (ascending, two or more); call in ascending tag order, then `finish`. */
  push(tag: Buffer, holders: readonly number[]): void {
    if (this.lookUpAll) return;
    const lastHolder = holders.at(-1) ?? 0;
    if (lastHolder > MAX_ID) {
      this.lookUpAll = true;
      return;
    }
    const high = tag.readUInt32BE(0);
    const low = tag.readUInt32BE(4);
    const at = this.size - 1;
    // Two tags with one 8-byte prefix are adjacent in tag order: keep the higher holder of both.
    if (at >= 0 && this.high[at] === high && this.low[at] === low) {
      this.last[at] = Math.max(this.last[at] ?? 0, lastHolder);
    } else {
      this.high = grown(this.high, this.size);
      this.low = grown(this.low, this.size);
      this.last = grown(this.last, this.size);
      this.high[this.size] = high;
      this.low[this.size] = low;
      this.last[this.size] = lastHolder;
      this.size++;
    }
    if (holders.length > MAX_BLOCK_SIZE) return;
    const start = this.blockStart[this.blocks] ?? 0;
    this.holders = grown(this.holders, start + holders.length);
    this.holders.set(holders, start);
    this.blocks++;
    this.blockStart = grown(this.blockStart, this.blocks);
    this.blockStart[this.blocks] = start + holders.length;
  }

  /** Indexes the blocks by identity, once every tag is pushed, and gives back the arrays' room to grow. */
  finish(): void {
    const rows = this.blockStart[this.blocks] ?? 0;
    this.high = this.high.slice(0, this.size);
    this.low = this.low.slice(0, this.size);
    this.last = this.last.slice(0, this.size);
    this.blockStart = this.blockStart.slice(0, this.blocks + 1);
    this.holders = this.holders.slice(0, rows);
    const holders = this.holders;
    // With every tag looked up, nothing reads the blocks by identity.
    if (rows === 0 || this.lookUpAll) return;
    let first = Number.MAX_SAFE_INTEGER;
    let last = 0;
    for (const id of holders) {
      if (id < first) first = id;
      if (id > last) last = id;
    }
    if (last - first > SPREAD_PER_HOLDER * rows + MIN_SPREAD) {
      this.unindexed = true;
      return;
    }
    const start = new Int32Array(last - first + 2);
    for (const id of holders) start[id - first + 1] = (start[id - first + 1] ?? 0) + 1;
    for (let i = 1; i < start.length; i++) start[i] = (start[i] ?? 0) + (start[i - 1] ?? 0);
    const next = start.slice(0, -1);
    const blocksOf = new Int32Array(rows);
    // Blocks in tag order, so each identity's list is in tag order too.
    for (let block = 0; block < this.blocks; block++) {
      for (let at = this.blockStart[block] ?? 0; at < (this.blockStart[block + 1] ?? 0); at++) {
        const slot = (this.holders[at] ?? 0) - first;
        blocksOf[next[slot] ?? 0] = block;
        next[slot] = (next[slot] ?? 0) + 1;
      }
    }
    this.identityStart = start;
    this.blocksOf = blocksOf;
    this.firstIdentity = first;
  }

  /** The highest identity the scan saw holding a tag, or 0 when it saw the tag held once or not at all. */
  lastHolder(tag: Buffer): number {
    if (this.lookUpAll) return Number.MAX_SAFE_INTEGER;
    const high = tag.readUInt32BE(0);
    const low = tag.readUInt32BE(4);
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const h = this.high[mid] ?? 0;
      const l = this.low[mid] ?? 0;
      if (h < high || (h === high && l < low)) lo = mid + 1;
      else if (h > high || l > low) hi = mid - 1;
      else return this.last[mid] ?? 0;
    }
    return 0;
  }

  /**
   * The usable blocks of an identity that a later identity holds, in tag order: what looking up its stored tags
   * would read of them, when nothing changed since the scan. Blocks without a later holder add nothing to its later
   * candidates; those of too common tags are left out as the ranking leaves them out. Null when the holders' IDs did
   * not fit the arrays, or were spread too thinly to index by identity: the caller then looks the tags up.
   */
  laterBlocks(identityId: number): Int32Array[] | null {
    if (this.lookUpAll || this.unindexed) return null;
    const slot = identityId - this.firstIdentity;
    const out: Int32Array[] = [];
    if (slot < 0 || slot + 1 >= this.identityStart.length) return out;
    for (let at = this.identityStart[slot] ?? 0; at < (this.identityStart[slot + 1] ?? 0); at++) {
      const block = this.blocksOf[at] ?? 0;
      const end = this.blockStart[block + 1] ?? 0;
      if ((this.holders[end - 1] ?? 0) > identityId) out.push(this.holders.subarray(this.blockStart[block], end));
    }
    return out;
  }
}
