/**
 * The waterfall of a pair's score adds up to the score the scorer gave, for many real pairs of a synthetic
 * sandbox under both score methods (weighted similarity, then a calibrated Fellegi-Sunter model applied as
 * the profile's), with the scorer's precedence and the name-evidence cap.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import {
  holdName,
  holdWhy,
  LIMIT_TEXT,
  scoreRuleText,
  scoreWaterfall,
  TWIN_REASON_NAME,
  TWIN_REASON_TEXT,
  type ScoreBasis,
} from '../../../engine/contract/score-explanation.ts';
import { TwinReasonSchema } from '../../../engine/contract/matching.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import { scoreBasis } from '../../../engine/scoring/score-basis.ts';

const ctx = { tenantId: 'demo', actor: 'test' };

async function expectWaterfallsAddUp(engine: LocalEngine, expectedMethod: string): Promise<number> {
  const { profile } = await engine.call('profile/get', {}, ctx);
  const basis = scoreBasis(profile);
  expect(basis.scoreMethod).toBe(expectedMethod);
  const { pairs } = await engine.call('labels/sample', { maxPairs: 400, seed: 3 }, ctx);
  let checked = 0;
  for (const pair of pairs) {
    const result = await engine.call('matching/explain', { left: pair.left, right: pair.right }, ctx);
    const waterfall = scoreWaterfall(result, basis);
    expect(waterfall, 'the evidence carries what the method needs').not.toBeNull();
    if (waterfall === null) continue;
    expect(waterfall.score).toBeCloseTo(result.score, 12);
    // The steps chain: each starts where the previous ended, one per field in evidence order.
    waterfall.steps.forEach((step, i) => {
      if (i > 0) expect(step.from).toBe(waterfall.steps[i - 1]?.to);
      expect(step.to - step.from).toBeCloseTo(step.delta, 12);
    });
    expect(waterfall.steps.filter((s) => s.kind === 'field').map((s) => s.label)).toEqual([...FIELD_NAMES]);
    if (result.decidedBy === 'score' && result.limitedBy === undefined) {
      const end = waterfall.steps.at(-1)?.to ?? Number.NaN;
      expect(expectedMethod === 'fellegi-sunter' ? 1 / (1 + Math.exp(-end)) : end).toBeCloseTo(result.score, 12);
    }
    checked++;
  }
  return checked;
}

describe('the score waterfall', () => {
  // Since issue 12 every profile carries a Fellegi-Sunter model (the default one unless calibrated), so real
  // pairs are checked under both models; weighted-similarity waterfalls are checked on hand-made evidence below.
  it('adds up to the scorer’s score for hundreds of pairs under the default model and under a calibrated model', async () => {
    const engine = LocalEngine.open({ dbPath: join(tempDir(), 's.db') });
    try {
      await engine.call('sandbox/create', { syntheticPeople: 300, seed: 11 }, ctx);
      expect(await expectWaterfallsAddUp(engine, 'fellegi-sunter')).toBeGreaterThan(300);

      const { pairs } = await engine.call('labels/sample', { maxPairs: 2000, seed: 5 }, ctx);
      const { model } = await engine.call(
        'matching/calibrate',
        {
          datasetId: 'w',
          modelVersion: 'fs-test',
          pairs,
          priorMatchProbability: 0.05,
          smoothing: 1,
          validationFraction: 0.3,
          targetPrecision: 0.95,
        },
        ctx,
      );
      await engine.call('profile/apply', { document: model, reason: 'waterfall test' }, ctx);
      expect(await expectWaterfallsAddUp(engine, 'fellegi-sunter')).toBeGreaterThan(300);

      // The evaluation report carries the basis and the examples' evidence: its waterfalls add up too.
      const report = await engine.call(
        'matching/evaluate',
        { datasetId: 'w', pairs, thresholds: [0.5, 0.99], maximumErrorExamples: 100 },
        ctx,
      );
      expect(report.scoreBasis?.scoreMethod).toBe('fellegi-sunter');
      const examples = [...report.errorExamples.falsePositives, ...report.errorExamples.falseNegatives];
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        if (report.scoreBasis === undefined) throw new Error('no basis');
        expect(scoreWaterfall(example, report.scoreBasis)?.score).toBeCloseTo(example.score, 12);
      }
    } finally {
      engine.close();
    }
  });

  const evidence = (
    similarity: Partial<Record<string, number>>,
    extra: (field: string) => Partial<FieldEvidence>,
  ): FieldEvidence[] =>
    FIELD_NAMES.map((field) => {
      const s = similarity[field];
      return {
        field,
        comparator: s === undefined ? null : 'Exact',
        similarity: s ?? null,
        band: s === undefined ? null : s >= 0.999999 ? 'Exact' : 'Different',
        ...extra(field),
      };
    });

  it('divides by the floor when the fields present weigh less (hand-worked)', () => {
    const basis: ScoreBasis = {
      scoreMethod: 'weighted-similarity',
      minimumEvidenceWeight: 8,
      thresholds: { probable: 0.75, certain: 0.92 },
    };
    // familyName (w 3) agrees, birthDate (w 3) agrees: 6 / max(6, 8) = 0.75.
    const weights: Record<string, number> = { familyName: 3, birthDate: 3 };
    const w = scoreWaterfall(
      {
        score: 0.75,
        decidedBy: 'score',
        evidence: evidence({ familyName: 1, birthDate: 1 }, (f) => ({ weight: weights[f] ?? 1 })),
      },
      basis,
    );
    expect(w?.score).toBe(0.75);
    expect(w?.steps.find((s) => s.label === 'familyName')?.delta).toBe(3 / 8);
    expect(w?.note).toMatch(/below the floor of 8/);
  });

  it('holds a nameless pair to Probable and shows the cap as a step; precedence decides 1 or 0 (hand-worked)', () => {
    const basis: ScoreBasis = {
      scoreMethod: 'fellegi-sunter',
      priorLogOdds: Math.log(0.1 / 0.9),
      thresholds: { probable: 0.75, certain: 0.92 },
    };
    const ll = (field: string): Partial<FieldEvidence> => ({
      logLikelihood: field === 'birthDate' || field === 'postalCode' ? 3 : 0,
    });
    const nameless = evidence({ birthDate: 1, postalCode: 1 }, ll);
    // ln(1/9) + 6 = 3.80278…: probability 0.97816…, above Probable, so held to 0.75.
    const capped = scoreWaterfall(
      { score: 0.75, decidedBy: 'score', limitedBy: 'NoNameEvidence', evidence: nameless },
      basis,
    );
    expect(capped?.methodScore).toBeCloseTo(1 / (1 + Math.exp(-(Math.log(1 / 9) + 6))), 12);
    expect(capped?.score).toBe(0.75);
    expect(capped?.steps.at(-1)).toMatchObject({
      kind: 'cap',
      label: 'No name evidence: held to Probable',
      to: Math.log(0.75 / 0.25),
    });
    // A twin's hold names the rule's case in its step, as the review list does; another rule's names the rule alone.
    const twin = scoreWaterfall(
      { score: 0.75, decidedBy: 'score', limitedBy: 'PossibleTwin', twinReason: 'names-alike', evidence: nameless },
      basis,
    );
    expect(twin?.steps.at(-1)?.label).toBe('Possible twin, names alike: held to Probable');
    expect(holdName('PossibleTwin')).toBe('possible twin');
    expect(holdName('PossibleTwin', null)).toBe('possible twin');
    expect(holdName('NamesOnly', 'names-alike')).toBe('names only');
    // Why it held: the twin case in full where known, the rule's reason otherwise, brief or full as asked.
    expect(holdWhy('PossibleTwin', 'names-alike', 'brief')).toBe(TWIN_REASON_TEXT['names-alike']);
    expect(holdWhy('PossibleTwin', null, 'brief')).toBe(LIMIT_TEXT.PossibleTwin.brief);
    expect(holdWhy('NamesOnly', 'names-alike', 'why')).toBe(LIMIT_TEXT.NamesOnly.why);
    expect(LIMIT_TEXT.NamesOnly.why).not.toBe(LIMIT_TEXT.NamesOnly.brief);
    // Every case has its own few words, so a list can be read by case.
    const names = TwinReasonSchema.options.map((reason) => TWIN_REASON_NAME[reason]);
    expect(new Set(names).size).toBe(TwinReasonSchema.options.length);
    expect(scoreWaterfall({ score: 1, decidedBy: 'trusted-identifier', evidence: nameless }, basis)?.score).toBe(1);
    expect(scoreWaterfall({ score: 0, decidedBy: 'hard-conflict', evidence: nameless }, basis)?.score).toBe(0);
  });

  it('says in words why a score is not what the fields add up to, and says nothing when the fields decide', () => {
    expect(scoreRuleText({ decidedBy: 'score', limitedBy: 'PossibleTwin' }, 0.5)).toBe(
      'The records share family name and birth date (or, with another sex recorded, birth dates a keying error ' +
        'apart; or, for given names that only sound alike or differ in their first sound, birth dates a day apart, ' +
        'as twins born either side of midnight), and their given names leave it open whether they are one person or twins: another given name, ' +
        'one that only sounds alike (Anais and Janis) or differs in its first sound (Emma and Gemma), none or an ' +
        'initial alone (J) on one of them, or the same ' +
        'first name with other ' +
        'middle names at one home (Maria Fernanda and Maria José), with a sex on both records; a newborn’s ' +
        'placeholder ' +
        '(Baby Boy, Twin A) on one of them; or given names that differ at all (Jayden and Jaydon) when both records ' +
        'say a multiple birth; or, with a sex missing on either record, a boy’s and a girl’s form of one given name ' +
        '(Daniel and Danielle, Paul and Paula). Possible twins or household members of one age; shared contact details ' +
        'and family numbers do not tell them apart, so the score is held to the Probable threshold (0.5): such a ' +
        'pair may go to review but is never linked automatically.',
    );
    expect(scoreRuleText({ decidedBy: 'score', limitedBy: 'NoNameEvidence' }, 0.75)).toMatch(
      /^No family or given name was compared on both records, so the score is held to the Probable threshold \(0\.75\)/,
    );
    expect(scoreRuleText({ decidedBy: 'score', limitedBy: 'NamesOnly' }, 0.5)).toMatch(
      /^Only the names tell these records apart: one of them has no birth date, .* so the score is held to the Probable threshold \(0\.5\)/,
    );
    expect(scoreRuleText({ decidedBy: 'trusted-identifier' }, 0.5)).toMatch(/^A trusted identifier is equal/);
    expect(scoreRuleText({ decidedBy: 'hard-conflict' }, 0.5)).toMatch(/^A hard-conflict rule fired/);
    expect(scoreRuleText({ decidedBy: 'score' }, 0.5)).toBeNull();
    // The waterfall's note is the same sentence, and for a rule that decided first, it says what the steps show.
    const nameless = evidence({ birthDate: 1 }, () => ({ logLikelihood: 2 }));
    const basis: ScoreBasis = {
      scoreMethod: 'fellegi-sunter',
      priorLogOdds: 0,
      thresholds: { probable: 0.5, certain: 0.9 },
    };
    expect(
      scoreWaterfall({ score: 0.5, decidedBy: 'score', limitedBy: 'NoNameEvidence', evidence: nameless }, basis)?.note,
    ).toBe(scoreRuleText({ decidedBy: 'score', limitedBy: 'NoNameEvidence' }, 0.5));
    expect(scoreWaterfall({ score: 0, decidedBy: 'hard-conflict', evidence: nameless }, basis)?.note).toBe(
      'A hard-conflict rule fired: the pair is no match (score 0) before any field is weighed. The steps show what the fields alone would give.',
    );
  });

  it('gives no waterfall when the evidence lacks the method’s terms', () => {
    const basis: ScoreBasis = {
      scoreMethod: 'fellegi-sunter',
      priorLogOdds: 0,
      thresholds: { probable: 0.75, certain: 0.92 },
    };
    expect(
      scoreWaterfall(
        { score: 0.5, decidedBy: 'score', evidence: evidence({ familyName: 1 }, () => ({ weight: 3 })) },
        basis,
      ),
    ).toBeNull();
  });
});
