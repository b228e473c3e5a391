/**
 * A long engine operation followed as a task (console/start-task): it runs off the backend's thread, its progress
 * is pushed (task/updated) and its output arrives with its end, so no request waits on it and none can time out
 * under it. The hook gives what a mutation gives (start, isPending, data, error) plus the progress and a cancel.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { OperationInput, OperationOutput } from '../../engine/contract/operations.ts';
import type { RunOperation, RunProgress, RunState } from '../../engine/contract/runs.ts';
import { useClient } from '../client/context.tsx';
import { ClientError } from '../client/errors.ts';

export interface Task<K extends RunOperation> {
  readonly start: (input: OperationInput<K>) => void;
  readonly cancel: () => void;
  readonly isPending: boolean;
  readonly progress: RunProgress | null;
  /** When the task started (ISO 8601), while it runs. */
  readonly startedAt: string | null;
  readonly data: OperationOutput<K> | undefined;
  readonly error: ClientError | null;
  readonly isError: boolean;
  /** The last task was cancelled (on request, or because the backend stopped). */
  readonly cancelled: boolean;
}

export function useTask<K extends RunOperation>(
  operation: K,
  onSuccess?: (output: OperationOutput<K>) => void,
): Task<K> {
  const client = useClient();
  const [state, setState] = useState<RunState | null>(null);
  const [error, setError] = useState<ClientError | null>(null);
  const [data, setData] = useState<OperationOutput<K> | undefined>(undefined);
  const current = useRef<string | null>(null);
  // States pushed before the start's reply names the task: kept, then applied.
  const early = useRef(new Map<string, RunState>());
  const succeed = useRef(onSuccess);
  succeed.current = onSuccess;

  const apply = useCallback((next: RunState): void => {
    setState(next);
    if (next.status === 'completed' && next.output !== undefined) {
      const output = next.output as OperationOutput<K>;
      setData(output);
      succeed.current?.(output);
    }
    if ((next.status === 'failed' || next.status === 'cancelled') && next.error !== null) {
      setError(next.status === 'failed' ? new ClientError(next.error) : null);
    }
  }, []);

  useEffect(
    () =>
      client.subscribe('task/updated', (next) => {
        if (next.operation !== operation) return;
        if (current.current === null) {
          early.current.set(next.runId, next);
          return;
        }
        if (next.runId === current.current) apply(next);
      }),
    [client, operation, apply],
  );

  const start = useCallback(
    (input: OperationInput<K>): void => {
      setError(null);
      setData(undefined);
      current.current = null;
      early.current.clear();
      setState({
        runId: '',
        operation,
        status: 'queued',
        progress: null,
        startedAt: new Date().toISOString(),
        finishedAt: null,
        error: null,
      });
      client.send('console/start-task', { operation, input }).then(
        (started) => {
          current.current = started.runId;
          const pushed = early.current.get(started.runId);
          early.current.clear();
          apply(pushed !== undefined && pushed.status !== 'running' ? pushed : started);
        },
        (failure: unknown) => {
          setState(null);
          setError(
            failure instanceof ClientError
              ? failure
              : new ClientError({
                  kind: 'internal',
                  message: failure instanceof Error ? failure.message : 'the task could not start',
                  issues: [],
                }),
          );
        },
      );
    },
    [client, operation, apply],
  );

  const cancel = useCallback((): void => {
    const runId = current.current;
    if (runId !== null) void client.send('console/cancel-task', { runId }).catch(() => undefined);
  }, [client]);

  const isPending = state !== null && (state.status === 'queued' || state.status === 'running');
  return {
    start,
    cancel,
    isPending,
    progress: isPending ? state.progress : null,
    startedAt: isPending ? state.startedAt : null,
    data,
    error,
    isError: error !== null,
    cancelled: state?.status === 'cancelled',
  };
}
