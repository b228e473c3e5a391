/**
 * The Electron transport: the preload exposes one function per operation and one subscriber per event
 * (generated from the contract, no generic invoke), as `window.mpiConsole`.
 */
import type { AnyOperationName, ConsoleEventName, Reply } from '../../console-protocol/protocol.ts';
import type { Transport } from './transport.ts';

export interface PreloadApi {
  readonly operations: Readonly<Record<AnyOperationName, (input: unknown) => Promise<Reply<unknown>>>>;
  readonly events: Readonly<Record<ConsoleEventName, (handler: (payload: unknown) => void) => () => void>>;
}

declare global {
  interface Window {
    readonly mpiConsole?: PreloadApi;
  }
}

export function ipcTransport(api: PreloadApi): Transport {
  return {
    send(name, input) {
      const operation = (api.operations as Partial<Record<string, (input: unknown) => Promise<Reply<unknown>>>>)[name];
      if (operation === undefined) {
        return Promise.resolve({
          ok: false,
          error: { type: 'EngineError', kind: 'validation', message: `unknown operation ${name}`, issues: [] },
        });
      }
      return operation(input ?? {});
    },
    subscribe(event, handler) {
      return api.events[event](handler);
    },
  };
}
