/**
 * Prepared labelled records kept between assurance calls, so that evaluating a dataset again (after a
 * calibration, after applying a model, from the console page) does not read, parse and prepare the same
 * records again. One slot per store holds the records of one tenant under one matching-profile version (a
 * stored profile version never changes, and preparation depends only on it). A remembered record is looked
 * up by its version only (its fields are not read), and reused only when its record ID, logical version and payload
 * digest are all unchanged; an updated or re-created record is read and prepared afresh, as is every record of a first
 * call. The slot is bounded: when full it starts again. Use inside one read transaction.
 */
import type { MatchFields } from '../contract/fields.ts';
import type { PreparedRecord } from '../scoring/prepared-record.ts';
import { createScorer, type Scorer } from '../scoring/scorer.ts';
import type { TermFrequencyReader } from '../scoring/term-frequency.ts';
import { storedTermFrequencies, termCountsOf } from '../store/term-frequency.ts';
import type { Store } from '../store/store.ts';
import type { RecordRef } from '../contract/matching.ts';
import type { StoredProfile } from '../store/profiles.ts';
import { findLabelledRecords, labelledRecordFields, type LabelledRecordRow } from '../store/assurance.ts';

export const MAX_CACHED_RECORDS = 50_000;

export interface LabelledRecord {
  readonly recordId: number;
  readonly version: number;
  readonly payloadDigest: string;
  readonly fields: MatchFields;
  readonly prepared: PreparedRecord;
}

interface Slot {
  readonly tenantId: string;
  readonly profileVersion: number;
  readonly scorer: Scorer;
  /** The name counts the scorer reads, set for each call (its read transaction's). */
  counts: TermFrequencyReader;
  /** Source system → local identifier → record. */
  readonly byRef: Map<string, Map<string, LabelledRecord>>;
  size: number;
}

const slots = new WeakMap<Store, Slot>();

/** A looked-up record: remembered and current, or read (with its fields) and still to be prepared. */
export type RecordLookup =
  { readonly record: LabelledRecord } | { readonly row: LabelledRecordRow & { readonly fieldsJson: string } };

export interface PreparedRecords {
  readonly scorer: Scorer;
  /**
   * Looks records up, in their order (undefined where the tenant has none by that reference); nothing is parsed yet.
   * Remembered records are read without their fields, the others with them, each kind in bulk.
   */
  findAll(refs: readonly RecordRef[]): (RecordLookup | undefined)[];
  /**
   * The prepared records of look-ups (in their order), remembered for later calls; the name counts of those to
   * prepare are read together first. step is told every 1,024 records.
   */
  prepareAll(
    items: readonly { readonly sourceSystem: string; readonly localId: string; readonly lookup: RecordLookup }[],
    step?: (done: number) => void,
  ): LabelledRecord[];
}

export function preparedRecords(store: Store, tenantId: string, stored: StoredProfile): PreparedRecords {
  // The counts as this call's read transaction sees them: prepareAll reads those of the records it prepares together
  // (a first evaluation of 10,000 pairs read the counts of its 8,761 records one statement each).
  const counts = storedTermFrequencies(store, tenantId);
  let slot = slots.get(store);
  if (slot?.tenantId !== tenantId || slot.profileVersion !== stored.version) {
    const made: Slot = {
      tenantId,
      profileVersion: stored.version,
      scorer: createScorer(stored.profile, { count: (field, value) => made.counts.count(field, value) }),
      counts,
      byRef: new Map(),
      size: 0,
    };
    slot = made;
    slots.set(store, slot);
  }
  slot.counts = counts;
  const current = slot;
  return {
    scorer: current.scorer,
    findAll(refs) {
      const known = refs.map((ref) => current.byRef.get(ref.sourceSystem)?.get(ref.localId));
      const unknownRefs = refs.filter((_, i) => known[i] === undefined);
      const knownRefs = refs.filter((_, i) => known[i] !== undefined);
      const wide = findLabelledRecords(store, tenantId, unknownRefs, true);
      const narrow = findLabelledRecords(store, tenantId, knownRefs, false);
      let w = 0;
      let n = 0;
      return known.map((record): RecordLookup | undefined => {
        if (record === undefined) {
          const row = wide[w++];
          // The wide statement always returns the fields.
          return row === undefined ? undefined : { row: row as LabelledRecordRow & { readonly fieldsJson: string } };
        }
        const row = narrow[n++];
        if (row === undefined) return undefined;
        if (
          row.recordId === record.recordId &&
          row.version === record.version &&
          row.payloadDigest === record.payloadDigest
        )
          return { record };
        return { row: { ...row, fieldsJson: labelledRecordFields(store, tenantId, row.recordId) } };
      });
    },
    prepareAll(items, step) {
      const fields = items.map(({ lookup }) =>
        'record' in lookup ? null : (JSON.parse(lookup.row.fieldsJson) as MatchFields),
      );
      current.counts = termCountsOf(
        store,
        tenantId,
        fields.filter((f) => f !== null),
      );
      return items.map(({ sourceSystem, localId, lookup }, index) => {
        if ((index & 1023) === 0) step?.(index);
        if ('record' in lookup) return lookup.record;
        const { row } = lookup;
        const parsed = fields[index];
        if (parsed == null) throw new Error('unreachable: the fields of every look-up to prepare were parsed above');
        const record: LabelledRecord = {
          recordId: row.recordId,
          version: row.version,
          payloadDigest: row.payloadDigest,
          fields: parsed,
          prepared: current.scorer.prepare(parsed),
        };
        if (current.size >= MAX_CACHED_RECORDS) {
          current.byRef.clear();
          current.size = 0;
        }
        let byLocal = current.byRef.get(sourceSystem);
        if (byLocal === undefined) {
          byLocal = new Map();
          current.byRef.set(sourceSystem, byLocal);
        }
        if (!byLocal.has(localId)) current.size++;
        byLocal.set(localId, record);
        return record;
      });
    },
  };
}

/** Forgets the prepared records of a store (benches measure a first call with it; nothing else needs it). */
export function forgetPreparedRecords(store: Store): void {
  slots.delete(store);
}
