/**
 * The browser host's transport: operations are POSTed as JSON to /api/op/NAME, pushes arrive as server-sent
 * events from /api/events. The session cookie (HttpOnly, set by the host when the launch link was opened)
 * travels with every same-origin request; the page never sees it.
 */
import type { ConsoleEventName, Reply } from '../../console-protocol/protocol.ts';
import type { Transport } from './transport.ts';

const NOT_SIGNED_IN: Reply<never> = {
  ok: false,
  error: {
    type: 'EngineError',
    kind: 'forbidden',
    message:
      'This page is not connected to a console session. Open the address printed in the terminal where `npm start` runs.',
    issues: [],
  },
};

const UNREACHABLE: Reply<never> = {
  ok: false,
  error: {
    type: 'EngineError',
    kind: 'remote_http',
    message: 'The console host is not answering. Check that `npm start` is still running, then reload this page.',
    issues: [],
  },
};

export function httpTransport(base = '/api'): Transport {
  let source: EventSource | undefined;
  const stream = (): EventSource => {
    source ??= new EventSource(`${base}/events`);
    return source;
  };

  return {
    async send(name, input) {
      let response: Response;
      try {
        response = await fetch(`${base}/op/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch {
        return UNREACHABLE;
      }
      if (response.status === 401) return NOT_SIGNED_IN;
      try {
        return (await response.json()) as Reply<unknown>;
      } catch {
        return UNREACHABLE;
      }
    },
    subscribe(event: ConsoleEventName, handler) {
      const listener = (message: MessageEvent<string>): void => {
        handler(JSON.parse(message.data));
      };
      const events = stream();
      events.addEventListener(event, listener);
      return () => {
        events.removeEventListener(event, listener);
      };
    },
  };
}
