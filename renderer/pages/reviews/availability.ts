/** Whether this connection can show review cases (the Review cases pages, and links to them from other pages). */
import type { Connection } from '../../../console-protocol/protocol.ts';

/** Why the page cannot list cases on this connection, in words that say what to do; null when it can. */
export function unavailableReason(connection: Connection): string | null {
  if (!connection.capabilities.operations.includes('reviews/list')) {
    return 'This registry does not offer review cases: its API is older than this console. On the registry host, `mpi-console reviews` lists them.';
  }
  if (!connection.capabilities.scopes.includes('mpi.admin')) {
    return `Review cases show record-level evidence, so reading them needs the mpi.admin scope; this sign-in grants ${connection.capabilities.scopes.join(', ') || 'no scope'}. Ask an administrator for access.`;
  }
  return null;
}
