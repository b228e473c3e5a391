/**
 * How the renderer reaches the console backend. Two implementations (IPC through the Electron preload, HTTP
 * and server-sent events from the browser host); the rest of the renderer sees only this interface.
 */
import type { ConsoleEventName, Reply } from '../../console-protocol/protocol.ts';

export interface Transport {
  send(name: string, input: unknown): Promise<Reply<unknown>>;
  /** Calls handler with each pushed payload of this event; returns the unsubscribe function. */
  subscribe(event: ConsoleEventName, handler: (payload: unknown) => void): () => void;
}
