/**
 * The renderer's one typed client: `send(name, input)` for every engine and console operation,
 * `subscribe(event, handler)` for the backend's pushes. Typed from the contract; blind to the transport.
 */
import type {
  AnyInput,
  AnyOperationName,
  AnyOutput,
  ConsoleEvent,
  ConsoleEventName,
} from '../../console-protocol/protocol.ts';
import { ClientError } from './errors.ts';
import type { Transport } from './transport.ts';

export class ConsoleClient {
  constructor(private readonly transport: Transport) {}

  async send<K extends AnyOperationName>(name: K, input: AnyInput<K>): Promise<AnyOutput<K>> {
    const reply = await this.transport.send(name, input);
    if (!reply.ok) throw new ClientError(reply.error);
    return reply.value as AnyOutput<K>;
  }

  subscribe<E extends ConsoleEventName>(event: E, handler: (payload: ConsoleEvent<E>) => void): () => void {
    return this.transport.subscribe(event, (payload) => {
      handler(payload as ConsoleEvent<E>);
    });
  }
}
