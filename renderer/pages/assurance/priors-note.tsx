/**
 * The three priors an analyst meets on this page (the profile's model, a calibration, the estimate), one sentence
 * each: they are on different scales because each goes with its own u, and a model is applied with its own.
 */
import { List, Text } from '@mantine/core';
import type { USource } from '../../../engine/contract/assurance.ts';

function priorText(value: number): string {
  return value >= 0.01 ? value.toFixed(3) : value.toPrecision(2);
}

/** A number in e-notation kept on one line (a line would otherwise break after its hyphen). */
function Figure({ children }: { readonly children: string }) {
  return <span style={{ whiteSpace: 'nowrap' }}>{children}</span>;
}

const FROM_RANDOM_PAIRS =
  'the share of true pairs among the blocking candidates (what the form asks for) spread over all record pairs (share × candidates ÷ all pairs), a random-pair prior like the estimate’s, because u comes from random pairs of the registry; lowered in proportion as the registry grows. The live thresholds are read on the held-out labels with the share itself.';
const FROM_LABELS =
  'the share of true pairs among the pairs the scorer meets, the blocking candidates, read with u from the labelled non-matches among them. Its scores sit on that scale, so apply the model with the thresholds its report measured for live matching.';

export function PriorsNote({
  which,
  prior,
  calibrationU,
}: {
  readonly which: 'calibration' | 'estimate';
  readonly prior: number;
  /** Where the calibration's u came from; unknown (the estimate's page): both ways are described. */
  readonly calibrationU?: USource;
}) {
  const here = (kind: 'calibration' | 'estimate') =>
    kind === which ? (
      <>
        {' '}
        (<Figure>{priorText(prior)}</Figure> here)
      </>
    ) : null;
  return (
    <div data-testid="priors-note">
      <Text size="sm" fw={600} mb={4}>
        What the prior means, model by model
      </Text>
      <List size="sm" spacing={4}>
        <List.Item>
          <Text span fw={600} size="sm">
            The profile's default model:
          </Text>{' '}
          the chance that two records picked at random from the registry are one person, read with u from random pairs:{' '}
          <Figure>1e-4</Figure> by default, for a registry of up to 20,000 records, and lowered in proportion beyond (
          <Figure>2e-6</Figure> at a million records), since a record's own duplicates stay few while the records it
          could be taken for grow.
        </List.Item>
        <List.Item>
          <Text span fw={600} size="sm">
            A calibration{here('calibration')}:
          </Text>{' '}
          {calibrationU === 'random-pairs'
            ? FROM_RANDOM_PAIRS
            : calibrationU === 'labels'
              ? FROM_LABELS
              : `with u from random pairs (the console's default), ${FROM_RANDOM_PAIRS} With u from the labelled non-matches, ${FROM_LABELS}`}
        </List.Item>
        <List.Item>
          <Text span fw={600} size="sm">
            The estimate{here('estimate')}:
          </Text>{' '}
          λ, the share of true pairs among the blocking candidates, spread over all record pairs (λ × candidates ÷ all
          pairs): a random-pair prior like the profile's, because the estimate keeps u from random pairs. It is the
          registry's at the size it had, and lowered in proportion as the registry grows past it.
        </List.Item>
      </List>
      <Text size="xs" c="dimmed" mt={4}>
        Each prior is right only with its own u: compare models by their scores and thresholds, never by their priors
        alone.
      </Text>
    </div>
  );
}
