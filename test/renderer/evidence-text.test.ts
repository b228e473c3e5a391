import { describe, expect, it } from 'vitest';
import {
  bandText,
  countedWeight,
  EVIDENCE_FIELD,
  evidenceParts,
  evidenceText,
  FIELD_ROWS,
  fieldValue,
  rowBandText,
  rowBandTone,
  showValue,
  weightDirection,
} from '../../renderer/pages/assurance/record-fields.ts';
import { createScorer } from '../../engine/scoring/scorer.ts';
import { defaultProfile } from '../../engine/profile/default-profile.ts';
import { SAMPLE_FIELDS } from '../helpers/fields.ts';
import { DisplayFieldsSchema } from '../../engine/contract/workbench.ts';

describe("a field's evidence in the comparison viewer", () => {
  it('says which way a weight counts, so a band name such as Partial is not read as agreement', () => {
    expect(evidenceText({ logLikelihood: 5.1849 })).toBe('+5.18 for');
    expect(evidenceText({ logLikelihood: -2.5649 })).toBe('−2.56 against');
  });
  it('says nothing counts where the weight rounds to zero or the comparison is missing', () => {
    expect(evidenceText({ logLikelihood: 0 })).toBe('0');
    expect(evidenceText({ logLikelihood: -0.004 })).toBe('0');
    expect(evidenceText({})).toBe('—');
    expect(evidenceText(undefined)).toBe('—');
  });
  it('names household evidence that counts for nothing', () => {
    expect(evidenceText({ logLikelihood: 0, householdOnly: true })).toBe('0 (household)');
    expect(evidenceText({ logLikelihood: 0, impliedBy: 'addressLine' })).toBe('0 (with the address)');
    // In two parts, for a cell that may put why under the figure; a weight has no why.
    expect(evidenceParts({ logLikelihood: 0, impliedBy: 'addressLine' })).toEqual({
      figure: '0',
      why: '(with the address)',
    });
    expect(evidenceParts({ logLikelihood: -2.5649 })).toEqual({ figure: '−2.56 against', why: null });
  });
  it("says why a given name was not compared as the names' own: a newborn's placeholder, two generations, twins", () => {
    const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
    const given = (a: typeof SAMPLE_FIELDS, b: typeof SAMPLE_FIELDS) =>
      scorer.explain(scorer.prepare(a), scorer.prepare(b)).evidence.find((e) => e.field === 'givenName');
    const baby = { ...SAMPLE_FIELDS, givenName: 'baby', middleNames: 'girl' };
    expect(bandText(given(baby, baby), true)).toBe('not compared: a newborn’s placeholder name');
    const junior = { ...SAMPLE_FIELDS, generation: 'jr' };
    expect(bandText(given(junior, { ...SAMPLE_FIELDS, generation: 'sr' }), true)).toBe(
      'Different: the generational suffixes differ',
    );
    expect(bandText(given(junior, junior), true)).toBe('Exact');
    expect(bandText(given({ ...SAMPLE_FIELDS, givenName: 'a' }, SAMPLE_FIELDS), true)).toBe(
      'Strong: an initial alone and a name of that letter',
    );
    const robertJames = { ...SAMPLE_FIELDS, givenName: 'robert', middleNames: 'james' };
    expect(bandText(given({ ...SAMPLE_FIELDS, givenName: 'j', middleNames: null }, robertJames), true)).toBe(
      "Strong: an initial alone and the other record's middle name of that letter",
    );
    expect(bandText(given({ ...SAMPLE_FIELDS, birthOrder: 1 }, { ...SAMPLE_FIELDS, birthOrder: 2 }), true)).toBe(
      'Different: the birth orders differ (two of one multiple birth)',
    );
    expect(showValue(2)).toBe('2');
    expect(showValue(true)).toBe('yes');
    expect(bandText(undefined, true)).toBe('missing');
    expect(bandText(undefined, false)).toBe('(compared with the name)');
    expect(showValue(undefined)).toBe('—');
  });
  it('says why a birth date was not compared, or differs: two on 1 January', () => {
    const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
    const band = (a: typeof SAMPLE_FIELDS, b: typeof SAMPLE_FIELDS) =>
      bandText(
        scorer.explain(scorer.prepare(a), scorer.prepare(b)).evidence.find((e) => e.field === 'birthDate'),
        true,
      );
    const january = { ...SAMPLE_FIELDS, birthDate: '1988-01-01' };
    expect(band(january, january)).toBe(
      'not compared: 1 January, where an unknown birth date is written; the years agree',
    );
    expect(band(january, { ...january, birthDate: '1987-01-01' })).toBe('Different: 1 January of another year');
    const yearOnly = { ...SAMPLE_FIELDS, birthDate: null, partialBirthDate: '1988' };
    expect(band(yearOnly, { ...SAMPLE_FIELDS, birthDate: '1988-06-02' })).toBe(
      'not compared: one record gives the year (or year and month) only, and it agrees',
    );
    expect(band(yearOnly, { ...SAMPLE_FIELDS, birthDate: '1958-06-02' })).toBe(
      'Different: one record gives the year (or year and month) only, another',
    );
  });
  it("says a compound family name and one of its names share a name, as do a given name and the other's middle name", () => {
    const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
    const family = scorer
      .explain(
        scorer.prepare({ ...SAMPLE_FIELDS, familyName: 'garcia lopez' }),
        scorer.prepare({ ...SAMPLE_FIELDS, familyName: 'lopez' }),
      )
      .evidence.find((e) => e.field === 'familyName');
    expect(bandText(family, true)).toBe('Strong: one name of a compound family name');
    const given = scorer
      .explain(
        scorer.prepare({ ...SAMPLE_FIELDS, givenName: 'jose', middleNames: 'luis' }),
        scorer.prepare({ ...SAMPLE_FIELDS, givenName: 'luis', middleNames: null }),
      )
      .evidence.find((e) => e.field === 'givenName');
    expect(bandText(given, true)).toBe("Strong: one record's given name is the other's middle name");
  });
  it("says a newborn placeholder's middle names (Baby Girl) are not compared either; others are compared with the name", () => {
    const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
    const evidence = (a: typeof SAMPLE_FIELDS, b: typeof SAMPLE_FIELDS) =>
      new Map(scorer.explain(scorer.prepare(a), scorer.prepare(b)).evidence.map((e) => [e.field as string, e]));
    const baby = evidence(
      { ...SAMPLE_FIELDS, givenName: 'baby', middleNames: 'girl' },
      { ...SAMPLE_FIELDS, givenName: 'baby', middleNames: 'boy' },
    );
    expect(rowBandText('middleNames', baby)).toBe('not compared: a newborn’s placeholder name');
    expect(rowBandText('givenName', baby)).toBe('not compared: a newborn’s placeholder name');
    const adults = evidence(SAMPLE_FIELDS, { ...SAMPLE_FIELDS, middleNames: 'rose' });
    expect(rowBandText('middleNames', adults)).toBe('(compared with the name)');
    expect(rowBandText('previousFamilyNames', baby)).toBe('(compared with the name)');
    expect(rowBandText('givenName', adults)).toBe('Exact');
  });
  it('shows a partial birth date in the birth date row, marked, and gives it no row of its own', () => {
    // As the console receives a record's fields: through the display schema.
    const display = (fields: typeof SAMPLE_FIELDS) => DisplayFieldsSchema.parse(fields);
    expect(fieldValue(display({ ...SAMPLE_FIELDS, birthDate: null, partialBirthDate: '1962' }), 'birthDate')).toBe(
      '1962 (partial)',
    );
    expect(fieldValue(display({ ...SAMPLE_FIELDS, birthDate: null }), 'birthDate')).toBe('—');
    expect(fieldValue(display(SAMPLE_FIELDS), 'birthDate')).toBe('1984-03-17');
    expect(FIELD_ROWS.map(([field]) => field)).not.toContain('partialBirthDate');
    expect(FIELD_ROWS.map(([, title]) => title)).toContain('Birth date');
  });
  it("draws each row as its words say: the swatch in the band's colour, the bar the way the weight counts", () => {
    const scorer = createScorer(defaultProfile([{ SourceSystem: 'a' }]));
    const other = {
      ...SAMPLE_FIELDS,
      givenName: 'anabel',
      birthDate: '1984-03-18',
      addressLine: '7 mill lane',
      phone: '2392001123',
      postalCode: 'PO14AY',
      middleNames: 'rose',
    };
    const pairs: [typeof SAMPLE_FIELDS, typeof SAMPLE_FIELDS][] = [
      [SAMPLE_FIELDS, SAMPLE_FIELDS],
      [SAMPLE_FIELDS, other],
      [SAMPLE_FIELDS, { ...SAMPLE_FIELDS, givenName: 'maud', birthDate: '1991-08-02' }],
      [
        { ...SAMPLE_FIELDS, givenName: 'baby', middleNames: 'girl' },
        { ...SAMPLE_FIELDS, givenName: 'baby', middleNames: 'boy' },
      ],
      [
        { ...SAMPLE_FIELDS, generation: 'jr' },
        { ...SAMPLE_FIELDS, generation: 'sr', phone: null },
      ],
      [
        { ...SAMPLE_FIELDS, birthDate: '1988-01-01' },
        { ...SAMPLE_FIELDS, birthDate: '1988-01-01', familyName: 'garcia fairweather' },
      ],
    ];
    const tones = new Set<string>();
    const directions = new Set<string>();
    for (const [a, b] of pairs) {
      const evidence = scorer.explain(scorer.prepare(a), scorer.prepare(b)).evidence;
      const byField = new Map(evidence.map((e) => [e.field as string, e]));
      for (const [field] of FIELD_ROWS) {
        const tone = rowBandTone(field, byField);
        const words = rowBandText(field, byField);
        tones.add(tone);
        // The tone is the band the words open with, or none where they name no band (missing, not compared).
        const band = /^(Exact|Strong|Partial|Different)\b/.exec(words)?.[1]?.toLowerCase() ?? 'none';
        expect(tone, `${field}: ${words}`).toBe(band);
        const evidenceField = EVIDENCE_FIELD[field];
        const e = evidenceField === undefined ? undefined : byField.get(evidenceField);
        const direction = weightDirection(countedWeight(e));
        directions.add(direction);
        const said = / (for|against)$/.exec(evidenceText(e))?.[1] ?? 'none';
        expect(direction, `${field}: ${evidenceText(e)}`).toBe(said);
      }
    }
    // The pairs above show every tone and every way a weight counts, so each mapping was checked.
    expect([...tones].sort()).toEqual(['different', 'exact', 'none', 'partial', 'strong']);
    expect([...directions].sort()).toEqual(['against', 'for', 'none']);
    // Household evidence and a field the address implies count for nothing, whatever their band's weight.
    expect(countedWeight({ logLikelihood: 3.2, householdOnly: true })).toBe(0);
    expect(countedWeight({ logLikelihood: 2.1, impliedBy: 'addressLine' })).toBe(0);
    expect(countedWeight({ logLikelihood: -1.5 })).toBe(-1.5);
    expect(countedWeight(undefined)).toBeUndefined();
    expect(weightDirection(0.004)).toBe('none');
    expect(weightDirection(-0.006)).toBe('against');
  });
});
