/**
 * The thread that prepares a large file's next chunk while the writer matches and writes the current one
 * (chunk-preparer.ts). One serves every ingestion of the thread that started it, each under its own setup: the
 * source's entry, the blocking rules and the key ring. It holds no database connection. Each chunk's tags travel
 * back packed in one buffer, 16 bytes a tag, so a chunk costs one copy, not one per tag.
 */
import { parentPort } from 'node:worker_threads';
import { RecordPreparer, type PreparedResource, type PreparerSetup } from './record-preparer.ts';
import { TAG_BYTES } from '../blocking/tags.ts';
import type { PrepareReply, PrepareRequest, ThreadPrepared } from './prepare-messages.ts';

const port = parentPort;
if (port === null) throw new Error('prepare-thread runs as a worker thread only');
const preparers = new Map<number, RecordPreparer>();

function preparerOf(setup: PreparerSetup): RecordPreparer {
  return new RecordPreparer({
    ...setup,
    // Secrets arrive as plain bytes.
    ring: { keys: setup.ring.keys.map((key) => ({ version: key.version, secret: Buffer.from(key.secret) })) },
  });
}

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
  switch (request.kind) {
    case 'setup':
      preparers.set(request.setupId, preparerOf(request.setup));
      return;
    case 'forget':
      preparers.delete(request.setupId);
      return;
    case 'prepare': {
      const preparer = preparers.get(request.setupId);
      if (preparer === undefined) {
        const reply: PrepareReply = { kind: 'unknown-setup', id: request.id };
        port.postMessage(reply);
        return;
      }
      const packed: Buffer[] = [];
      const at = { tags: 0 };
      const prepared = request.texts.map((text) =>
        text === null ? null : strip(preparer.prepareLine(text, true), packed, at),
      );
      const tagBytes = new Uint8Array(Buffer.concat(packed, at.tags * TAG_BYTES));
      const reply: PrepareReply = { kind: 'prepared', id: request.id, prepared, tagBytes };
      port.postMessage(reply, [tagBytes.buffer]);
      return;
    }
  }
});
const ready: PrepareReply = { kind: 'ready' };
port.postMessage(ready);
