/**
 * The pool's intake thread: it reads the body of a large run start (POST /runs with a 10,000-pair evaluation) so
 * that the thread answering requests never parses or validates it, and answers only the run's operation. It holds
 * no registry: the engine thread that runs the operation parses the same bytes again (json-body.ts, bodyInput).
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { bodyText, parseJsonBody } from '../net/json-body.ts';
import { toErrorData } from './errors.ts';
import type { IntakeAnswer, IntakeRequest } from './messages.ts';
import { checkRunStart } from './run-start.ts';

if (parentPort === null) throw new Error('intake-thread runs as a worker thread');
const port: MessagePort = parentPort;

port.on('message', ({ id, bytes }: IntakeRequest) => {
  let answer: IntakeAnswer;
  try {
    answer = { id, operation: checkRunStart(parseJsonBody(bodyText(bytes))).operation };
  } catch (error) {
    answer = { id, error: toErrorData(error) };
  }
  port.postMessage(answer);
});
