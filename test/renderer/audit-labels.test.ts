/** The registry audit's labels on the page: the estimate's request from verdicts, counts per stratum, a saved audit read back. */
import { describe, expect, it } from 'vitest';
import type { AuditSample } from '../../engine/contract/audit.ts';
import {
  auditRequest,
  drawnWithTruth,
  labelledByStratum,
  reopenedAudit,
  truthLabelled,
  withoutTruthVerdicts,
  withTruthVerdicts,
} from '../../renderer/pages/assurance/audit-labels.ts';
import { VERDICTS_CODEC, withVerdict, type KeptVerdict } from '../../renderer/pages/assurance/workbench-labels.ts';

const ref = (localId: string) => ({ sourceSystem: 'clinic', localId });
const sample: AuditSample = {
  matchingProfileVersion: 3,
  strata: [
    { name: 'linked', linked: true, population: 100, sampled: 2 },
    { name: 'far', linked: false, population: 900, sampled: 2 },
  ],
  pairs: [
    { stratum: 'linked', left: ref('a'), right: ref('b') },
    { stratum: 'far', left: ref('c'), right: ref('d') },
    { stratum: 'linked', left: ref('e'), right: ref('f') },
    { stratum: 'far', left: ref('g'), right: ref('h') },
  ],
  candidatePairsCapped: false,
};

describe('the registry audit’s labels', () => {
  it('sends each match and non-match with its pair’s stratum in the sample’s order, leaving out unsure pairs and verdicts of other pairs', () => {
    let verdicts = new Map<string, KeptVerdict>();
    // Given out of order, one with the sides swapped, one unsure, one for a pair not in the sample.
    verdicts = withVerdict(verdicts, { left: ref('h'), right: ref('g') }, 'non-match');
    verdicts = withVerdict(verdicts, { left: ref('a'), right: ref('b') }, 'match');
    verdicts = withVerdict(verdicts, { left: ref('c'), right: ref('d') }, 'unsure');
    verdicts = withVerdict(verdicts, { left: ref('x'), right: ref('y') }, 'match');
    const request = auditRequest(sample, verdicts);
    expect(request.strata).toEqual([
      { name: 'linked', linked: true, population: 100 },
      { name: 'far', linked: false, population: 900 },
    ]);
    expect(request.labels).toEqual([
      { stratum: 'linked', left: ref('a'), right: ref('b'), isMatch: true },
      { stratum: 'far', left: ref('g'), right: ref('h'), isMatch: false },
    ]);
    expect([...labelledByStratum(sample, verdicts)]).toEqual([
      ['linked', 1],
      ['far', 1],
    ]);
  });

  it('reads a saved audit back as its labelled pairs and their verdicts, which give the same request again', () => {
    const request = {
      strata: [
        { name: 'linked' as const, linked: true, population: 100 },
        { name: 'far' as const, linked: false, population: 900 },
      ],
      labels: [
        { stratum: 'far' as const, left: ref('g'), right: ref('h'), isMatch: false },
        { stratum: 'linked' as const, left: ref('a'), right: ref('b'), isMatch: true },
      ],
    };
    const { sample: back, verdicts } = reopenedAudit(request, 7);
    expect(back.matchingProfileVersion).toBe(7);
    expect(back.strata.map((s) => s.sampled)).toEqual([1, 1]);
    expect(auditRequest(back, verdicts)).toEqual(request);
  });

  it('keeps the ground truth’s labels apart from a person’s: said in the request, dropped by a plain draw, the person’s back', () => {
    // A person labelled two pairs (one unsure), then drew the same sample with the ground truth, which knows three.
    let verdicts = new Map<string, KeptVerdict>();
    verdicts = withVerdict(verdicts, { left: ref('a'), right: ref('b') }, 'non-match');
    verdicts = withVerdict(verdicts, { left: ref('c'), right: ref('d') }, 'unsure');
    const byTruth: AuditSample = {
      ...sample,
      pairs: sample.pairs.map((p, i) => (i === 3 ? p : { ...p, isMatch: p.stratum === 'linked' })),
    };
    expect(drawnWithTruth(sample)).toBe(false);
    expect(drawnWithTruth(byTruth)).toBe(true);
    let labelled = withTruthVerdicts(verdicts, byTruth);
    expect(truthLabelled(byTruth, labelled)).toBe(3);
    expect(auditRequest(byTruth, labelled).labels).toEqual([
      { stratum: 'linked', left: ref('a'), right: ref('b'), isMatch: true, fromGroundTruth: true },
      { stratum: 'far', left: ref('c'), right: ref('d'), isMatch: false, fromGroundTruth: true },
      { stratum: 'linked', left: ref('e'), right: ref('f'), isMatch: true, fromGroundTruth: true },
    ]);
    // A person relabels one of them: that label is the person's.
    labelled = withVerdict(labelled, { left: ref('f'), right: ref('e') }, 'non-match');
    expect(truthLabelled(byTruth, labelled)).toBe(2);
    // Kept across a reload with its origin; drawing the truth again keeps the person's first verdict.
    const reloaded = VERDICTS_CODEC.read(JSON.parse(JSON.stringify(VERDICTS_CODEC.write(labelled))));
    expect(reloaded).toEqual(labelled);
    const again = withTruthVerdicts(reloaded ?? new Map(), byTruth);
    // A plain draw: the truth's labels go, the person's verdicts they had replaced come back, the person's own stay.
    const plain = withoutTruthVerdicts(again);
    expect(auditRequest(sample, plain).labels).toEqual([
      { stratum: 'linked', left: ref('a'), right: ref('b'), isMatch: false },
      { stratum: 'linked', left: ref('e'), right: ref('f'), isMatch: false },
    ]);
    expect(plain.get([...plain.keys()].find((k) => k.includes('\u0000c')) ?? '')?.verdict).toBe('unsure');
    expect(truthLabelled(sample, plain)).toBe(0);
    // Without any truth's label, a plain draw keeps the very same map.
    expect(withoutTruthVerdicts(plain)).toBe(plain);
    // A saved audit keeps which labels the truth gave.
    const { verdicts: back } = reopenedAudit(auditRequest(byTruth, labelled), 3);
    expect(truthLabelled(byTruth, back)).toBe(2);
  });
});
