/**
 * A pair's fields at a glance in a list (the review list's cases, the evaluation's error examples): a row of small
 * swatches, one a field in the scorer's order, in the comparison viewer's band colours (evidence-marks.tsx), so a
 * reader sees which pairs differ on a given name and which on an address before opening one. Screen readers read
 * its words (field-glance.ts fieldsAtAGlance), which also show on hover.
 */
import { Group, Text } from '@mantine/core';
import { BandSwatch } from './evidence-marks.tsx';
import type { BandTone } from './record-fields.ts';
import { FIELD_NAMES } from '../../../engine/contract/fields.ts';
import { fieldTitle } from '../../../engine/contract/field-title.ts';
import { TONE_WORDS, fieldsAtAGlance } from './field-glance.ts';

export function FieldStrip({ glance }: { readonly glance: NonNullable<ReturnType<typeof fieldsAtAGlance>> }) {
  return (
    <span role="img" aria-label={glance.text} title={glance.text} style={{ display: 'inline-flex', gap: 2 }}>
      {glance.tones.map(({ field, tone }) => (
        <BandSwatch key={field} tone={tone} size={9} />
      ))}
    </span>
  );
}

/**
 * A list row's fields at a glance from its evidence (a review case's, an evaluation's error example's); a dimmed dash
 * where the row carries no pair.
 */
export function FieldsCell({ evidence }: { readonly evidence: Parameters<typeof fieldsAtAGlance>[0] }) {
  const glance = fieldsAtAGlance(evidence);
  return glance === null ? (
    <Text size="sm" c="dimmed">
      —
    </Text>
  ) : (
    <FieldStrip glance={glance} />
  );
}

/** Under a list: which square is which field, and what each colour says (in the words the squares are read in). */
export function FieldStripLegend() {
  return (
    <Group gap={6} mt="xs">
      <Text size="xs" c="dimmed">
        Fields, in order: {FIELD_NAMES.map((field) => fieldTitle(field).toLowerCase()).join(', ')}.
      </Text>
      {(Object.entries(TONE_WORDS) as [BandTone, string][]).map(([tone, words]) => (
        <Group key={tone} gap={4} wrap="nowrap">
          <BandSwatch tone={tone} size={9} />
          <Text size="xs" c="dimmed">
            {words}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
