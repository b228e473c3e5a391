/**
 * Quality floors on generated extracts (issue 22): names and birth dates only, with typical and with heavy errors,
 * and every field with heavy errors. Each set is matched three ways end to end: the default profile; no labels
 * (the estimate applied with its suggested thresholds to a fresh tenant, as `estimate --with-thresholds` writes
 * it); the floors sit a little below the figures measured on 2026-11-28 (docs/matching.md, "Matching quality").
 *
 *                        default F1 (P), reviews / 1,000 (share joining a true pair)   no labels F1 (P), reviews / 1,000 (share)
 *   names-dates          0.8655 (0.9979), 18.0 (0.70)                                0.8655 (0.9979), 18.0 (0.70), fallback
 *   names-dates-heavy    0.5180 (1.0000), 26.5 (0.74)                                0.5550 (1.0000), 16.1
 *   heavy-typos          0.9822 (1.0000),  2.6 (0.96)                                0.9860 (1.0000),  2.0
 *   names-dates-common   0.8223 (0.9977), 22.5 (0.71)                                the same, fallback (2026-12-06: links-kept)
 *
 * heavy-typos on 2026-12-03, since a given name missing on one record leaves twins possible (scoring/possible-twin.ts):
 * 0.9621 (1.0000), 6.0 (0.98) by default and 0.9660 (1.0000), 5.4 without labels. The generator drops a duplicate's
 * given name at about 6% and gives twins no home in common, so the 33 pairs now held (every one a true pair) measure
 * the rule's cost and none of its gain.
 *
 * (On 2026-11-27, before an exact name's weight was capped at ln(m/p(v)): 0.8767 (0.9970), 24.2 (0.50);
 * 0.5393, 32.5 (0.63) and 0.5575 without labels; 0.9835, 2.5 (0.96).)
 *
 * Since 2026-11-27 a pair that agrees on its names alone (one record without a birth date, no address line, postcode,
 * phone, e-mail or identifier agreeing) goes to review (scorer.ts namesOnly): on names-dates 70 true pairs and 8 of
 * two people took that shape, and the default linked them all (F1 0.8951, precision 0.9951 before).
 *
 * Names and birth dates only stay short of issue 22's 0.97: blocking finds 93% of the true pairs (67% with heavy
 * errors; 88% before the month-and-day rules of 2026-11-26), and this generator's duplicates carry an error in a
 * name or the birth date far more often than a registry's (exact agreement 0.61 per field among true pairs). Without
 * labels the estimate's fit there takes half the true pairs for non-matches (it promises 59 pairs agreeing exactly
 * on full name and birth date where the candidates hold 130), so its anchor-consistent check fails and it falls back
 * to the default model: the same F1 as the default (0.037 below before the check looked that way, 0.012 below while
 * the fallback kept the u of the tenant's random pairs). Before twins without a sex stopped counting the family name
 * (2026-11-26), the default linked them: precision 0.85.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.ts';
import { LocalEngine } from '../../../engine/local-engine.ts';
import { QUALITY_EXTRACTS } from '../../../engine/benchmark/extracts.ts';
import { estimateRun, extractLoader } from '../../../engine/benchmark/estimate-run.ts';
import { populationQuality, type PopulationQuality } from '../../../engine/benchmark/population-quality.ts';

async function measure(
  name: keyof typeof QUALITY_EXTRACTS,
): Promise<{ byDefault: PopulationQuality; noLabels: PopulationQuality; fitted: boolean; failedChecks: string[] }> {
  const engine = LocalEngine.open({ dbPath: join(tempDir(), `${name}.db`) });
  const data = await extractLoader(engine, QUALITY_EXTRACTS[name]);
  const ctx = { tenantId: `${name}-default`, actor: 'test' };
  const { truth } = await data.load(ctx, data.profile);
  const byDefault = await populationQuality(engine, ctx, truth);
  // The estimate runs in the tenant just measured, as an analyst's would: the same records, loaded once.
  const run = await estimateRun(engine, name, data, ['suggested'], ctx);
  const noLabels = run.rematched.suggested?.population;
  engine.close();
  if (noLabels === undefined) throw new Error('no re-matched population');
  return {
    byDefault,
    noLabels,
    fitted: run.report.fit?.status === 'fitted',
    failedChecks: (run.report.fit?.checks ?? []).filter((c) => !c.passed).map((c) => c.check),
  };
}

/**
 * Each test takes 8 to 26 s on the machine its figures were measured on. The limit only catches a hang: a CI
 * machine once took more than 240 s over the ten-records-a-person set (2026-12-01), nine times its time here.
 */
const LIMIT_MS = 480_000;

const perThousand = (q: PopulationQuality): number => (1000 * q.reviewCases) / q.records;

describe('matching quality on generated extracts, default and without labels', { timeout: LIMIT_MS }, () => {
  it('names and birth dates only: precise by default and without labels, with a review queue a team can staff', async () => {
    const { byDefault, noLabels, fitted } = await measure('names-dates');
    // 0.8767 since a pair agreeing on names alone goes to review (2026-11-27): precision 0.9951 before, 0.9970 after.
    // 0.8655 since an exact name never weighs more than ln(m/p(v)) (2026-11-28): this extract's given names are
    // more alike than the default u supposes; precision 0.9979, 18.0 review cases per 1,000 (24.2), 70% of them
    // joining a true pair (50%).
    expect(byDefault.autoLinks.f1).toBeGreaterThanOrEqual(0.86);
    expect(byDefault.autoLinks.precision).toBeGreaterThanOrEqual(0.997);
    expect(perThousand(byDefault)).toBeLessThanOrEqual(30);
    expect(byDefault.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.3 * byDefault.reviewCases);
    // The fit undercounts the true pairs and says so, and its fallback is the default model (module comment).
    expect(fitted).toBe(false);
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual((byDefault.autoLinks.f1 ?? 0) - 0.01);
    expect(noLabels.autoLinks.precision).toBeGreaterThanOrEqual(0.99);
    expect(perThousand(noLabels)).toBeLessThanOrEqual(30);
    expect(noLabels.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.3 * noLabels.reviewCases);
  });

  it('names and birth dates with heavy errors: no labels is never worse than the default', async () => {
    const { byDefault, noLabels } = await measure('names-dates-heavy');
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual((byDefault.autoLinks.f1 ?? 0) - 0.01);
    expect(noLabels.autoLinks.precision).toBeGreaterThanOrEqual(0.99);
    expect(perThousand(noLabels)).toBeLessThanOrEqual(30);
  });

  it('names and birth dates among a few common names: a fit that would only take links away falls back', async () => {
    // 2026-12-06: the fit passed every other check and, applied with its suggested thresholds, linked at F1 0.7820
    // against the default's 0.8223 (P 0.9975 and 0.9977): it would have unmade 68 of the profile's 873 links among
    // the candidates and made none (links-kept.ts). Now it falls back, and links as the default does.
    const { byDefault, noLabels, fitted, failedChecks } = await measure('names-dates-common');
    expect(fitted).toBe(false);
    expect(failedChecks).toEqual(['links-kept']);
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual((byDefault.autoLinks.f1 ?? 0) - 0.01);
    expect(noLabels.autoLinks.precision).toBeGreaterThanOrEqual(0.99);
    expect(perThousand(noLabels)).toBeLessThanOrEqual(30);
  });

  it('every field, heavy errors: F1 at least 0.96 without labels, at most 60 review cases per 1,000', async () => {
    const { byDefault, noLabels, fitted } = await measure('heavy-typos');
    expect(fitted).toBe(true);
    // 0.98 until a missing given name became a possible twin's (module comment); issue 22 asks 0.87.
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual(0.96);
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual((byDefault.autoLinks.f1 ?? 0) - 0.01);
    expect(perThousand(noLabels)).toBeLessThanOrEqual(60);
  });

  it('names and birth dates, about ten records a person: the fit converges, links more and floods review less than the default', async () => {
    // 2026-11-30: default F1 0.7849 (P 0.9960), 162.2 review cases per 1,000; without labels 0.8607 (P 0.9973),
    // 58.6 per 1,000. Before the sessions' EM was accelerated (SQUAREM) six of them stopped at 1,000 iterations with
    // the likelihood still rising, the fit failed its converged check and fell back to the default.
    const { byDefault, noLabels, fitted } = await measure('names-dates-many');
    expect(fitted).toBe(true);
    expect(noLabels.autoLinks.f1).toBeGreaterThanOrEqual((byDefault.autoLinks.f1 ?? 0) + 0.05);
    expect(noLabels.autoLinks.precision).toBeGreaterThanOrEqual(0.995);
    expect(perThousand(noLabels)).toBeLessThanOrEqual(0.5 * perThousand(byDefault));
    expect(noLabels.reviewCasesJoiningTruePair).toBeGreaterThanOrEqual(0.9 * noLabels.reviewCases);
  });
});
