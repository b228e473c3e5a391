/**
 * The keys of one blocking rule that two or more records share: for each, its key material (ruleKeyMaterial's
 * string), the records holding it in order, and its place among the first record's keys of the rule. Keys seen by
 * one record only are dropped.
 *
 * A rule of one or two parts is grouped on numbers: each distinct part value gets a small ID, and a key is the pair
 * (ID, -1), or (ID, ID) for two parts (sorted by value first for an Unordered rule, as ruleKeyMaterial sorts them),
 * interned in a PairIndex (pair-index.ts). So no key string is built and hashed per record (a hundred thousand
 * records make about 1.4 million keys); only the shared keys' materials are built, once each. Two records share a
 * numeric key exactly when they share the key string, as long as no value holds the separator ruleKeyMaterial joins
 * values with; a rule where one does, or of three or four parts, is grouped on the key strings themselves.
 * test/engine/assurance/blocking-candidates.test.ts checks both against every rule's key strings grouped at once.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { BlockingRule } from '../contract/profile.ts';
import { MAX_KEYS_PER_RULE, ruleKey, rulePartValues } from '../blocking/key-material.ts';
import { grownInt32, PairIndex } from './pair-index.ts';

export interface KeyGroup {
  readonly material: string;
  /** The key's place among the first record's keys of the rule. */
  readonly position: number;
  readonly members: number[];
}

/** The separator ruleKeyMaterial joins a key's values with. */
const SEPARATOR = '\u001f';

interface Group {
  readonly position: number;
  readonly members: number[];
}

/**
 * Collects keys record by record (ascending record indexes). Most keys are one record's: a key seen once is held as
 * a number (its record and place), a group only from its second record.
 */
class Grouper {
  readonly groups = new Map<string, number | Group>();

  add(key: string, record: number, position: number): void {
    const seen = this.groups.get(key);
    if (seen === undefined) this.groups.set(key, record * MAX_KEYS_PER_RULE + position);
    else if (typeof seen !== 'number') {
      if (seen.members.at(-1) !== record) seen.members.push(record);
    } else if (Math.floor(seen / MAX_KEYS_PER_RULE) !== record)
      this.groups.set(key, {
        position: seen % MAX_KEYS_PER_RULE,
        members: [Math.floor(seen / MAX_KEYS_PER_RULE), record],
      });
  }

  /** The groups of two or more records, each key being its material. */
  shared(): KeyGroup[] {
    const out: KeyGroup[] = [];
    for (const [material, group] of this.groups) if (typeof group !== 'number') out.push({ material, ...group });
    return out;
  }
}

/**
 * Grouper's work for keys of one or two value IDs (a single part's key is the pair (ID, -1)), interned in a PairIndex
 * instead of a Map of numbers: the same groups in the same order. Per key ID: its first record and place, and its
 * group's index in `groups` (-1 while one record holds it).
 */
class IdGrouper {
  private readonly keys = new PairIndex();
  private firstRecord = new Int32Array(1024);
  private firstPosition = new Int32Array(1024);
  private groupOf = new Int32Array(1024);
  private readonly groups: Group[] = [];

  add(first: number, second: number, record: number, position: number): void {
    const known = this.keys.size;
    const id = this.keys.intern(first, second);
    if (id === known) {
      this.firstRecord = grownInt32(this.firstRecord, id);
      this.firstPosition = grownInt32(this.firstPosition, id);
      this.groupOf = grownInt32(this.groupOf, id);
      this.firstRecord[id] = record;
      this.firstPosition[id] = position;
      this.groupOf[id] = -1;
      return;
    }
    const group = this.groupOf[id] ?? -1;
    if (group >= 0) {
      const members = (this.groups[group] as Group).members;
      if (members.at(-1) !== record) members.push(record);
    } else if (this.firstRecord[id] !== record) {
      this.groupOf[id] = this.groups.length;
      this.groups.push({ position: this.firstPosition[id] ?? 0, members: [this.firstRecord[id] ?? 0, record] });
    }
  }

  shared(material: (first: number, second: number) => string): KeyGroup[] {
    const out: KeyGroup[] = [];
    for (let id = 0; id < this.keys.size; id++) {
      const group = this.groupOf[id] ?? -1;
      if (group >= 0)
        out.push({ material: material(this.keys.first(id), this.keys.second(id)), ...(this.groups[group] as Group) });
    }
    return out;
  }
}

/** One rule part's values of every record, as IDs: record i's are ids[offsets[i]] to ids[offsets[i + 1]]. */
interface PartIds {
  readonly offsets: Int32Array;
  readonly ids: Int32Array;
}

/**
 * The part values of a set of records as IDs, worked out once per part however many rules use it (the family name's
 * phonetic code serves five rules of the default profile). One ID space for every part, so an Unordered rule's
 * values compare across parts.
 */
export class PartValueIds {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Null for a part some value of which holds the separator. */
  private readonly parts = new Map<string, PartIds | null>();

  constructor(private readonly fields: readonly MatchFields[]) {}

  of(part: BlockingRule['Parts'][number]): PartIds | null {
    const name = `${part.Field}/${part.Transform}`;
    const known = this.parts.get(name);
    if (known !== undefined) return known;
    const computed = this.compute(part);
    this.parts.set(name, computed);
    return computed;
  }

  private compute(part: BlockingRule['Parts'][number]): PartIds | null {
    const offsets = new Int32Array(this.fields.length + 1);
    const out: number[] = [];
    for (let i = 0; i < this.fields.length; i++) {
      for (const value of rulePartValues(this.fields[i] as MatchFields, part)) {
        if (value.includes(SEPARATOR)) return null;
        let id = this.ids.get(value);
        if (id === undefined) {
          id = this.values.length;
          this.ids.set(value, id);
          this.values.push(value);
        }
        out.push(id);
      }
      offsets[i + 1] = out.length;
    }
    return { offsets, ids: Int32Array.from(out) };
  }
}

export function sharedKeyGroups(
  rule: BlockingRule,
  fields: readonly MatchFields[],
  parts: PartValueIds,
  materialsOf: (fields: MatchFields) => string[],
  step: (record: number) => void,
): KeyGroup[] {
  return (
    (rule.Parts.length <= 2 ? valueGroups(rule, fields.length, parts, step) : null) ??
    materialGroups(fields, materialsOf, step)
  );
}

function materialGroups(
  fields: readonly MatchFields[],
  materialsOf: (fields: MatchFields) => string[],
  step: (record: number) => void,
): KeyGroup[] {
  const grouper = new Grouper();
  for (let i = 0; i < fields.length; i++) {
    step(i);
    const materials = materialsOf(fields[i] as MatchFields);
    for (let position = 0; position < materials.length; position++)
      grouper.add(materials[position] as string, i, position);
  }
  return grouper.shared();
}

/** Null when a part's value holds the separator: the caller groups the key strings instead. */
function valueGroups(
  rule: BlockingRule,
  records: number,
  parts: PartValueIds,
  step: (record: number) => void,
): KeyGroup[] | null {
  const [firstPart, secondPart] = rule.Parts;
  if (firstPart === undefined) return [];
  const first = parts.of(firstPart);
  const second = secondPart === undefined ? undefined : parts.of(secondPart);
  if (first === null || second === null) return null;
  const { values } = parts;
  const unordered = rule.Unordered === true;
  const grouper = new IdGrouper();
  for (let i = 0; i < records; i++) {
    step(i);
    const leftFrom = first.offsets[i] as number;
    const leftTo = first.offsets[i + 1] as number;
    if (leftFrom === leftTo) continue;
    if (second === undefined) {
      // ruleKeyMaterial's keys: the values in order, within its cap.
      for (let x = leftFrom; x < leftTo && x - leftFrom < MAX_KEYS_PER_RULE; x++)
        grouper.add(first.ids[x] as number, -1, i, x - leftFrom);
      continue;
    }
    const rightFrom = second.offsets[i] as number;
    const rightTo = second.offsets[i + 1] as number;
    if (rightFrom === rightTo) continue;
    // ruleKeyMaterial's combinations, in its order and within its cap; an Unordered rule's pair sorted by value.
    let position = 0;
    for (let x = leftFrom; x < leftTo && position < MAX_KEYS_PER_RULE; x++) {
      const a = first.ids[x] as number;
      for (let y = rightFrom; y < rightTo && position < MAX_KEYS_PER_RULE; y++) {
        const b = second.ids[y] as number;
        const swap = unordered && (values[b] as string) < (values[a] as string);
        grouper.add(swap ? b : a, swap ? a : b, i, position++);
      }
    }
  }
  return grouper.shared((x, y) =>
    ruleKey(rule.Name, y < 0 ? [values[x] as string] : [values[x] as string, values[y] as string]),
  );
}
