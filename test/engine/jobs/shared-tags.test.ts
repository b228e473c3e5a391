/**
 * SharedTags (engine/jobs/shared-tags.ts): the scan's shared tags, each with its highest holder, and the usable blocks
 * by identity, in tag order. Checked against a plain reading of the same tags.
 */
import { describe, expect, it } from 'vitest';
import { SharedTags } from '../../../engine/jobs/shared-tags.ts';
import { MAX_BLOCK_SIZE } from '../../../engine/ingest/candidates.ts';

/** A 16-byte tag whose first 8 bytes are `prefix` (big-endian in the last 4 of them) and the rest `rest`. */
const tag = (prefix: number, rest = 0): Buffer => {
  const out = Buffer.alloc(16);
  out.writeUInt32BE(prefix, 4);
  out.writeUInt32BE(rest, 12);
  return out;
};

describe('SharedTags', () => {
  it("gives each identity the blocks a later identity holds, in tag order, leaving out too common tags' blocks", () => {
    const shared = new SharedTags();
    const crowd = Array.from({ length: MAX_BLOCK_SIZE + 1 }, (_, i) => 100 + i);
    // Ascending tag order, as the scan reads them; holders ascending.
    const tags: [Buffer, number[]][] = [
      [tag(1), [3, 7]],
      [tag(2), [5, 7, 9]],
      [tag(3), crowd],
      [tag(4), [7, 40]],
      [tag(5), [3, 5]],
    ];
    for (const [t, holders] of tags) shared.push(t, holders);
    shared.finish();
    expect(shared.count).toBe(5);
    const listed = (id: number): number[][] => (shared.laterBlocks(id) ?? []).map((block) => [...block]);
    expect(listed(3)).toEqual([
      [3, 7],
      [3, 5],
    ]);
    expect(listed(5)).toEqual([[5, 7, 9]]);
    expect(listed(7)).toEqual([
      [5, 7, 9],
      [7, 40],
    ]);
    // The last holder of every block, and one who holds only a too common tag: no later block.
    expect(listed(9)).toEqual([]);
    expect(listed(40)).toEqual([]);
    expect(listed(150)).toEqual([]);
    // Identities outside the scanned range, below and above.
    expect(listed(1)).toEqual([]);
    expect(listed(10_000)).toEqual([]);
    // The highest holder is kept for every tag, a too common one included; an unseen tag has none.
    expect(shared.lastHolder(tag(3))).toBe(100 + MAX_BLOCK_SIZE);
    expect(shared.lastHolder(tag(4))).toBe(40);
    expect(shared.lastHolder(tag(6))).toBe(0);
  });

  it('keeps the higher holder of two tags sharing their first 8 bytes, and both blocks', () => {
    const shared = new SharedTags();
    shared.push(tag(8, 1), [2, 30]);
    shared.push(tag(8, 2), [4, 6]);
    shared.finish();
    expect(shared.count).toBe(1);
    expect(shared.lastHolder(tag(8, 2))).toBe(30);
    expect(shared.laterBlocks(4)?.map((block) => [...block])).toEqual([[4, 6]]);
    expect(shared.laterBlocks(2)?.map((block) => [...block])).toEqual([[2, 30]]);
  });

  it('answers nothing, so that every tag is looked up, when an identity ID does not fit its arrays', () => {
    const shared = new SharedTags();
    shared.push(tag(1), [3, 7]);
    shared.push(tag(2), [5, 2 ** 31]);
    shared.push(tag(3), [4, 9]);
    shared.finish();
    expect(shared.laterBlocks(3)).toBeNull();
    expect(shared.laterBlocks(4)).toBeNull();
    // Every tag, seen or not, may have a later holder.
    expect(shared.lastHolder(tag(1))).toBe(Number.MAX_SAFE_INTEGER);
    expect(shared.lastHolder(tag(6))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('keeps the highest holders but no identity index when the holders are spread too thin for one', () => {
    const shared = new SharedTags();
    shared.push(tag(1), [3, 7]);
    shared.push(tag(2), [5, 2 ** 30]);
    shared.finish();
    expect(shared.laterBlocks(3)).toBeNull();
    expect(shared.lastHolder(tag(1))).toBe(7);
    expect(shared.lastHolder(tag(2))).toBe(2 ** 30);
  });

  it('answers with no block before any tag is pushed', () => {
    const shared = new SharedTags();
    shared.finish();
    expect(shared.laterBlocks(1)).toEqual([]);
    expect(shared.lastHolder(tag(1))).toBe(0);
  });
});
