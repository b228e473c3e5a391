/**
 * node --import tsx test/bench/wrong-links.ts DIR: the identities of a registry the bench's ingest worker filled
 * (`ingest-worker.ts generate DIR N`, then `ingest DIR`) that hold records of two people by the generator's truth
 * (DIR/truth.tsv), one by one, to class the scale bench's "wrong links" (docs/testing.md, "Wrong links at a
 * million"). For each: its records (source, local ID, person), the record whose link joined the second person with the
 * registry's size and the score then (identity_event), and the best pair of two people under the active profile now
 * (matching/explain: score, decision, the rule that held it, each field's band). Bands only, no field values.
 */
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { personByRecord, readTruth, recordKey } from './truth-file.ts';

const [dir = ''] = process.argv.slice(2);
if (dir === '') throw new Error('usage: wrong-links DIR');

const engine = LocalEngine.open({ dbPath: join(dir, 'bench.db'), create: false });
const ctx = { tenantId: 'bench', actor: 'bench' };
const personOf = personByRecord(readTruth(dir));

interface Member {
  readonly identityId: number;
  readonly recordId: number;
  readonly sourceSystem: string;
  readonly localId: string;
}
const members = engine.env.store
  .statement(
    `SELECT l.identity_id AS identityId, s.record_id AS recordId, s.source_system AS sourceSystem, s.local_id AS localId
     FROM source_record s JOIN identity_link l ON l.tenant_id = s.tenant_id AND l.record_id = s.record_id
     WHERE s.tenant_id = ? ORDER BY l.identity_id, s.record_id`,
  )
  .all(ctx.tenantId) as Member[];
const person = (m: Member): string => personOf.get(recordKey(m.sourceSystem, m.localId)) ?? '?';
const byIdentity = new Map<number, Member[]>();
for (const m of members) {
  const records = byIdentity.get(m.identityId);
  if (records === undefined) byIdentity.set(m.identityId, [m]);
  else records.push(m);
}

const joinedBy = engine.env.store.statement(
  `SELECT record_id AS recordId, score FROM identity_event
   WHERE tenant_id = ? AND identity_id = ? AND kind IN ('identity-created', 'record-joined') ORDER BY event_id`,
);

let mixed = 0;
for (const [identityId, records] of byIdentity) {
  if (new Set(records.map(person)).size < 2) continue;
  mixed++;
  process.stdout.write(`\nidentity ${String(identityId)}: ${String(records.length)} records\n`);
  for (const r of records) process.stdout.write(`  ${person(r)}  ${r.sourceSystem}/${r.localId}\n`);
  // The first event whose record is of a person the identity did not hold yet: the link that joined two people.
  const seen = new Set<string>();
  for (const event of joinedBy.all(ctx.tenantId, identityId) as { recordId: number; score: number | null }[]) {
    const record = records.find((r) => r.recordId === event.recordId);
    if (record === undefined) continue;
    if (seen.size > 0 && !seen.has(person(record))) {
      process.stdout.write(
        `  joined: ${record.sourceSystem}/${record.localId} when the registry held about ${String(event.recordId)} records, at ${event.score?.toFixed(4) ?? '—'}\n`,
      );
      break;
    }
    seen.add(person(record));
  }
  let best: { score: number; text: string } | null = null;
  for (const [i, a] of records.entries())
    for (const b of records.slice(i + 1)) {
      if (person(a) === person(b)) continue;
      const result = await engine.call(
        'matching/explain',
        {
          left: { sourceSystem: a.sourceSystem, localId: a.localId },
          right: { sourceSystem: b.sourceSystem, localId: b.localId },
        },
        ctx,
      );
      if (best !== null && result.score <= best.score) continue;
      const bands = result.evidence.map(
        (e) => `${e.field} ${e.band ?? '—'}${e.level === undefined ? '' : `/${e.level}`}`,
      );
      const held = result.limitedBy === undefined ? '' : ` held by ${result.limitedBy}`;
      best = {
        score: result.score,
        text: `${a.localId} ~ ${b.localId}: ${result.score.toFixed(4)} ${result.decision}${held}; ${bands.join(', ')}`,
      };
    }
  process.stdout.write(`  best pair of two people now: ${best?.text ?? '—'}\n`);
}
process.stdout.write(`\nidentities holding two people: ${String(mixed)}\n`);
engine.close();
