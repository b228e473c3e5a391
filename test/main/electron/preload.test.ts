import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { ALL_OPERATION_NAMES, CONSOLE_EVENT_NAMES } from '../../../console-protocol/protocol.ts';
import { PRELOAD_GLOBAL, preloadSource } from '../../../main/electron/preload-source.ts';

interface Exposed {
  operations: Record<string, (input: unknown) => Promise<unknown>>;
  events: Record<string, (handler: (payload: unknown) => void) => () => void>;
}

/** Runs the generated preload as Electron would, with contextBridge and ipcRenderer recorded. */
function runPreload(source: string) {
  const exposed = new Map<string, unknown>();
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        invoked.push({ channel, args });
        return Promise.resolve({ ok: true, value: channel });
      },
      on: (channel: string, listener: (event: unknown, payload: unknown) => void) =>
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
      removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) =>
        listeners.set(
          channel,
          (listeners.get(channel) ?? []).filter((l) => l !== listener),
        ),
    },
  };
  const required: string[] = [];
  runInNewContext(source, {
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`the preload may require only electron, not ${name}`);
      return electron;
    },
  });
  return { exposed, invoked, listeners, required };
}

describe('generated preload', () => {
  it('exposes exactly one function per contract operation and one subscriber per event, nothing else', () => {
    const { exposed, required } = runPreload(preloadSource());
    expect([...exposed.keys()]).toEqual([PRELOAD_GLOBAL]);
    expect(required).toEqual(['electron']);
    const api = exposed.get(PRELOAD_GLOBAL) as Exposed;
    expect(Object.keys(api).sort()).toEqual(['events', 'operations']);
    expect(Object.keys(api.operations).sort()).toEqual([...ALL_OPERATION_NAMES].sort());
    expect(Object.keys(api.events).sort()).toEqual([...CONSOLE_EVENT_NAMES].sort());
    expect(Object.isFrozen(api) && Object.isFrozen(api.operations) && Object.isFrozen(api.events)).toBe(true);
  });

  it('binds each operation to its own channel with the one argument it was given', async () => {
    const { exposed, invoked } = runPreload(preloadSource());
    const api = exposed.get(PRELOAD_GLOBAL) as Exposed;
    await api.operations['jobs/cancel']?.({ jobId: 'job-12345678' });
    await api.operations['console/status']?.({});
    expect(invoked).toEqual([
      { channel: 'mpi:op:jobs/cancel', args: [{ jobId: 'job-12345678' }] },
      { channel: 'mpi:op:console/status', args: [{}] },
    ]);
  });

  it('hands the page only the payload of an event (never the IPC event object) and unsubscribes', () => {
    const { exposed, listeners } = runPreload(preloadSource());
    const api = exposed.get(PRELOAD_GLOBAL) as Exposed;
    const received: unknown[] = [];
    const off = api.events['job/updated']?.((payload) => received.push(payload));
    const [listener] = listeners.get('mpi:event:job/updated') ?? [];
    listener?.({ sender: 'the ipc event, with senderFrame and ports' }, { jobId: 'job-1' });
    expect(received).toEqual([{ jobId: 'job-1' }]);
    off?.();
    expect(listeners.get('mpi:event:job/updated')).toEqual([]);
  });

  it('follows the contract: an operation added to the names appears, one removed disappears', () => {
    const { exposed } = runPreload(preloadSource(['console/status'], ['job/updated']));
    const api = exposed.get(PRELOAD_GLOBAL) as Exposed;
    expect(Object.keys(api.operations)).toEqual(['console/status']);
    expect(Object.keys(api.events)).toEqual(['job/updated']);
  });
});
