/**
 * The engine's OpenTelemetry instruments, through the API only (a no-op until the host registers a meter provider:
 * main/engine-host/telemetry.ts). Instruments belong to a provider, so each set is made again when the host
 * registered one after the first use.
 */
import { metrics, type Meter, type MeterProvider } from '@opentelemetry/api';

/** A getter of the instruments `build` makes on the current global provider's meter, made once per provider. */
export function instrumentsOf<T>(build: (meter: Meter) => T): () => T {
  let made: { readonly provider: MeterProvider; readonly instruments: T } | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (made?.provider !== provider) made = { provider, instruments: build(provider.getMeter('mpi-console')) };
    return made.instruments;
  };
}
