import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { ctx, ndjson, openRegistry, patient } from '../../helpers/registry.ts';
import { driftFlags } from '../../../engine/assurance/health-drift.ts';
import type { HealthSample } from '../../../engine/contract/health.ts';

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
    const p = patient({ id: `h${String(i)}`, mrn: `M${String(i)}`, family: name('Fam', i), given: [name('Giv', i)], birthDate: `19${String(10 + (i % 80))}-0${String(1 + (i % 9))}-1${String(i % 9)}`, line: `${String(i)} High Street`, postalCode: `PO${String(i % 90)} 1AA`, phone: `0239${String(1000000 + i)}` });
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
    ...overrides,
  };
}

describe('health figures and drift', () => {
  it('records every ingest and flags a source that stops sending birth dates on its next ingest, not an unchanged one', async () => {
    const engine = openRegistry(tempDir(), ['t1', 't2']);
    for (let week = 0; week < 4; week++) await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: batch(week * 80, 80, true) }, ctx());
    let health = await engine.call('health/series', {}, ctx());
    expect(health.samples).toHaveLength(4);
    expect(health.samples.map((s) => [s.origin, s.sourceSystem, s.created, s.fieldPresent['birthDate']])).toEqual(Array.from({ length: 4 }, () => ['ingest', 'hospital', 80, 80]));
    expect(health.flags).toEqual([]);

    await engine.call('records/ingest', { sourceSystem: 'hospital', ndjson: batch(400, 80, false) }, ctx());
    health = await engine.call('health/series', {}, ctx());
    // Without birth dates these look-alike test names match far more: the review and auto-link rates move too.
    const flagged = new Map(health.flags.map((f) => [f.metric, f.text]));
    expect(flagged.get('completeness:birthDate')).toMatch(/^hospital: the share of records carrying birthDate fell from 1\.000 to 0\.000/);
    expect([...flagged.keys()].sort()).toEqual(['auto-link-rate', 'completeness:birthDate', 'review-rate']);
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
    expect(driftFlags([week(1, 20), sample({ origin: 'job', jobId: 'job-1', jobKind: 'reconciliation', jobStatus: 'failed' })]).map((f) => f.metric)).toEqual(['job-failed']);
  });
});
