/**
 * Starting a job: a form (kind, reason, batch size, and for reconciliation an external source with a
 * changed-since window), then a confirmation that says what the job will do and when to run which. The
 * engine has the last word: a refusal comes back with the field it concerns and is shown there.
 */
import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { Note } from '../../layout/note.tsx';
import { DateTimePicker } from '@mantine/dates';
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_BATCH_SIZE, MIN_BATCH_SIZE, REASON_MAX, type JobKind } from '../../../engine/contract/maintenance.ts';
import { useClient } from '../../client/context.tsx';
import { ClientError, formRefusalText } from '../../client/errors.ts';
import { useProfile } from '../../hooks/console-data.ts';
import { keys } from '../../hooks/query-keys.ts';
import { navigate, paths } from '../../hooks/route.ts';
import { localTimeZone } from '../../format.ts';
import { IconAlert, IconInfo } from '../../icons.tsx';
import { GuidanceTable, KIND_EFFECT } from './guidance.tsx';
import { KIND_LABEL } from './job-text.ts';
import { toInput, validateDraft, withOffset, type StartJobDraft, type StartJobInput } from './start-job-form.ts';

type Field = 'reason' | 'batchSize' | 'externalSourceSystem' | 'changedSince';

/** The form's fields by the engine's issue paths: a refusal's alert names the fields, each shows its own message. */
const FIELD_LABEL: Readonly<Record<Field, string>> = {
  reason: 'Reason',
  batchSize: 'Batch size',
  externalSourceSystem: 'External source',
  changedSince: 'Changed since',
};

const INITIAL: StartJobDraft = {
  kind: 'reconciliation',
  reason: '',
  batchSize: 25,
  externalSourceSystem: null,
  changedSince: null,
};

function offsetLabel(): string {
  const minutes = -new Date().getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function Summary({ draft }: { readonly draft: StartJobDraft }) {
  const rows: [string, string][] = [
    ['Job', KIND_LABEL[draft.kind]],
    ['Reason', draft.reason.trim()],
    ['Batch size', `${String(draft.batchSize)} ${draft.batchSize === 1 ? 'identity' : 'identities'} per batch`],
  ];
  if (draft.kind === 'reconciliation') {
    rows.push([
      'External source',
      draft.externalSourceSystem ?? 'None: registry only (the Importing phase is skipped)',
    ]);
    if (draft.changedSince !== null) rows.push(['Changed since', `${withOffset(draft.changedSince)} (inclusive)`]);
  }
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label="The job you are about to start">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={150}>{label}</Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function StartJobModal({
  opened,
  onClose,
  connection,
  canStart,
}: {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly connection: string;
  readonly canStart: Record<JobKind, boolean>;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<StartJobDraft>(INITIAL);
  const [step, setStep] = useState<'form' | 'confirm'>('form');
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const startButton = useRef<HTMLButtonElement>(null);
  // The confirmation takes the focus to its Start button, so Enter starts and a screen reader lands on the decision.
  useEffect(() => {
    if (step === 'confirm') startButton.current?.focus();
  }, [step]);
  const profile = useProfile(connection, opened && draft.kind === 'reconciliation');
  // Only the sources a reconciliation can import from (an external FHIR source configured for this tenant); an engine
  // that does not say which offers its SourceTrust, and refuses an unconfigured one at the field.
  const summary = useQuery({
    queryKey: keys.profileSummary(connection),
    queryFn: () => client.send('profile/summary', {}),
    enabled: opened && draft.kind === 'reconciliation',
    retry: false,
  });
  const importable = summary.data?.importSources;
  const sources = importable ?? profile.data?.profile.SourceTrust.map((source) => source.SourceSystem) ?? [];
  const noneConfigured = importable !== undefined && importable.length === 0;

  const startJob = useMutation({
    mutationFn: async (request: StartJobInput) =>
      request.kind === 'reindex'
        ? client.send('maintenance/reindex', request.input)
        : client.send('maintenance/reconcile', request.input),
    onSuccess: async (started) => {
      await queryClient.invalidateQueries({ queryKey: keys.jobs(connection) });
      close();
      navigate(paths.job(started.jobId));
    },
    onError: () => {
      setStep('form');
    },
  });
  const refusal = startJob.error;

  const errors = validateDraft(draft);
  const engineIssue = (field: Field): string | undefined =>
    refusal instanceof ClientError ? refusal.issueFor(field) : undefined;
  const shown = (field: Field): string | undefined =>
    engineIssue(field) ?? (touched.has(field) ? errors[field] : undefined);
  const update = (change: Partial<StartJobDraft>, field?: Field): void => {
    setDraft((current) => ({ ...current, ...change }));
    if (field !== undefined) setTouched((current) => new Set([...current, field]));
    startJob.reset();
  };

  const close = (): void => {
    setDraft(INITIAL);
    setStep('form');
    setTouched(new Set());
    startJob.reset();
    onClose();
  };

  const review = (): void => {
    setTouched(new Set<Field>(['reason', 'batchSize', 'externalSourceSystem', 'changedSince']));
    if (Object.keys(errors).length === 0) setStep('confirm');
  };

  const kindLabel = KIND_LABEL[draft.kind].toLowerCase();
  return (
    <Modal
      opened={opened}
      onClose={close}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={
        <Title order={2} size="h3">
          {step === 'form' ? 'Start a maintenance job' : `Start this ${kindLabel}?`}
        </Title>
      }
    >
      {step === 'form' ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            review();
          }}
          noValidate
          aria-label="Start a maintenance job"
        >
          <Stack gap="md">
            <div>
              <Text size="sm" fw={500} mb={6} id="job-kind-label">
                Job
              </Text>
              <SegmentedControl
                fullWidth
                aria-labelledby="job-kind-label"
                value={draft.kind}
                onChange={(value) => {
                  update({ kind: value });
                }}
                data={[
                  { value: 'reconciliation', label: 'Reconciliation', disabled: !canStart.reconciliation },
                  { value: 'reindex', label: 'Re-index', disabled: !canStart.reindex },
                ]}
              />
              <Text size="sm" c="dimmed" mt={6}>
                {KIND_EFFECT[draft.kind]}
              </Text>
            </div>
            <Textarea
              label="Reason"
              description="Why this job runs: recorded with the job and in the audit trail"
              placeholder={
                draft.kind === 'reindex'
                  ? 'e.g. new blocking key version 2026-11 staged'
                  : 'e.g. thresholds raised after the November evaluation'
              }
              value={draft.reason}
              onChange={(event) => {
                update({ reason: event.currentTarget.value });
              }}
              onBlur={() => {
                setTouched((current) => new Set([...current, 'reason']));
              }}
              error={shown('reason')}
              autosize
              minRows={2}
              maxLength={REASON_MAX}
              required
              data-autofocus
            />
            <NumberInput
              label="Batch size"
              description={`Identities per batch, ${String(MIN_BATCH_SIZE)}–${String(MAX_BATCH_SIZE)}: each batch commits in one transaction, and a cancel takes effect between batches`}
              value={draft.batchSize}
              onChange={(value) => {
                update({ batchSize: value }, 'batchSize');
              }}
              min={MIN_BATCH_SIZE}
              max={MAX_BATCH_SIZE}
              clampBehavior="none"
              allowNegative
              allowDecimal
              error={shown('batchSize')}
              required
              w={{ base: '100%', sm: 320 }}
            />
            {draft.kind === 'reconciliation' && (
              <Group grow align="flex-start">
                <Select
                  label="External source"
                  description={
                    noneConfigured
                      ? 'No external FHIR source is configured for this tenant (Maintenance.FhirSources in the configuration file): the reconciliation uses the registry only.'
                      : 'Import changed patients from this source first (optional)'
                  }
                  placeholder="None: registry only"
                  disabled={noneConfigured}
                  data={sources}
                  value={draft.externalSourceSystem}
                  onChange={(value) => {
                    update(
                      { externalSourceSystem: value, ...(value === null ? { changedSince: null } : {}) },
                      'externalSourceSystem',
                    );
                  }}
                  clearable
                  error={
                    shown('externalSourceSystem') ??
                    (profile.isError ? `The configured sources could not be read: ${profile.error.message}` : undefined)
                  }
                  nothingFoundMessage="No sources configured"
                />
                <DateTimePicker
                  label="Changed since"
                  description={`${draft.externalSourceSystem === null ? 'Choose an external source first. ' : ''}Inclusive lower bound of the import window, in your time zone: ${localTimeZone()} (${offsetLabel()})`}
                  value={draft.changedSince}
                  onChange={(value) => {
                    update({ changedSince: value }, 'changedSince');
                  }}
                  disabled={draft.externalSourceSystem === null}
                  clearable
                  withSeconds
                  valueFormat="YYYY-MM-DD HH:mm:ss"
                  error={shown('changedSince')}
                />
              </Group>
            )}
            {refusal !== null && (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The job was not started" role="alert">
                {formRefusalText(refusal, FIELD_LABEL, 'review and start')}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={Object.keys(errors).length > 0}>
                Review and start
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack gap="md">
          <Summary draft={draft} />
          <Note variant="light" color="indigo" icon={<IconInfo />} title="What this job will do">
            <Text size="sm">{KIND_EFFECT[draft.kind]}</Text>
            <Text size="sm" mt={6}>
              It runs in the background: you can leave this page and follow it in the jobs list. Counters count work
              across phases, not distinct patients.
            </Text>
          </Note>
          {/* The decision first, with the focus on it; the guidance below for whoever wants to check. */}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setStep('form');
              }}
              disabled={startJob.isPending}
            >
              Back
            </Button>
            <Button
              ref={startButton}
              onClick={() => {
                startJob.mutate(toInput(draft));
              }}
              loading={startJob.isPending}
              data-testid="confirm-start"
            >
              Start {kindLabel}
            </Button>
          </Group>
          <div>
            <Title order={3} size="h5" mb={6}>
              When to run which
            </Title>
            <GuidanceTable highlight={draft.kind} />
          </div>
        </Stack>
      )}
    </Modal>
  );
}
