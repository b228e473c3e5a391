/**
 * The stored name counts, on SQLite and on PostgreSQL (a fresh database in the run's throwaway cluster): after new
 * records and changed names, every count, total and Σ count² equals the one computed from the records themselves,
 * and a family and a given name read together (countNames, one statement) answer exactly as read one by one, as do
 * the counts of many names read in bulk (termCountsOf).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatchFields } from '../../../engine/contract/fields.ts';
import type { TermCount, TermFrequencyField } from '../../../engine/scoring/term-frequency.ts';
import { Store } from '../../../engine/store/store.ts';
import { insertTenant } from '../../../engine/store/tenants.ts';
import {
  countRecordTerms,
  storedTermFrequencies,
  termCountsOf,
  termFrequencySnapshot,
} from '../../../engine/store/term-frequency.ts';
import { withTenant } from '../../../engine/store/tenant-scope.ts';
import { SAMPLE_FIELDS } from '../../helpers/fields.ts';
import { freshDatabase } from '../../helpers/postgres/database.ts';
import { suiteDir } from '../../helpers/temp.ts';

const dir = suiteDir();

const names = (familyName: string | null, givenName: string | null): MatchFields => ({
  ...SAMPLE_FIELDS,
  familyName,
  givenName,
});

/** Counts, totals and Σ count² computed from the records as they are now. */
function expected(records: readonly MatchFields[], field: TermFrequencyField, value: string): TermCount {
  const counts = new Map<string, number>();
  for (const r of records) {
    const v = r[field];
    if (v !== null && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let total = 0;
  let sumSquares = 0;
  for (const c of counts.values()) {
    total += c;
    sumSquares += c * c;
  }
  return { count: counts.get(value) ?? 0, total, sumSquares };
}

function check(location: string): void {
  const store = Store.open(location);
  try {
    withTenant('t1', () => {
      store.write(() => {
        insertTenant(store, 't1', new Date().toISOString());
      });
      const reader = storedTermFrequencies(store, 't1');
      // Before any record: no totals row, every count zero.
      expect(reader.countNames?.('smith', 'john')).toEqual([
        { count: 0, total: 0, sumSquares: 0 },
        { count: 0, total: 0, sumSquares: 0 },
      ]);
      const records: MatchFields[] = [
        names('smith', 'john'),
        names('smith', 'jane'),
        names('smith', 'john'),
        names('nguyen', null),
        names(null, 'john'),
        names('', 'mary'),
        names('jones', 'john'),
      ];
      store.write(() => {
        for (const r of records) countRecordTerms(store, 't1', null, r);
      });
      // Names change: a record's family name and given name both, one only, one to nothing.
      const changes: [number, MatchFields][] = [
        [0, names('smyth', 'jon')],
        [1, names('smith', 'janet')],
        [6, names(null, 'john')],
        [3, names('nguyen', 'an')],
      ];
      store.write(() => {
        for (const [i, after] of changes) {
          countRecordTerms(store, 't1', records[i] as MatchFields, after);
          records[i] = after;
        }
      });
      const families = ['smith', 'smyth', 'nguyen', 'jones', 'absent'];
      const givens = ['john', 'jon', 'jane', 'janet', 'mary', 'an', 'absent'];
      for (const family of families) {
        expect(reader.count('familyName', family), family).toEqual(expected(records, 'familyName', family));
        for (const given of givens) {
          expect(reader.countNames?.(family, given), `${family} ${given}`).toEqual([
            reader.count('familyName', family),
            reader.count('givenName', given),
          ]);
        }
      }
      for (const given of givens)
        expect(reader.count('givenName', given), given).toEqual(expected(records, 'givenName', given));
      // Read in bulk for some names (600 of them, past one statement's 500): the same answers, and for a name it was
      // not given, the stored reader's.
      const many = [...families.slice(0, 3), ...Array.from({ length: 600 }, (_, i) => `filler${String(i)}`)].map(
        (family, i) => names(family, givens[i % 3] ?? null),
      );
      const bulk = termCountsOf(store, 't1', [...many, names(null, null), names('', 'mary')]);
      for (const family of [...families, 'filler7'])
        expect(bulk.count('familyName', family), family).toEqual(expected(records, 'familyName', family));
      for (const given of givens)
        expect(bulk.count('givenName', given), given).toEqual(expected(records, 'givenName', given));
      // Read whole into memory (termFrequencySnapshot): the same answers for every name, carried or not.
      const snapshot = termFrequencySnapshot(store, 't1');
      for (const family of [...families, 'filler7', ''])
        expect(snapshot.count('familyName', family), family).toEqual(reader.count('familyName', family));
      for (const given of [...givens, ''])
        expect(snapshot.count('givenName', given), given).toEqual(reader.count('givenName', given));
      // A name no record carries any more is not kept at a count of zero.
      expect(store.statement("SELECT count(*) AS n FROM term_frequency WHERE value = 'jones'").get()).toEqual({ n: 0 });
    });
  } finally {
    store.close();
  }
}

describe('the stored name counts', () => {
  it('count new records and changed names on SQLite; two names read together answer as one by one', () => {
    check(join(dir, 'tf.db'));
  });

  it('do the same on PostgreSQL', async () => {
    check(await freshDatabase());
  });
});
