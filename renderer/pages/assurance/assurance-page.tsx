/**
 * The Match assurance page: the active versions first; then labels (paste, drop, sample, workbench),
 * evaluation, calibration, the unsupervised estimate (no labels) and saved runs. The same on a local sandbox and a remote registry: it offers only
 * what the connection grants (spec "Authentication": the page needs mpi.admin), and talks to the backend only
 * through the contract's operations.
 */
import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CalibrationOutputSchema, EvaluationReport } from '../../../engine/contract/assurance.ts';
import type { Connection, SavedRun } from '../../../console-protocol/protocol.ts';
import type { EstimateOutputSchema } from '../../../engine/contract/estimate.ts';
import { useClient } from '../../client/context.tsx';
import { IconAlert } from '../../icons.tsx';
import { CalibrationPanel } from './calibration-panel.tsx';
import { EstimatePanel } from './estimate-panel.tsx';
import { EvaluationPanel } from './evaluation-panel.tsx';
import { previewLabels } from './label-preview.ts';
import { LabelsPanel } from './labels-panel.tsx';
import { RunsPanel } from './runs-panel.tsx';
import { VersionsCard } from './versions-card.tsx';
import { WorkbenchPanel } from './workbench-panel.tsx';

type CalibrationOutput = z.infer<typeof CalibrationOutputSchema>;
type EstimateOutput = z.infer<typeof EstimateOutputSchema>;
type Tab = 'labels' | 'workbench' | 'evaluation' | 'calibration' | 'estimate' | 'runs';

export default function AssurancePage({ connection, connectionKey }: { readonly connection: Connection; readonly connectionKey: string }) {
  const client = useClient();
  const offered = connection.capabilities.operations;
  const may = {
    evaluate: offered.includes('matching/evaluate'),
    calibrate: offered.includes('matching/calibrate'),
    estimate: offered.includes('matching/estimate'),
    sample: offered.includes('labels/sample'),
    candidates: offered.includes('labels/candidates'),
    summary: offered.includes('profile/summary'),
  };
  const allowed = may.evaluate || may.calibrate || may.estimate;
  const summary = useQuery({ queryKey: ['profile-summary', connectionKey], queryFn: () => client.send('profile/summary', {}), enabled: allowed && may.summary });
  const [tab, setTab] = useState<Tab>('labels');
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const preview = useMemo(() => previewLabels(deferred), [deferred]);
  const [report, setReport] = useState<EvaluationReport | null>(null);
  const [calibration, setCalibration] = useState<CalibrationOutput | null>(null);
  const [estimate, setEstimate] = useState<EstimateOutput | null>(null);
  const runsKey = useMemo(() => ['runs', connectionKey] as const, [connectionKey]);
  // The sandbox's estimate of the prior, from the last sampling: offered beside the calibration's prior.
  const [estimatedPrior, setEstimatedPrior] = useState<number | null>(null);

  if (!allowed) {
    return (
      <Stack gap="lg" maw={900}>
        <Title order={1}>Match assurance</Title>
        <Alert color="orange" variant="light" icon={<IconAlert />} title="This page needs the mpi.admin scope" data-testid="assurance-refusal">
          <Text size="sm">
            Evaluation and calibration are granted only to an identity carrying mpi.admin; this connection has {connection.capabilities.scopes.length === 0 ? 'no scope' : connection.capabilities.scopes.join(', ')}. Ask your registry's administrator for an assurance identity: the scope is not added to ordinary reviewers.
          </Text>
        </Alert>
      </Stack>
    );
  }

  const reopen = (run: SavedRun): void => {
    if (run.kind === 'evaluation') {
      setReport(run.report);
      setTab('evaluation');
    } else if (run.kind === 'calibration') {
      setCalibration(run.output);
      setTab('calibration');
    } else {
      setEstimate(run.output);
      setTab('estimate');
    }
  };

  return (
    <Stack gap="lg" maw={1280}>
      <div>
        <Title order={1}>Match assurance</Title>
        <Text c="dimmed" mt={4}>
          Ground-truth labels, evaluation, calibration and the estimate without labels of matching for tenant {connection.tenantId}. These are the versions every run below uses:
        </Text>
      </div>
      <VersionsCard summary={summary.data} error={summary.error} />
      <Tabs value={tab} onChange={(value) => { if (value !== null) setTab(value as Tab); }} keepMounted={false}>
        <Tabs.List aria-label="Match assurance views">
          <Tabs.Tab value="labels">Labels</Tabs.Tab>
          {may.candidates ? <Tabs.Tab value="workbench">Workbench</Tabs.Tab> : null}
          {may.evaluate ? <Tabs.Tab value="evaluation">Evaluation</Tabs.Tab> : null}
          {may.calibrate ? <Tabs.Tab value="calibration">Calibration</Tabs.Tab> : null}
          {may.estimate ? <Tabs.Tab value="estimate">Estimate without labels</Tabs.Tab> : null}
          <Tabs.Tab value="runs">Saved runs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="labels" pt="md">
          <LabelsPanel text={text} onText={setText} preview={preview} maySample={may.sample} onPrior={setEstimatedPrior} />
        </Tabs.Panel>
        <Tabs.Panel value="workbench" pt="md">
          <WorkbenchPanel onUse={(tsv) => { setText(tsv); setTab('labels'); }} />
        </Tabs.Panel>
        <Tabs.Panel value="evaluation" pt="md">
          <EvaluationPanel preview={preview} runsKey={runsKey} report={report} onReport={setReport} defaultThresholds={summary.data === undefined ? [] : [summary.data.thresholds.probable, summary.data.thresholds.certain]} />
        </Tabs.Panel>
        <Tabs.Panel value="calibration" pt="md">
          <CalibrationPanel key={String(estimatedPrior)} preview={preview} runsKey={runsKey} output={calibration} onOutput={setCalibration} estimatedPrior={estimatedPrior} connectionKey={connectionKey} />
        </Tabs.Panel>
        <Tabs.Panel value="estimate" pt="md">
          <EstimatePanel output={estimate} onOutput={setEstimate} connectionKey={connectionKey} runsKey={runsKey} />
        </Tabs.Panel>
        <Tabs.Panel value="runs" pt="md">
          <RunsPanel runsKey={runsKey} onOpen={reopen} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
