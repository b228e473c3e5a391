/**
 * The api-bodies bench's sending client, in a process of its own so that its work (stringifying and checking a large
 * input, reading a large answer) never delays autocannon's clock in the bench's process: `body-sender.ts URL TOKEN
 * OPERATION FILE` reads the operation's input from FILE and calls it through the remote client (a long operation as
 * a run: POST /runs, then the run followed to its end) again and again until stopped (SIGTERM), then prints how many
 * it sent.
 */
import { readFileSync } from 'node:fs';
import type { OperationName } from '../../engine/contract/operations.ts';
import { RemoteEngine } from '../../main/remote/remote-engine.ts';
import { StaticTokenProvider } from '../../main/remote/token-provider.ts';

const [url = '', token = '', operation = '', file = ''] = process.argv.slice(2);
const input = JSON.parse(readFileSync(file, 'utf8')) as never;
const remote = new RemoteEngine({ baseUrl: url, tokens: new StaticTokenProvider(token) });
const stop = { asked: false };
let sent = 0;
process.once('SIGTERM', () => {
  stop.asked = true;
});
process.stdout.write('{"sending":true}\n');
while (!stop.asked) {
  // A dataset of unknown references is refused once read: the refusal is expected, the body was sent anyway.
  await remote.call(operation as OperationName, input, { tenantId: 'bench', actor: 'bench' }).catch(() => undefined);
  sent += 1;
}
await remote.close();
process.stdout.write(`${JSON.stringify({ sent })}\n`);
