/**
 * The comparison viewer's pictures, beside the words that say the same: a swatch in the colour of each field's band
 * (the colours of the model's weight chart), and a bar for what the field adds to the score, rightwards for a match
 * and leftwards against, on one scale for the whole pair. A reviewer sees at a glance which fields pull the two
 * records together and which pull them apart. Screen readers read the words; the pictures are hidden from them.
 */
import { Group } from '@mantine/core';
import type { FieldEvidence } from '../../../engine/contract/matching.ts';
import { bandText, evidenceTone, weightDirection, type BandTone } from './record-fields.ts';

const TONE_COLOUR: Readonly<Record<BandTone, string>> = {
  exact: 'var(--mantine-color-teal-7)',
  strong: 'var(--mantine-color-teal-4)',
  partial: 'var(--mantine-color-orange-5)',
  different: 'var(--mantine-color-red-7)',
  none: 'transparent',
};

export function BandSwatch({ tone, size = 10 }: { readonly tone: BandTone; readonly size?: number }) {
  return (
    <span
      aria-hidden="true"
      data-tone={tone}
      style={{
        display: 'inline-block',
        flex: 'none',
        width: size,
        height: size,
        borderRadius: 2,
        background: TONE_COLOUR[tone],
        // An empty square for a field nothing was compared on.
        border: tone === 'none' ? '1px solid var(--mantine-color-gray-5)' : undefined,
      }}
    />
  );
}

/**
 * A band in words with its swatch, as the comparison viewer's Band column shows it. The workbench and the waterfall
 * show one field's evidence in their Band columns through it, so the three say the same: the band, or why the field
 * was not compared (a newborn's placeholder, a 1 January, a partial date).
 */
export function BandCell({ tone, text }: { readonly tone: BandTone; readonly text: string }) {
  return (
    <Group gap={8} wrap="nowrap">
      <BandSwatch tone={tone} />
      <span>{text}</span>
    </Group>
  );
}

/** One compared field's band (the workbench's and the waterfall's rows): its tone and bandText's words. */
export function FieldBandCell({ evidence }: { readonly evidence: Pick<FieldEvidence, 'band' | 'level'> }) {
  return <BandCell tone={evidenceTone(evidence)} text={bandText(evidence, true)} />;
}

/** The bar's width in pixels; zero is its middle. */
const BAR_WIDTH = 80;
const HALF = BAR_WIDTH / 2;

/**
 * `weight`: what the field adds to the log-odds (countedWeight); `scale`: the largest such weight of the pair, which
 * fills half the bar. Without a weight (a weighted-similarity score) the space is kept, so the column stays aligned.
 */
export function EvidenceBar({ weight, scale }: { readonly weight: number | undefined; readonly scale: number }) {
  const direction = weightDirection(weight);
  const length =
    direction === 'none' ? 0 : Math.max(1, Math.round((Math.min(Math.abs(weight ?? 0), scale) / scale) * HALF));
  return (
    <span
      aria-hidden="true"
      data-direction={direction}
      style={{ position: 'relative', display: 'inline-block', flex: 'none', width: BAR_WIDTH, height: 12 }}
    >
      {weight === undefined ? null : (
        <span
          style={{
            position: 'absolute',
            left: HALF,
            top: 0,
            bottom: 0,
            width: 1,
            background: 'var(--mantine-color-gray-5)',
          }}
        />
      )}
      {length === 0 ? null : (
        <span
          style={{
            position: 'absolute',
            top: 2,
            height: 8,
            borderRadius: 1,
            left: direction === 'for' ? HALF + 1 : HALF - length,
            width: length,
            background: direction === 'for' ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)',
          }}
        />
      )}
    </span>
  );
}
