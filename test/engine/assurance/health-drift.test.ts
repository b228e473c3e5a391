import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { driftFlags } from '../../../engine/assurance/health-drift.ts';
import type { HealthSample, MatchingFigures } from '../../../engine/contract/health.ts';
import { SCORE_BAND_EDGES } from '../../../engine/contract/score-bands.ts';
import { activeProfile } from '../../../engine/store/profiles.ts';
import { MaintenanceSettingsSchema } from '../../../engine/config/maintenance.ts';
import { runWorker } from '../../../engine/jobs/worker.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { SYNTHETIC_SOURCES } from '../../../engine/synthetic/sources.ts';
import { join } from 'node:path';

/** A letters-only name for person i (distinct people, no shared names by accident). */
function name(prefix: string, i: number): string {
  let s = '';
  let n = i + 26;
  while (n > 0) {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  }
  return prefix + s;
}

function batch(from: number, count: number, withBirthDate: boolean): string {
  const people = Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const p = patient({
      id: `h${String(i)}`,
      mrn: `M${String(i)}`,
      family: name('Fam', i),
      given: [name('Giv', i)],
      birthDate: `19${String(10 + (i % 80))}-0${String(1 + (i % 9))}-1${String(i % 9)}`,
      line: `${String(i)} High Street`,
      postalCode: `PO${String(i % 90)} 1AA`,
      phone: `0239${String(1000000 + i)}`,
    });
    if (!withBirthDate) delete (p as { birthDate?: string }).birthDate;
    return p;
  });
  return ndjson(...people);
}

function sample(overrides: Partial<HealthSample>): HealthSample {
  return {
    at: '2026-11-01T00:00:00Z',
    origin: 'ingest',
    sourceSystem: 'hospital',
    jobId: null,
    jobKind: null,
    jobStatus: null,
    profileVersion: 1,
    records: 1000,
    created: 1000,
    autoLinked: 300,
    reviewCases: 20,
    rejected: 0,
    fieldPresent: { birthDate: 990, familyName: 1000 },
    durationMs: 1000,
    matching: null,
    identitySizes: null,
    ...overrides,
  };
}

describe('health figures and drift', () => {
  it('records every ingest and flags a source that stops sending birth dates on its next ingest, not an unchanged one', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    for (let week = 0; week < 4; week++)
      await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: batch(week * 80, 80, true) }, ctx());
    let health = await engine.call('health/series', {}, ctx());
    expect(health.samples).toHaveLength(4);
    expect(health.samples.map((s) => [s.origin, s.sourceSystem, s.created, s.fieldPresent['birthDate']])).toEqual(
      Array.from({ length: 4 }, () => ['ingest', 'hospital', 80, 80]),
    );
    expect(health.flags).toEqual([]);

    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: batch(400, 80, false) }, ctx());
    health = await engine.call('health/series', {}, ctx());
    // Without birth dates these look-alike test names match far more: the review and auto-link rates move too, more
    // compared pairs score high, and the share of records whose candidates hit the cap moves (here it falls).
    const flagged = new Map(health.flags.map((f) => [f.metric, f.text]));
    expect(flagged.get('completeness:birthDate')).toMatch(
      /^hospital: the share of records with birth date filled in fell from 100\.0% to 0\.0% \(z -\d+\.\d\)$/,
    );
    // Each flag says what to do about it, in the direction it moved.
    const advice = new Map(health.flags.map((f) => [f.metric, f.advice]));
    expect(advice.get('completeness:birthDate')).toBe(
      'The source sends birth date on fewer records: ask it whether its extract or mapping changed; matching leans on the other fields meanwhile.',
    );
    // 1,762.5 since 2026-12-02: given names that only sound alike (such as "givbd" and "givpt") are held as possible
    // twins (scoring/possible-twin.ts), so three of these records are no longer linked to another person, and one more
    // case opens (141, not 140). 1,812.5 since 2026-12-05: a record without a birth date certain against two identities
    // born a generation apart is linked to neither (ingest/identities-apart.ts), and four more cases open (145).
    expect(flagged.get('review-rate')).toMatch(
      /^hospital: the review cases per 1,000 records created rose from 25\.0 to 1,812\.5 \(z \d+\.\d\)$/,
    );
    expect(advice.get('review-rate')).toMatch(/^Open the cases this ingest opened/);
    expect(health.flags.every((f) => (f.advice ?? '').length > 0)).toBe(true);
    expect([...flagged.keys()].sort()).toEqual([
      'auto-link-rate',
      'capped',
      'completeness:birthDate',
      'high-scores',
      'review-rate',
    ]);
    // What matching met is recorded with each ingest: every compared pair in one score band, every blocking rule named.
    for (const s of health.samples) {
      if (s.matching === null) throw new Error('an ingest without its matching figures');
      expect(s.matching.scoreBands).toHaveLength(SCORE_BAND_EDGES.length + 1);
      expect(s.matching.scoreBands.reduce((a, b) => a + b, 0)).toBe(s.matching.comparedPairs);
      expect(Object.keys(s.matching.rules).sort()).toEqual(
        activeProfile(engine.env.store, 't1')
          .profile.Blocking.Rules.map((r) => r.Name)
          .sort(),
      );
      expect(s.identitySizes).toBeNull();
      // The review cases it opened, counted by what held them: every case once.
      expect(Object.values(s.reviewHolds ?? {}).reduce((a, b) => a + b, 0)).toBe(s.reviewCases);
    }
    // Without birth dates, pairs that only their names tell apart are held (names only); before, none was.
    expect(health.samples.map((s) => s.reviewHolds?.['NamesOnly'] ?? 0)).toEqual([0, 0, 0, 0, 55]);
    // Another tenant sees none of it.
    expect(await engine.call('health/series', {}, ctx('t2'))).toMatchObject({ samples: [], flags: [] });
    engine.close();
  });

  it('flags a review rate that doubles under a new profile version, and not the same rate, nor a small wobble', () => {
    const week = (v: number, reviews: number): HealthSample => sample({ profileVersion: v, reviewCases: reviews });
    expect(driftFlags([week(1, 20), week(1, 22), week(1, 19), week(1, 21)])).toEqual([]);
    const doubled = driftFlags([week(1, 20), week(1, 22), week(1, 19), week(2, 44)]);
    expect(doubled.map((f) => f.metric)).toEqual(['review-rate']);
    expect(doubled[0]?.latest).toBeCloseTo(0.044, 9);
    // Under the new version, later weeks are compared with that version's own: the doubled rate is the new normal.
    expect(driftFlags([week(1, 20), week(1, 22), week(2, 44), week(2, 42)])).toEqual([]);
    // A failed job is always said.
    expect(
      driftFlags([
        week(1, 20),
        sample({ origin: 'job', jobId: 'job-1', jobKind: 'reconciliation', jobStatus: 'failed' }),
      ]).map((f) => f.metric),
    ).toEqual(['job-failed']);
    // A review rate that halves says so, with the advice for a fall, not a rise.
    const halved = driftFlags([week(1, 40), week(1, 42), week(1, 41), week(1, 12)]);
    expect(halved.map((f) => [f.metric, f.text])).toEqual([
      [
        'review-rate',
        expect.stringMatching(
          /^hospital: the review cases per 1,000 records created fell from 41\.0 to 12\.0 \(z -\d\.\d\)$/,
        ),
      ],
    ]);
    expect(halved[0]?.advice).toMatch(/^Fewer cases can mean/);
  });

  it('flags a blocking rule whose candidates explode against the ingest before, not a steady or a falling one', () => {
    const matching = (candidates: number, capped = 10): MatchingFigures => ({
      comparedPairs: 4000,
      scoreBands: [3000, 500, 200, 100, 50, 50, 50, 50],
      capped,
      rules: { 'name-birth': { candidates, overCap: 0 }, phone: { candidates: 300, overCap: 0 } },
    });
    const week = (candidates: number, capped?: number): HealthSample =>
      sample({ matching: matching(candidates, capped) });
    expect(driftFlags([week(3000), week(3200), week(3100)])).toEqual([]);
    const exploded = driftFlags([week(3000), week(3100), week(12_000)]);
    expect(exploded.map((f) => f.metric)).toEqual(['candidates:name-birth']);
    expect(exploded[0]?.text).toBe(
      'hospital: blocking rule name-birth found 12.0 candidates per record, against 3.1 on the ingest before (×3.9)',
    );
    expect(exploded[0]?.advice).toMatch(/^A value that blocking rule name-birth keys on has become common/);
    // Compared with the ingest just before, not the pool: a registry that grew steadily is not flagged.
    expect(driftFlags([week(500), week(1000), week(2000), week(3500)])).toEqual([]);
    expect(driftFlags([week(3000), week(3100), week(600)])).toEqual([]);
    // Candidates hitting the cap on far more records.
    expect(driftFlags([week(3000, 10), week(3000, 12), week(3000, 200)]).map((f) => f.metric)).toEqual(['capped']);
  });

  it('flags identities of 5 or more records growing between two registry snapshots', () => {
    const snapshot = (sizes: number[], origin: 'job' | 'daily' = 'daily'): HealthSample =>
      sample({ origin, sourceSystem: null, jobStatus: origin === 'job' ? 'completed' : null, identitySizes: sizes });
    expect(
      driftFlags([snapshot([8000, 1500, 300, 100, 60, 5]), snapshot([8100, 1510, 300, 100, 61, 5], 'job')]),
    ).toEqual([]);
    const grown = driftFlags([snapshot([8000, 1500, 300, 100, 60, 5]), snapshot([7000, 1500, 300, 100, 900, 200])]);
    expect(grown.map((f) => f.metric)).toEqual(['large-identities']);
    expect(grown[0]?.text).toMatch(
      /^registry: the share of identities with 5 or more records rose from 0\.7% to 11\.0% \(z \d+\.\d\)$/,
    );
    expect(grown[0]?.advice).toMatch(
      /^More identities hold 5 or more records, a sign of wrong links: scan link quality/,
    );
  });

  it("records a synthetic sandbox's load as each source's first ingest, with the figures a separate ingest would give", async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    const sandbox = { tenantId: 'demo', actor: 'test' };
    const created = await engine.call('sandbox/create', { syntheticPeople: 300, seed: 3 }, sandbox);
    const health = await engine.call('health/series', {}, sandbox);
    expect(health.samples.map((s) => [s.origin, s.sourceSystem])).toEqual(
      created.ingest.map((report) => ['ingest', report.sourceSystem]),
    );
    expect(health.samples).toHaveLength(SYNTHETIC_SOURCES.length);
    const { store } = engine.env;
    for (const report of created.ingest) {
      const source = health.samples.find((s) => s.sourceSystem === report.sourceSystem);
      expect(source).toMatchObject({
        records: report.lines,
        created: report.created,
        autoLinked: report.autoLinked,
        reviewCases: report.reviewCasesCreated,
        rejected: 0,
        profileVersion: created.matchingProfileVersion,
      });
      // Completeness counted from the records written: every synthetic record has a family name.
      const stored = store
        .statement(
          "SELECT count(*) FROM source_record WHERE tenant_id = 'demo' AND source_system = ? AND json_extract(fields_json, '$.birthDate') IS NOT NULL",
        )
        .pluck()
        .get(report.sourceSystem);
      expect(source?.fieldPresent['familyName']).toBe(report.created);
      expect(source?.fieldPresent['birthDate']).toBe(stored);
      expect(source?.matching?.comparedPairs).toBeGreaterThan(0);
      expect(source?.durationMs).toBeGreaterThan(0);
    }
    expect(health.flags).toEqual([]);
    engine.close();
  });

  it('takes a daily sample of a quiet registry once a day: its records and identities by size', async () => {
    const engine = openRegistry(tempDir(), ['t1']);
    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: batch(0, 60, true) }, ctx());
    const work = { tenants: ['t1'], once: true, maintenance: MaintenanceSettingsSchema.parse({}) };
    await runWorker(engine.env, work);
    await runWorker(engine.env, work);
    const health = await engine.call('health/series', {}, ctx());
    const daily = health.samples.filter((s) => s.origin === 'daily');
    expect(daily).toHaveLength(1);
    expect(daily[0]?.records).toBe(60);
    // 60 distinct people: 60 identities of one record.
    expect(daily[0]?.identitySizes).toEqual([60, 0, 0, 0, 0, 0]);
    engine.close();
  });
});
