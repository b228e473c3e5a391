/**
 * How well the link-quality report's order puts identities of two people first, on a registry linked too loosely on
 * purpose (docs/assurance.md, "most doubtful first"):
 *
 *   node --import tsx test/bench/link-order-worker.ts DIR CERTAIN PROBABLE
 *
 * DIR holds the scale bench's generated records and their truth (`test/bench/ingest-worker.ts generate DIR N`). The
 * records are ingested into DIR/loose-CERTAIN-PROBABLE.db under the sandbox profile with those thresholds (once;
 * later runs reuse the file), the sandbox profile is applied again, and the scan runs under it, writing nothing. It
 * prints one JSON line: flagged, of them holding two people, the same by flags, and how many of the first 10, 25 and
 * 50 listed hold two people.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LocalEngine } from '../../engine/local-engine.ts';
import { createTenant, sandboxProfile } from '../../engine/operations/sandbox.ts';
import { ingestStream } from '../../engine/operations/ingest.ts';
import { withTenant } from '../../engine/store/tenant-scope.ts';
import { personByRecord, readTruth, recordKey } from './truth-file.ts';

const [dir = '', certain = '0.5', probable = '0.3'] = process.argv.slice(2);
const dbPath = join(dir, `loose-${certain}-${probable}.db`);
const fresh = !existsSync(dbPath);
const engine = LocalEngine.open({ dbPath });
const ctx = { tenantId: 'bench', actor: 'bench' };
if (fresh) {
  const profile = sandboxProfile();
  const loose = {
    ...profile,
    MatchingRules: { ...profile.MatchingRules, Thresholds: { Certain: Number(certain), Probable: Number(probable) } },
  };
  withTenant('bench', () => createTenant(engine.env, ctx, loose));
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()) {
    await withTenant('bench', () =>
      ingestStream(engine.env, ctx, file.replace(/\.ndjson$/, ''), createReadStream(join(dir, file)), () => undefined),
    );
  }
  await engine.call('profile/apply', { document: sandboxProfile(), reason: 'the sandbox thresholds again' }, ctx);
}

const person = personByRecord(readTruth(dir));
const report = await engine.call('links/scan', { maxListed: 10_000, openCases: false }, ctx);
engine.close();
const twoPeople = report.identities.map(
  (identity) => new Set(identity.records.map((r) => person.get(recordKey(r.sourceSystem, r.localId)) ?? '?')).size > 1,
);
const byFlags: Record<string, { flagged: number; twoPeople: number }> = {};
report.identities.forEach((identity, i) => {
  const entry = (byFlags[identity.flags.join('+')] ??= { flagged: 0, twoPeople: 0 });
  entry.flagged++;
  if (twoPeople[i] === true) entry.twoPeople++;
});
const firstHolding = (n: number): number => twoPeople.slice(0, n).filter(Boolean).length;
process.stdout.write(
  JSON.stringify({
    thresholds: { certain: Number(certain), probable: Number(probable) },
    flagged: report.flagged,
    twoPeople: twoPeople.filter(Boolean).length,
    byFlags,
    firstTen: firstHolding(10),
    first25: firstHolding(25),
    first50: firstHolding(50),
  }) + '\n',
);
