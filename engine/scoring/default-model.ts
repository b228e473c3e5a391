/**
 * The default Fellegi-Sunter model: the probabilities a new tenant starts with, before it has labels to
 * calibrate on. Fellegi & Sunter (1969) weights ln(m/u) per field and band, with
 *
 *   m = P(band | the two records are one person)    how often a field goes wrong between two records of one
 *                                                   person (typing, transcription, a move, a marriage)
 *   u = P(band | two records picked at random)       how often two different people agree by chance, which
 *                                                   follows from how values are spread in a population
 *
 * and a prior P(match) for two records picked at random. So a field that disagrees counts against a match
 * (ln(m/u) < 0 for the Different band), a field that agrees counts for it by how rare chance agreement is
 * (a birth date far more than a sex), and a missing field counts 0. Random-pair u and a random-pair prior
 * give the right posterior for blocking candidates too: blocking selects pairs by the same field values the
 * model conditions on.
 *
 * Where the values come from (rounded, and on the cautious side where populations differ):
 *  - u of birth date: ages spread over ~80 years, so two people share a date by chance about 1 in 365 × 80
 *    (3.4e-5); one digit or a day/month swap away from another date: about 40 of the 29,000 dates (1.2e-3);
 *    the same month or within a year: about 2 of 80 years (1.9e-2).
 *  - u of names: the sum of squared name frequencies (Σ p², the chance two random people share a name), about
 *    2e-3 for family and 4e-3 for given names in English-speaking populations; Jaro-Winkler ≥ 0.85 between
 *    different names about as often; 0.5–0.85 between random names is common (≈ 0.35–0.4).
 *  - u of postcode, city, state: a registry serves a region, so people share a city or state far more often
 *    than across a country: 0.05 and 0.5 (cautious: a shared city or state is weak evidence).
 *  - u of address, phone, e-mail, identifiers: shared by a household at most, so chance agreement is rare;
 *    near misses of identifiers are kept frequent (1e-2, 0.1) because local record numbers are often
 *    sequential, and one-edit neighbours of a sequential number are other patients.
 *  - m: exact agreement 0.85–0.95 for fields copied between systems; a few per cent for each level of error
 *    (the error rates of registry data reported by Christen, "Data Matching", 2012, ch. 2, and the
 *    corruption rates of the Febrl and synthetic generators); address, phone and e-mail change when people
 *    move, so they disagree more often between records of one person (m of Different 0.08–0.15). A birth date's
 *    keying errors (a digit, two adjacent digits, day and month swapped) are its commonest: m of Strong 0.06. At
 *    0.03 (before 2026-11-26) the generated names-and-dates extract sent its true pairs with a mistyped year and
 *    a misspelt name to review; 0.06 links more of them (F1 0.886 → 0.892, precision 0.993 → 0.992; FEBRL unchanged).
 * Checked against the band frequencies of true and random pairs on FEBRL 4 and the synthetic population
 * (the tuning sets), then measured unchanged on FEBRL 3, 2 and 1 (docs/matching.md, "Matching quality").
 *
 * The prior is P(match) for two records picked at random: about (duplicate pairs) / (N² / 2). 1e-4 is a
 * registry of 10,000–20,000 records with about one duplicate pair per two records (FEBRL 4: 1.0e-4, FEBRL 3:
 * 5.2e-4, the synthetic population: 5e-5). 1e-5 linked 1% fewer true pairs on FEBRL 4 and 3 (more review
 * cases) with no gain in precision. A registry of N records should use about N_dup / (N² / 2): ten times
 * the records, a tenth of the prior (each tenfold is −2.3 in log-odds). So the model names the registry size its
 * prior was set for (priorRecords, 20,000: both tuning sets lie within it), and the live scorer lowers the prior in
 * proportion beyond it (fellegi-sunter.ts registryPrior). Held at 1e-4, it linked 629 wrong record pairs in the
 * scale bench's registry of a million records (precision 0.99915; 2 at 100k): there a full given name and birth
 * date with a partly similar family name ("guillermo halvorson" and "guillermo hyatt", one birth date) scored 0.997,
 * since at that size several people share a given name and a birth date by chance. Calibration, or the tenant's
 * own estimate, replaces the whole model with its own prior.
 */
import { BANDS, type Band, type FieldName } from '../contract/fields.ts';
import type { FellegiSunterModel } from '../contract/profile.ts';

export const DEFAULT_MODEL_VERSION = 'default-fs-2';
export const DEFAULT_PRIOR = 1e-4;
/** The registry size DEFAULT_PRIOR was set for (FellegiSunterModel.priorRecords). */
export const DEFAULT_PRIOR_RECORDS = 20_000;
/** SHA-256 of the empty dataset: the default model was fitted to no tenant's labels. */
const EMPTY_DATASET_DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** A band a field's comparator never produces (e.g. Strong for sex): equal m and u, so ln(m/u) = 0. */
const UNREACHABLE = 1e-6;

type Three = readonly [exact: number, strong: number, partial: number];

/** Band probabilities with Different as the remainder, so they sum to 1. */
function bands([exact, strong, partial]: Three): Record<Band, number> {
  return { Exact: exact, Strong: strong, Partial: partial, Different: 1 - exact - strong - partial };
}

const U = UNREACHABLE;
const STARTING_VALUES: Readonly<Record<FieldName, { m: Three; u: Three }>> = {
  familyName: { m: [0.85, 0.1, 0.03], u: [2e-3, 3e-3, 0.35] },
  givenName: { m: [0.85, 0.1, 0.03], u: [4e-3, 5e-3, 0.39] },
  birthDate: { m: [0.91, 0.06, 0.01], u: [3.4e-5, 1.2e-3, 1.9e-2] },
  sex: { m: [0.98, U, U], u: [0.5, U, U] },
  addressLine: { m: [0.6, 0.2, 0.12], u: [1e-4, 5e-4, 5e-3] },
  city: { m: [0.85, 0.07, 0.03], u: [0.05, 0.01, 0.4] },
  state: { m: [0.95, U, U], u: [0.5, U, U] },
  postalCode: { m: [0.85, 0.08, 0.02], u: [2e-3, 1.5e-2, 5e-3] },
  phone: { m: [0.8, 0.05, 0.02], u: [1e-4, 1e-4, 1e-3] },
  email: { m: [0.85, U, U], u: [1e-5, U, U] },
  identifier: { m: [0.9, 0.05, 0.01], u: [1e-6, 1e-2, 0.1] },
};

export function defaultModel(comparatorVersion: string): FellegiSunterModel {
  const fields: FellegiSunterModel['fields'] = {};
  for (const [field, values] of Object.entries(STARTING_VALUES) as [FieldName, { m: Three; u: Three }][]) {
    fields[field] = { m: bands(values.m), u: bands(values.u) };
  }
  return {
    kind: 'fellegi-sunter-model',
    modelVersion: DEFAULT_MODEL_VERSION,
    priorMatchProbability: DEFAULT_PRIOR,
    priorRecords: DEFAULT_PRIOR_RECORDS,
    smoothing: 0,
    fields,
    trainedAgainst: { matchingProfileVersion: 1, comparatorVersion, scoreMethodVersion: DEFAULT_MODEL_VERSION },
    datasetId: 'default-starting-values',
    datasetDigest: EMPTY_DATASET_DIGEST,
    bands: [...BANDS],
  };
}
