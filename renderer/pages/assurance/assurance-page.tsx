/**
 * The Match assurance page: the active versions first; then labels (paste, drop, sample, workbench),
 * evaluation, calibration, the unsupervised estimate (no labels), the registry audit and saved runs. The same on a
 * local sandbox and a remote registry: it offers only what the connection grants (spec "Authentication": the page needs
 * mpi.admin), and talks to the backend only through the contract's operations.
 */
import { Button, Group, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  CalibrationOutputSchema,
  EvaluationReportSchema,
  type EvaluationReport,
} from '../../../engine/contract/assurance.ts';
import type { Connection, SavedRun } from '../../../console-protocol/protocol.ts';
import { EstimateOutputSchema } from '../../../engine/contract/estimate.ts';
import { useClient } from '../../client/context.tsx';
import { formatDateTime } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import { CalibrationPanel } from './calibration-panel.tsx';
import { EstimatePanel } from './estimate-panel.tsx';
import { EvaluationPanel } from './evaluation-panel.tsx';
import { previewLabels } from './label-preview.ts';
import { LabelsPanel } from './labels-panel.tsx';
import {
  LABELS_STATE,
  putPageState,
  REVIEW_QUEUE_LABELS_STATE,
  schemaCodec,
  TAB_STATE,
  TEXT_CODEC,
  usePageState,
  type Codec,
} from '../../hooks/page-state.ts';
import { REVIEW_QUEUE_NOTE } from '../../../engine/contract/reviews.ts';
import { RunsPanel } from './runs-panel.tsx';
import { VersionsCard } from './versions-card.tsx';
import { WorkbenchPanel } from './workbench-panel.tsx';
import { AUDIT_CODECS, AUDIT_STATE, AuditPanel } from './audit-panel.tsx';
import { reopenedAudit } from './audit-labels.ts';
import { mergeLabelText } from './workbench-labels.ts';
import { labelsToTsv } from '../../../engine/contract/label-tsv.ts';
import { keys } from '../../hooks/query-keys.ts';

type CalibrationOutput = z.infer<typeof CalibrationOutputSchema>;
type EstimateOutput = z.infer<typeof EstimateOutputSchema>;
type Tab = 'labels' | 'workbench' | 'evaluation' | 'calibration' | 'estimate' | 'audit' | 'runs';
const TABS: readonly Tab[] = ['labels', 'workbench', 'evaluation', 'calibration', 'estimate', 'audit', 'runs'];

// What the page keeps across reload (page-state.ts): each item checked again when it is read back.
const TAB_CODEC: Codec<Tab> = { write: (tab) => tab, read: (stored) => TABS.find((t) => t === stored) };
const PRIOR_CODEC: Codec<number | null> = {
  write: (prior) => prior,
  read: (stored) => (typeof stored === 'number' && stored > 0 && stored < 1 ? stored : null),
};
const REPORT_CODEC = schemaCodec<EvaluationReport | null>((stored) =>
  stored === null ? { success: true, data: null } : EvaluationReportSchema.safeParse(stored),
);
const CALIBRATION_CODEC = schemaCodec<CalibrationOutput | null>((stored) =>
  stored === null ? { success: true, data: null } : CalibrationOutputSchema.safeParse(stored),
);
/** Where each shown report came from: a run of this session (with the label text it used) or a saved run reopened. */
interface ReportOrigin {
  readonly reopened: string | null;
  readonly labels: string | null;
}
const NO_ORIGIN: ReportOrigin = { reopened: null, labels: null };
const ORIGIN_CODEC: Codec<ReportOrigin> = {
  write: (origin) => origin,
  read: (stored) => {
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { reopened, labels } = stored as Record<string, unknown>;
    return {
      reopened: typeof reopened === 'string' ? reopened : null,
      labels: typeof labels === 'string' ? labels : null,
    };
  },
};

/** A short fingerprint of the label text (FNV-1a), to tell whether the labels changed since a report: not a digest. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${hash.toString(16)}:${String(text.length)}`;
}

function OriginNote({ origin, labels }: { readonly origin: ReportOrigin; readonly labels: string }) {
  if (origin.reopened !== null) {
    return (
      <Note color="gray" variant="light" mb="md" data-testid="report-origin" title="A saved run, reopened">
        <Text size="sm">
          This report is the saved run of {formatDateTime(origin.reopened)}, shown as it was; running again replaces it.
        </Text>
      </Note>
    );
  }
  if (origin.labels !== null && origin.labels !== fingerprint(labels)) {
    return (
      <Note
        color="orange"
        variant="light"
        mb="md"
        data-testid="report-origin"
        title="The labels changed since this report"
      >
        <Text size="sm">
          The report below was computed on the label set as it was before; run again to see the figures of the labels
          now on the Labels tab.
        </Text>
      </Note>
    );
  }
  return null;
}

const ESTIMATE_CODEC = schemaCodec<EstimateOutput | null>((stored) =>
  stored === null ? { success: true, data: null } : EstimateOutputSchema.safeParse(stored),
);

export default function AssurancePage({
  connection,
  connectionKey,
}: {
  readonly connection: Connection;
  readonly connectionKey: string;
}) {
  const client = useClient();
  const offered = connection.capabilities.operations;
  const may = {
    evaluate: offered.includes('matching/evaluate'),
    calibrate: offered.includes('matching/calibrate'),
    estimate: offered.includes('matching/estimate'),
    sample: offered.includes('labels/sample'),
    candidates: offered.includes('labels/candidates'),
    summary: offered.includes('profile/summary'),
    audit:
      offered.includes('audit/sample') && offered.includes('audit/estimate') && offered.includes('matching/explain'),
  };
  const allowed = may.evaluate || may.calibrate || may.estimate;
  const summary = useQuery({
    queryKey: keys.profileSummary(connectionKey),
    queryFn: () => client.send('profile/summary', {}),
    enabled: allowed && may.summary,
  });
  const [tab, setTab] = usePageState<Tab>(connectionKey, TAB_STATE, 'labels', TAB_CODEC);
  const [text, setText] = usePageState(connectionKey, LABELS_STATE, '', TEXT_CODEC);
  // A label set's text handed over from the Review cases page: while the labels are that text, say where it came from.
  const [reviewQueueText] = usePageState(connectionKey, REVIEW_QUEUE_LABELS_STATE, '', TEXT_CODEC);
  const deferred = useDeferredValue(text);
  const preview = useMemo(() => previewLabels(deferred), [deferred]);
  const [report, setReport] = usePageState<EvaluationReport | null>(connectionKey, 'evaluation', null, REPORT_CODEC);
  const [calibration, setCalibration] = usePageState<CalibrationOutput | null>(
    connectionKey,
    'calibration',
    null,
    CALIBRATION_CODEC,
  );
  const [evaluationOrigin, setEvaluationOrigin] = usePageState<ReportOrigin>(
    connectionKey,
    'evaluation-origin',
    NO_ORIGIN,
    ORIGIN_CODEC,
  );
  const [calibrationOrigin, setCalibrationOrigin] = usePageState<ReportOrigin>(
    connectionKey,
    'calibration-origin',
    NO_ORIGIN,
    ORIGIN_CODEC,
  );
  const [estimate, setEstimate] = usePageState<EstimateOutput | null>(connectionKey, 'estimate', null, ESTIMATE_CODEC);
  const runsKey = useMemo(() => keys.runs(connectionKey), [connectionKey]);
  // The sandbox's estimate of the prior, from the last sampling: offered beside the calibration's prior.
  const [estimatedPrior, setEstimatedPrior] = usePageState<number | null>(
    connectionKey,
    'estimated-prior',
    null,
    PRIOR_CODEC,
  );
  // Labels arriving while the label set holds rows (from the workbench or a kept set): added or replaced, not silently.
  const [incoming, setIncoming] = useState<{ readonly tsv: string; readonly from: string } | null>(null);

  if (!allowed) {
    return (
      <Stack gap="lg" maw={900}>
        <Title order={1}>Match assurance</Title>
        <Note
          color="orange"
          variant="light"
          icon={<IconAlert />}
          title="This page needs the mpi.admin scope"
          data-testid="assurance-refusal"
        >
          <Text size="sm">
            Evaluation and calibration are granted only to an identity carrying mpi.admin; this connection has{' '}
            {connection.capabilities.scopes.length === 0 ? 'no scope' : connection.capabilities.scopes.join(', ')}. Ask
            your registry's administrator for an assurance identity: the scope is not added to ordinary reviewers.
          </Text>
        </Note>
      </Stack>
    );
  }

  const offerLabels = (tsv: string, from: string): void => {
    if (text.trim() === '' || text === tsv) {
      setText(tsv);
      setTab('labels');
    } else setIncoming({ tsv, from });
  };
  const useWorkbenchLabels = (tsv: string): void => {
    offerLabels(tsv, 'the workbench');
  };
  const settle = (how: 'add' | 'replace'): void => {
    if (incoming === null) return;
    setText(how === 'replace' ? incoming.tsv : mergeLabelText(text, incoming.tsv).text);
    setIncoming(null);
    setTab('labels');
  };

  const reopen = (run: SavedRun): void => {
    if (run.kind === 'evaluation') {
      setReport(run.report);
      setEvaluationOrigin({ reopened: run.summary.createdAt, labels: null });
      setTab('evaluation');
    } else if (run.kind === 'calibration') {
      setCalibration(run.output);
      setCalibrationOrigin({ reopened: run.summary.createdAt, labels: null });
      setTab('calibration');
    } else if (run.kind === 'labels') {
      offerLabels(labelsToTsv(run.request.pairs, { header: true }), `the kept label set "${run.request.name}"`);
    } else if (run.kind === 'estimate') {
      setEstimate(run.output);
      setTab('estimate');
    } else {
      const { sample, verdicts } = reopenedAudit(run.request, run.output.versions.matchingProfileVersion);
      putPageState(connectionKey, AUDIT_STATE.sample, sample, AUDIT_CODECS.sample);
      putPageState(connectionKey, AUDIT_STATE.verdicts, verdicts, AUDIT_CODECS.verdicts);
      putPageState(connectionKey, AUDIT_STATE.index, sample.pairs.length, AUDIT_CODECS.index);
      putPageState(connectionKey, AUDIT_STATE.estimate, run.output, AUDIT_CODECS.estimate);
      putPageState(connectionKey, AUDIT_STATE.reopened, run.summary.createdAt, AUDIT_CODECS.reopened);
      setTab('audit');
    }
  };

  return (
    <Stack gap="lg" maw={1280}>
      <div>
        <Title order={1}>Match assurance</Title>
        <Text c="dimmed" mt={4}>
          Ground-truth labels, evaluation, calibration and the estimate without labels of matching for tenant{' '}
          {connection.tenantId}. These are the versions every run below uses:
        </Text>
      </div>
      <VersionsCard summary={summary.data} error={summary.error} />
      {reviewQueueText !== '' && reviewQueueText === text ? (
        <Note
          color="orange"
          variant="light"
          icon={<IconInfo />}
          title="These labels come from the review queue"
          data-testid="review-queue-labels"
        >
          <Text size="sm">{REVIEW_QUEUE_NOTE}</Text>
        </Note>
      ) : null}
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value !== null) setTab(value as Tab);
        }}
        keepMounted={false}
      >
        <Tabs.List aria-label="Match assurance views">
          <Tabs.Tab value="labels">Labels</Tabs.Tab>
          <Tabs.Tab value="workbench">Workbench</Tabs.Tab>
          {may.evaluate ? <Tabs.Tab value="evaluation">Evaluation</Tabs.Tab> : null}
          {may.calibrate ? <Tabs.Tab value="calibration">Calibration</Tabs.Tab> : null}
          {may.estimate ? <Tabs.Tab value="estimate">Estimate without labels</Tabs.Tab> : null}
          {may.audit ? <Tabs.Tab value="audit">Registry audit</Tabs.Tab> : null}
          <Tabs.Tab value="runs">Saved runs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="labels" pt="md">
          <LabelsPanel
            text={text}
            onText={setText}
            preview={preview}
            maySample={may.sample}
            onPrior={setEstimatedPrior}
            runsKey={runsKey}
          />
        </Tabs.Panel>
        <Tabs.Panel value="workbench" pt="md">
          {may.candidates ? (
            <WorkbenchPanel connectionKey={connectionKey} onUse={useWorkbenchLabels} />
          ) : (
            <Note
              color="blue"
              variant="light"
              icon={<IconAlert />}
              title="The workbench is not available on this registry"
              data-testid="workbench-unavailable"
            >
              <Text size="sm">
                The workbench draws candidate pairs as a tracked run, and this registry does not offer runs (an older
                registry version). Draw labels with the command line instead (mpi-console labels sample, then paste the
                file under Labels), or ask for the registry to be upgraded.
              </Text>
            </Note>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="evaluation" pt="md">
          {report !== null ? <OriginNote origin={evaluationOrigin} labels={text} /> : null}
          <EvaluationPanel
            connectionKey={connectionKey}
            preview={preview}
            runsKey={runsKey}
            report={report}
            onReport={(next) => {
              setReport(next);
              setEvaluationOrigin({ reopened: null, labels: fingerprint(text) });
            }}
            defaultThresholds={
              summary.data === undefined ? [] : [summary.data.thresholds.probable, summary.data.thresholds.certain]
            }
          />
        </Tabs.Panel>
        <Tabs.Panel value="calibration" pt="md">
          {calibration !== null ? <OriginNote origin={calibrationOrigin} labels={text} /> : null}
          <CalibrationPanel
            key={String(estimatedPrior)}
            preview={preview}
            runsKey={runsKey}
            output={calibration}
            onOutput={(next) => {
              setCalibration(next);
              setCalibrationOrigin({ reopened: null, labels: fingerprint(text) });
            }}
            estimatedPrior={estimatedPrior}
            connectionKey={connectionKey}
          />
        </Tabs.Panel>
        <Tabs.Panel value="estimate" pt="md">
          <EstimatePanel output={estimate} onOutput={setEstimate} connectionKey={connectionKey} runsKey={runsKey} />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditPanel connectionKey={connectionKey} runsKey={runsKey} />
        </Tabs.Panel>
        <Tabs.Panel value="runs" pt="md">
          <RunsPanel runsKey={runsKey} onOpen={reopen} />
        </Tabs.Panel>
      </Tabs>
      <Modal
        opened={incoming !== null}
        onClose={() => {
          setIncoming(null);
        }}
        title="The label set already holds rows"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Text size="sm" mb="md" data-testid="merge-question">
          The Labels tab holds {preview.rows} rows. Add the{' '}
          {incoming === null ? 0 : mergeLabelText(text, incoming.tsv).added} new labels of {incoming?.from ?? ''} to
          them (rows already there are not repeated), or replace them with those labels?
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button
            variant="default"
            onClick={() => {
              setIncoming(null);
            }}
          >
            Cancel
          </Button>
          <Button
            variant="default"
            onClick={() => {
              settle('replace');
            }}
          >
            Replace them
          </Button>
          <Button
            onClick={() => {
              settle('add');
            }}
            data-autofocus
          >
            Add to them
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
