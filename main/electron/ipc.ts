/**
 * IPC registration: one handler per contract operation (no generic channel). Every handler first checks that
 * the sender is the app's own main frame (not a subframe, not another window, not a page that navigated
 * elsewhere), then validates its argument with the operation's schema, and only then asks the backend.
 * Replies are data (a Reply); nothing is thrown across the boundary.
 */
import {
  ALL_OPERATION_NAMES,
  CONSOLE_EVENT_NAMES,
  inputSchemaOf,
  type AnyOperationName,
  type ConsoleEventName,
  type Reply,
} from '../../console-protocol/protocol.ts';
import { zodIssues } from '../../engine/contract/zod-issues.ts';
import { isAppUrl } from './app-protocol.ts';
import { eventChannel, operationChannel } from './channels.ts';

export interface FrameLike {
  readonly url: string;
  /** null for a top-level (main) frame. */
  readonly parent: unknown;
}

export interface IpcInvokeEventLike {
  readonly sender: { readonly id: number };
  /** null when the frame navigated away or was destroyed before the message arrived. */
  readonly senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface BackendLike {
  send(name: string, input: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: ConsoleEventName, payload: unknown) => void): () => void;
}

/** True only for the app's own top-level frame in the given window. */
export function isAppMainFrame(event: IpcInvokeEventLike, windowWebContentsId: number): boolean {
  const frame = event.senderFrame;
  return event.sender.id === windowWebContentsId && frame !== null && frame.parent === null && isAppUrl(frame.url);
}

const refused = (message: string, kind: 'forbidden' | 'validation'): Reply<never> => ({
  ok: false,
  error: { type: 'EngineError', kind, message, issues: [] },
});

/** Registers every operation's handler; returns the function that removes them again. */
export function registerIpc(
  ipcMain: IpcMainLike,
  backend: BackendLike,
  isTrustedSender: (event: IpcInvokeEventLike) => boolean,
): () => void {
  const names: readonly AnyOperationName[] = ALL_OPERATION_NAMES;
  for (const name of names) {
    const schema = inputSchemaOf(name);
    if (schema === undefined) throw new Error(`no schema for ${name}`);
    ipcMain.handle(operationChannel(name), async (event, ...args) => {
      if (!isTrustedSender(event))
        return refused(`${name} was refused: the request did not come from the console's own window`, 'forbidden');
      if (args.length > 1) return refused(`${name} takes one argument`, 'validation');
      const parsed = schema.safeParse(args[0] ?? {});
      if (!parsed.success) {
        return {
          ok: false,
          error: {
            type: 'EngineError',
            kind: 'validation',
            message: `invalid input for ${name}`,
            issues: zodIssues(parsed.error, '', false),
          },
        } satisfies Reply<never>;
      }
      return backend.send(name, parsed.data);
    });
  }
  return () => {
    for (const name of names) ipcMain.removeHandler(operationChannel(name));
  };
}

export interface EventTargetLike {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

/** Forwards the backend's pushes to the window (each on its own channel); returns the unsubscribe function. */
export function forwardEvents(backend: BackendLike, target: EventTargetLike): () => void {
  const known = new Set<string>(CONSOLE_EVENT_NAMES);
  return backend.subscribe((event, payload) => {
    if (known.has(event) && !target.isDestroyed()) target.send(eventChannel(event), payload);
  });
}
