/**
 * The review queue at a registry's size: 250,000 review cases (a flood of 25 per 1,000 records at ten million) over
 * 100,000 identities, a tenth of them changed since their cases were opened. Each figure is one reviews/list call
 * through the engine (median of 9), beside the count of the tenant's waiting cases on their index alone: the least
 * any page must read.
 */
import { openRegistry, ctx } from '../helpers/registry.ts';
import { scratchDir } from '../helpers/temp.ts';
import { medianMs } from './measure.ts';
import type { BenchRow } from './rows.ts';
import { TwinReasonSchema } from '../../engine/contract/matching.ts';

const CASES = 250_000;
const IDENTITIES = 100_000;
const RUNS = 9;

export async function benchReviews(): Promise<BenchRow[]> {
  const scratch = scratchDir('reviews-bench-');
  const engine = openRegistry(scratch.dir);
  const { store } = engine.env;
  store.write(() => {
    store.exec(`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${String(IDENTITIES)})
      INSERT INTO identity (identity_id, tenant_id, enterprise_id, logical_version, canonical_json, status, created_at, updated_at)
      SELECT i, 't1', 'E-' || i, 1, '{}', 'active', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM k`);
    store.exec(`WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${String(CASES)})
      INSERT INTO review_case (tenant_id, case_id, kind, left_identity_id, left_version, right_identity_id, right_version,
        profile_version, score, decision, evidence_json, status, created_at, job_id, source_system, limited_by, held_from,
        twin_reason)
      SELECT 't1', printf('rc-%032d', i), CASE i % 5 WHEN 0 THEN 'PopulationReconciliation' ELSE 'IngestionMatch' END,
        1 + (i * 7919) % (${String(IDENTITIES)} - 60), 1, 1 + (i * 7919) % (${String(IDENTITIES)} - 60) + 1 + i % 50, 1,
        1, 0.5 + ((i * 37) % 400) / 1000.0, 'probable', '[]',
        CASE WHEN i % 7 = 0 THEN 'dismissed' WHEN i % 11 = 0 THEN 'resolved' ELSE 'open' END,
        strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (i * 13) || ' seconds'),
        'job-' || (i / 5000), CASE i % 3 WHEN 0 THEN 'st-marys-hospital' WHEN 1 THEN 'northside-gp' ELSE NULL END,
        CASE WHEN i % 4 = 0 THEN 'PossibleTwin' WHEN i % 101 = 1 THEN 'MiddleNameConflict' END,
        CASE WHEN i % 4 = 0 OR i % 101 = 1 THEN 0.9 END,
        CASE WHEN i % 4 = 0 THEN json_extract('${JSON.stringify(TwinReasonSchema.options)}', '$[' || ((i / 4) % ${String(TwinReasonSchema.options.length)}) || ']') END
      FROM k`);
    // Each decided case's decision: one person for two in three.
    store.exec(`INSERT INTO review_decision (tenant_id, case_id, seq, decision, reason, actor, decided_at)
      SELECT tenant_id, case_id, 1, CASE WHEN rowid % 3 = 0 THEN 'different-people' ELSE 'same-person' END, 'bench',
        'bench', created_at FROM review_case WHERE tenant_id = 't1' AND status = 'resolved'`);
    // A tenth of the identities changed since their cases were opened.
    store.exec(`UPDATE identity SET logical_version = 2 WHERE tenant_id = 't1' AND identity_id % 10 = 0`);
  });
  const list = (input: Record<string, unknown>) => () => engine.call('reviews/list', input, ctx());
  const floor = await medianMs(
    () => store.statement("SELECT count(*) FROM review_case WHERE tenant_id = 't1' AND status = 'open'").pluck().get(),
    RUNS,
  );
  const figures: [string, () => unknown][] = [
    ["review queue: a page, oldest first (the page's default)", list({})],
    [
      'review queue: the cases decidable now, counted (read on every list and case page)',
      list({ currentOnly: true, limit: 1 }),
    ],
    ['review queue: the next decidable case (read on every case page)', list({ currentOnly: true, limit: 50 })],
    ['review queue: a page, highest score first', list({ sort: 'score-high' })],
    ['review queue: a page of every case, newest first', list({ status: 'all', sort: 'newest' })],
    ['review queue: page 2,000, oldest first', list({ offset: 100_000 })],
    // Held by: a quarter of the cases are possible twins, each case of the twin rule a ninth of them; one in a
    // hundred is held for its middle names.
    [
      'review queue: a page of one twin case (a 36th of the cases), oldest first',
      list({ limitedBy: 'PossibleTwin', twinReason: 'middle-names' }),
    ],
    ['review queue: a page of a rare hold (1 case in 101), oldest first', list({ limitedBy: 'MiddleNameConflict' })],
    [
      'review queue: a page of the cases no rule held, lowest score first',
      list({ limitedBy: 'none', sort: 'score-low' }),
    ],
    // The list page's own request: its page and the count of every hold's cases, for the Held by choices.
    ["review queue: a page with every hold's cases counted (the page's request)", list({ withHolds: true })],
    [
      "review queue: the cases decidable now, with every hold's cases counted",
      list({ currentOnly: true, withHolds: true }),
    ],
    // The Health page's flag: one source's ingestion cases opened since its ingest before (here the last day of the
    // 38 the cases span), newest first, with the holds counted, as the page asks.
    [
      "review queue: one source's cases of its latest ingest (the last day's), newest first, holds counted",
      list({
        kind: 'IngestionMatch',
        sourceSystem: 'northside-gp',
        openedAfter: '2026-02-06T00:00:00.000Z',
        sort: 'newest',
        withHolds: true,
      }),
    ],
    // Decided cases: the page with each hold's cases counted and how many were one person (a twelfth of the cases).
    [
      "review queue: a page of decided cases, with every hold's decisions counted",
      list({ status: 'resolved', withHolds: true }),
    ],
  ];
  const rows: BenchRow[] = [];
  for (const [name, call] of figures) {
    rows.push({
      name,
      value: await medianMs(call, RUNS),
      unit: 'ms',
      ceiling: floor,
      ceilingName: 'count of the waiting cases on their index',
      note: `${CASES.toLocaleString('en')} cases, ${IDENTITIES.toLocaleString('en')} identities`,
    });
  }
  engine.close();
  scratch.cleanup();
  return rows;
}
