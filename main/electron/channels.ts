/** IPC channel names: one per operation and one per pushed event, derived from the contract's names. */
import type { AnyOperationName, ConsoleEventName } from '../../console-protocol/protocol.ts';

export const operationChannel = (name: AnyOperationName): string => `mpi:op:${name}`;
export const eventChannel = (name: ConsoleEventName): string => `mpi:event:${name}`;
