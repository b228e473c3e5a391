/**
 * The preload script, generated from the contract at build time: one function per operation and one
 * subscriber per event, each bound to its own channel. No generic invoke, no ipcRenderer, no event object
 * reaches the page. Generated (not hand-written) so it cannot drift from the contract; a sandboxed preload
 * cannot import the contract at run time, so the names are written into the file.
 */
import {
  ALL_OPERATION_NAMES,
  CONSOLE_EVENT_NAMES,
  type AnyOperationName,
  type ConsoleEventName,
} from '../../console-protocol/protocol.ts';
import { eventChannel, operationChannel } from './channels.ts';

export const PRELOAD_GLOBAL = 'mpiConsole';

export function preloadSource(
  operations: readonly AnyOperationName[] = ALL_OPERATION_NAMES,
  events: readonly ConsoleEventName[] = CONSOLE_EVENT_NAMES,
): string {
  const operationLines = operations.map(
    (name) =>
      `  ${JSON.stringify(name)}: (input) => ipcRenderer.invoke(${JSON.stringify(operationChannel(name))}, input),`,
  );
  const eventLines = events.map(
    (name) => `  ${JSON.stringify(name)}: (handler) => subscribe(${JSON.stringify(eventChannel(name))}, handler),`,
  );
  return [
    '// Generated from engine/contract by main/electron/preload-source.ts at build time. Do not edit.',
    "'use strict';",
    "const { contextBridge, ipcRenderer } = require('electron');",
    '',
    'function subscribe(channel, handler) {',
    "  if (typeof handler !== 'function') throw new TypeError('a handler function is required');",
    '  const listener = (_event, payload) => handler(payload);',
    '  ipcRenderer.on(channel, listener);',
    '  return () => ipcRenderer.removeListener(channel, listener);',
    '}',
    '',
    'const operations = Object.freeze({',
    ...operationLines,
    '});',
    '',
    'const events = Object.freeze({',
    ...eventLines,
    '});',
    '',
    `contextBridge.exposeInMainWorld(${JSON.stringify(PRELOAD_GLOBAL)}, Object.freeze({ operations, events }));`,
    '',
  ].join('\n');
}
