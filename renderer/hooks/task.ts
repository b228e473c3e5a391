/**
 * A long engine operation followed as a task (console/start-task): it runs off the backend's thread, its progress
 * is pushed (task/updated) and its output arrives with its end, so no request waits on it and none can time out
 * under it. The hook gives what a mutation gives (start, isPending, data, error) plus the progress and a cancel.
 * The task is kept for the session in its panel's slot (task-slots.ts): a page left while it runs and opened again
 * shows it still running, or hands onSuccess the output that arrived meanwhile.
 */
import { useCallback, useEffect, useId, useRef, useSyncExternalStore } from 'react';
import type { OperationInput, OperationOutput } from '../../engine/contract/operations.ts';
import type { RunOperation, RunProgress } from '../../engine/contract/runs.ts';
import { useTaskSlots } from '../client/context.tsx';
import type { ClientError } from '../client/errors.ts';
import { useConsoleStatus } from './console-data.ts';
import { connectionKey } from './query-keys.ts';
import { TaskSlots } from './task-slots.ts';

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

export interface TaskOptions {
  /**
   * Whether the task outlives the panel (default true: one slot per connection and operation). A panel shown in
   * several places at once, or whose task only makes sense beside what it shows, passes false: its task is this
   * mount's alone and forgotten when it unmounts.
   */
  readonly kept?: boolean;
}

export function useTask<K extends RunOperation>(
  operation: K,
  onSuccess?: (output: OperationOutput<K>) => void,
  options: TaskOptions = {},
): Task<K> {
  const slots = useTaskSlots();
  const connection = connectionKey(useConsoleStatus().data);
  const mount = useId();
  const kept = options.kept ?? true;
  const slot = TaskSlots.key(connection, kept ? operation : `${operation}:${mount}`);
  const subscribe = useCallback((listener: () => void) => slots.subscribe(listener), [slots]);
  const state = useSyncExternalStore(subscribe, () => slots.get(slot));
  const succeed = useRef(onSuccess);
  succeed.current = onSuccess;

  useEffect(() => {
    if (kept) slots.adopt(slot, operation);
    return kept
      ? undefined
      : () => {
          slots.drop(slot);
        };
  }, [slots, slot, operation, kept]);

  // An output that arrived, here or while the panel was away, is handed over once.
  useEffect(() => {
    if (state.taken) return;
    const output = slots.take(slot);
    if (output !== undefined) succeed.current?.(output as OperationOutput<K>);
  }, [slots, slot, state]);

  const start = useCallback(
    (input: OperationInput<K>): void => {
      slots.start(slot, operation, input);
    },
    [slots, slot, operation],
  );
  const cancel = useCallback((): void => {
    slots.cancel(slot);
  }, [slots, slot]);

  const run = state.run;
  const isPending = run !== null && (run.status === 'queued' || run.status === 'running');
  return {
    start,
    cancel,
    isPending,
    progress: isPending ? run.progress : null,
    startedAt: isPending ? run.startedAt : null,
    data: state.output as OperationOutput<K> | undefined,
    error: state.error,
    isError: state.error !== null,
    cancelled: run?.status === 'cancelled',
  };
}
