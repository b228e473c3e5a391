/**
 * The unsupervised estimate's answer: EM's convergence and the fit's checks in plain words, the model-estimated
 * precision and recall per threshold (estimated-metrics-card.tsx), the suggested thresholds, the per-field weights,
 * the model JSON with its diff against the active model, and how the suggested thresholds are applied (or, when the
 * fit failed, why there is nothing to apply). No activation control.
 */
import { Alert, Box, Card, Code, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { More } from '../../layout/more.tsx';
import type { z } from 'zod';
import type { EstimateOutputSchema } from '../../../engine/contract/estimate.ts';
import { formatCount } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import { convergenceText, fitVerdict, reviewBandText, sampleCaption, sessionsText } from './estimate-figures.ts';
import { EstimatedMetricsCard } from './estimated-metrics-card.tsx';
import { FieldWeightsCard } from './field-weights-card.tsx';
import { ModelJsonCard } from './model-json-card.tsx';
import { PriorsNote } from './priors-note.tsx';
import { ThresholdValue } from './threshold-value.tsx';
import { fieldTitle } from '../../../engine/contract/field-title.ts';

type EstimateOutput = z.infer<typeof EstimateOutputSchema>;

/** Whether the fit can be trusted: the verdict first, then each check in words. */
function FitChecks({ fit }: { readonly fit: EstimateOutput['report']['fit'] }) {
  const verdict = fitVerdict(fit);
  return (
    <Alert
      color={verdict.failed ? 'red' : 'teal'}
      // A failed fit interrupts (the analyst must not apply it); a fit that passed is read in its place.
      role={verdict.failed ? 'alert' : 'note'}
      variant="light"
      icon={verdict.failed ? <IconAlert /> : <IconInfo />}
      title={verdict.title}
      data-testid="est-fit"
    >
      <Text size="sm">{verdict.text}</Text>
      {fit === undefined ? null : (
        <List size="sm" mt="xs" spacing={2} aria-label="Fit checks">
          {fit.checks.map((c) => (
            <List.Item key={c.check}>
              <Text span fw={600} size="sm">
                {c.passed ? 'Passed' : 'Failed'}: {c.check}.
              </Text>{' '}
              {c.detail}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

export function EstimateReportView({
  output,
  connectionKey,
}: {
  readonly output: EstimateOutput;
  readonly connectionKey: string;
}) {
  const { model, report } = output;
  const name = model.modelVersion;
  const c = report.candidates;
  const suggested = report.suggestedThresholds;
  const failed = report.fit?.status === 'fallback';
  return (
    <Stack gap="lg" data-testid="estimate-report">
      <Card withBorder padding="lg" component="section" aria-labelledby="est-convergence-title">
        <Title order={2} size="h4" id="est-convergence-title" mb="sm">
          Estimate of model {report.modelVersion}
        </Title>
        <FitChecks fit={report.fit} />
        <Note
          mt="sm"
          color={report.convergence.converged ? 'teal' : 'orange'}
          variant="light"
          icon={report.convergence.converged ? <IconInfo /> : <IconAlert />}
          title={report.convergence.converged ? 'EM converged' : failed ? 'No converged fit' : 'EM did not converge'}
          data-testid="est-convergence"
        >
          <Text size="sm">{convergenceText(report.convergence, report.fit)}</Text>
        </Note>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mt="md">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Records
            </Text>
            <Text fw={700} size="lg" data-testid="est-records">
              {formatCount(report.records)}
            </Text>
            {sampleCaption(report) === null ? null : (
              <Text size="xs" c="dimmed" data-testid="est-sampled">
                {sampleCaption(report)}
              </Text>
            )}
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Candidate pairs modelled
            </Text>
            <Text fw={700} size="lg" data-testid="est-modelled">
              {formatCount(c.modelled)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatCount(c.enumerated)} found by blocking{c.truncated ? ' (stopped at its cap)' : ''},{' '}
              {formatCount(c.compared)} compared, {formatCount(c.distinctPatterns)} distinct band patterns
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Match share among candidates
            </Text>
            <Text fw={700} size="lg" data-testid="est-match-share">
              {report.candidateMatchShare.toFixed(6)}
            </Text>
            <Text size="xs" c="dimmed" data-testid="est-expected">
              {failed
                ? `not estimated: the fit failed, so this is the profile's prior over the candidates (about ${formatCount(Math.round(report.expectedMatches))} true pairs), never below what exact agreement proves`
                : `about ${formatCount(Math.round(report.expectedMatches))} true pairs expected`}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Prior match probability
            </Text>
            <Text fw={700} size="lg" data-testid="est-prior">
              {report.priorMatchProbability.toPrecision(4)}
            </Text>
            <Text size="xs" c="dimmed">
              {report.prior}
            </Text>
          </div>
        </SimpleGrid>
        <More summary="How the model was estimated: u, the m sessions, the log-likelihood" testId="est-method-more">
          <Text size="sm" c="dimmed">
            u from {formatCount(report.randomPairs.compared)} random pairs (seed {report.randomPairs.seed};{' '}
            {formatCount(report.randomPairs.decidedOutsideModel)} decided outside the model; about{' '}
            {formatCount(Math.round(report.randomPairs.matchesWeightedOut))} taken for one person and weighted out of
            u). {formatCount(c.decidedByTrustedIdentifier)} candidate pairs were decided by a trusted identifier and{' '}
            {formatCount(c.decidedByHardConflict)} by a hard conflict. Log-likelihood{' '}
            {report.convergence.logLikelihood.toFixed(3)}.{' '}
            <span data-testid="est-sessions">{sessionsText(report.mSessions)}</span> {report.estimation}
          </Text>
        </More>
        <Box mt="sm">
          <PriorsNote which="estimate" prior={report.priorMatchProbability} />
        </Box>
      </Card>

      <EstimatedMetricsCard report={report} name={name} />

      <Card withBorder padding="lg" component="section" aria-labelledby="est-suggested-title">
        <Title order={2} size="h4" id="est-suggested-title" mb="sm">
          Suggested thresholds
        </Title>
        <Group gap="xl" mb="sm">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Certain (auto-link)
            </Text>
            <ThresholdValue value={suggested.Certain} testId="est-certain" />
          </div>
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Probable (review)
            </Text>
            <ThresholdValue value={suggested.Probable} testId="est-probable" />
          </div>
        </Group>
        <Text size="sm" fw={600} mb={4} data-testid="est-review-band">
          {reviewBandText(report)}
        </Text>
        <Text size="sm" data-testid="est-suggestion">
          {report.suggestion}
        </Text>
      </Card>

      <FieldWeightsCard model={model} name={name} idPrefix="est" caveat={report.caveat}>
        <ObservationsLine observations={report.fieldObservations} />
      </FieldWeightsCard>

      <ModelJsonCard
        model={model}
        connectionKey={connectionKey}
        idPrefix="est"
        produced="An estimated model"
        // A failed fit suggests no thresholds (they are the profile's): nothing to save with the fallback.
        thresholds={failed ? undefined : report.suggestedThresholds}
      >
        {failed ? (
          <Text size="sm" mt="xs" data-testid="est-apply">
            The fit failed, so this model is the fallback, not a fit of this registry's records: keep the active
            profile, or label a few hundred pairs and calibrate a model from them.
          </Text>
        ) : (
          <Text size="sm" mt="xs" data-testid="est-apply">
            To apply the model with the suggested thresholds, run{' '}
            <Code>
              mpi-console estimate --model-version {model.modelVersion} --seed {String(report.randomPairs.seed)} --out
              model.json --with-thresholds
            </Code>{' '}
            with the options used here (the same seed on the same records gives the same model), review the file, then{' '}
            <Code>mpi-console profile apply model.json</Code>. For the model alone, save it above and{' '}
            <Code>profile apply</Code> that file; the active thresholds then stay as they are.
          </Text>
        )}
      </ModelJsonCard>
    </Stack>
  );
}

function ObservationsLine({ observations }: { readonly observations: EstimateOutput['report']['fieldObservations'] }) {
  return (
    <List size="xs" c="dimmed" mb="sm" aria-label="Observations per field">
      {observations.map((o) => (
        <List.Item key={o.field}>
          {fieldTitle(o.field)}: present in {formatCount(o.candidatePairs)} candidate pairs and{' '}
          {formatCount(o.randomPairs)} random pairs
        </List.Item>
      ))}
    </List>
  );
}
