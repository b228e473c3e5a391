/**
 * The thread that prepares a large file's next chunk while the writer matches and writes the current one
 * (chunk-preparer.ts). It holds no database connection: only the source's entry, the blocking rules and the key
 * ring it was started with. Each chunk's tags travel back packed in one buffer, 16 bytes a tag, so a chunk costs
 * one copy, not one per tag.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RecordPreparer, type PreparedResource, type PreparerSetup } from './record-preparer.ts';
import { TAG_BYTES } from '../blocking/tags.ts';
import type { PrepareReply, PrepareRequest, ThreadPrepared } from './prepare-messages.ts';

const setup = (workerData as { setup: PreparerSetup }).setup;
const preparer = new RecordPreparer({
  ...setup,
  // Secrets arrive as plain bytes.
  ring: { keys: setup.ring.keys.map((key) => ({ version: key.version, secret: Buffer.from(key.secret) })) },
});
const port = parentPort;
if (port === null) throw new Error('prepare-thread runs as a worker thread only');

function strip(prepared: PreparedResource, packed: Buffer[], at: { tags: number }): ThreadPrepared {
  if (prepared.kind === 'rejected') return prepared;
  const tags = (prepared.tags ?? []).map((t) => {
    packed.push(t.tag);
    return { at: at.tags++, ruleName: t.ruleName, ruleSetVersion: t.ruleSetVersion, keyVersion: t.keyVersion };
  });
  // The line's text stays with the writer, which has it already.
  return { kind: 'ready', write: { ...prepared.write, resourceJson: '' }, tags, warnings: prepared.warnings };
}

port.on('message', (request: PrepareRequest) => {
  const packed: Buffer[] = [];
  const at = { tags: 0 };
  const prepared = request.texts.map((text) =>
    text === null ? null : strip(preparer.prepareLine(text, true), packed, at),
  );
  const tagBytes = new Uint8Array(Buffer.concat(packed, at.tags * TAG_BYTES));
  const reply: PrepareReply = { id: request.id, prepared, tagBytes };
  port.postMessage(reply, [tagBytes.buffer]);
});
port.postMessage({ ready: true });
