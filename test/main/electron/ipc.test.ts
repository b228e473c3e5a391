import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { ConsoleBackend } from '../../../main/backend/console-backend.ts';
import {
  forwardEvents,
  isAppMainFrame,
  registerIpc,
  type IpcInvokeEventLike,
  type IpcMainLike,
} from '../../../main/electron/ipc.ts';
import { ALL_OPERATION_NAMES, CONSOLE_EVENT_NAMES, type Reply } from '../../../console-protocol/protocol.ts';
import { operationChannel } from '../../../main/electron/channels.ts';
import { scratchDir } from '../../helpers/temp.ts';

type Handler = (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>;

class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, event: IpcInvokeEventLike, ...args: unknown[]): Promise<Reply<unknown>> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) throw new Error(`no handler for ${channel}`);
    return handler(event, ...args) as Promise<Reply<unknown>>;
  }
}

const WINDOW_ID = 7;
const appFrame = (url = 'app://console/index.html'): IpcInvokeEventLike => ({
  sender: { id: WINDOW_ID },
  senderFrame: { url, parent: null },
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The real backend, with the calls that reach it recorded. */
function recordedBackend(): { backend: ConsoleBackend; calls: { name: string; input: unknown }[] } {
  const dir = scratchDir('mpi-ipc-').dir;
  const backend = new ConsoleBackend({ dataFolder: dir, actor: 'console:test' });
  const calls: { name: string; input: unknown }[] = [];
  const send = backend.send.bind(backend);
  backend.send = (name, input) => {
    calls.push({ name, input });
    return send(name, input);
  };
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  cleanups.push(() => backend.close());
  return { backend, calls };
}

describe('IPC registration', () => {
  it('registers exactly one handler per contract operation and removes them all again', () => {
    const ipc = new FakeIpcMain();
    const { backend } = recordedBackend();
    const unregister = registerIpc(ipc, backend, () => true);
    expect([...ipc.handlers.keys()].sort()).toEqual(ALL_OPERATION_NAMES.map(operationChannel).sort());
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });

  it('answers only the app main frame of its own window', async () => {
    const ipc = new FakeIpcMain();
    const { backend, calls } = recordedBackend();
    registerIpc(ipc, backend, (event) => isAppMainFrame(event, WINDOW_ID));
    const channel = operationChannel('console/status');

    const ok = await ipc.invoke(channel, appFrame(), {});
    expect(ok).toMatchObject({ ok: true, value: { connection: null } });

    const refusals: IpcInvokeEventLike[] = [
      { sender: { id: WINDOW_ID + 1 }, senderFrame: { url: 'app://console/index.html', parent: null } }, // another window
      { sender: { id: WINDOW_ID }, senderFrame: { url: 'app://console/index.html', parent: {} } }, // a subframe
      appFrame('https://evil.example/'), // the window navigated elsewhere
      appFrame('file:///tmp/index.html'),
      appFrame('app://console.evil/index.html'),
      { sender: { id: WINDOW_ID }, senderFrame: null }, // the frame is gone
    ];
    for (const event of refusals) {
      expect(await ipc.invoke(channel, event, {})).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    }
    expect(calls).toHaveLength(1);
  });

  it('validates the argument with the operation schema before the backend sees it', async () => {
    const ipc = new FakeIpcMain();
    const { backend, calls } = recordedBackend();
    registerIpc(ipc, backend, () => true);

    const badBatch = await ipc.invoke(operationChannel('maintenance/reindex'), appFrame(), {
      reason: 'r',
      batchSize: 26,
    });
    expect(badBatch).toMatchObject({ ok: false, error: { kind: 'validation', issues: [{ path: 'batchSize' }] } });
    const extraKey = await ipc.invoke(operationChannel('jobs/get'), appFrame(), {
      jobId: 'job-12345678',
      tenantId: 'other',
    });
    expect(extraKey).toMatchObject({
      ok: false,
      error: {
        kind: 'validation',
        issues: [
          expect.objectContaining({
            path: '(root)',
            message: expect.stringMatching(/unknown key/) as unknown,
          }) as unknown,
        ],
      },
    });
    const twoArgs = await ipc.invoke(operationChannel('console/status'), appFrame(), {}, {});
    expect(twoArgs).toMatchObject({ ok: false, error: { kind: 'validation' } });
    const notAnObject = await ipc.invoke(operationChannel('console/open-sandbox'), appFrame(), 'rm -rf /');
    expect(notAnObject).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(calls).toEqual([]);

    // Valid input reaches the backend, parsed (defaults applied).
    await ipc.invoke(operationChannel('jobs/list'), appFrame(), {});
    expect(calls).toEqual([{ name: 'jobs/list', input: { limit: 50 } }]);
  });

  it('forwards each pushed event on its own channel, and stops when the window is gone', async () => {
    const { backend } = recordedBackend();
    const sent: { channel: string; payload: unknown }[] = [];
    let destroyed = false;
    const stop = forwardEvents(backend, {
      send: (channel, payload) => sent.push({ channel, payload }),
      isDestroyed: () => destroyed,
    });
    await backend.send('console/close', {});
    expect(sent.map((s) => s.channel)).toEqual(['mpi:event:connection/changed']);
    destroyed = true;
    await backend.send('console/close', {});
    expect(sent).toHaveLength(1);
    stop();
    expect(CONSOLE_EVENT_NAMES).toContain('connection/changed');
  });
});
