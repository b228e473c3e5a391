import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleClient } from './client.ts';
import type { TaskSlots } from '../hooks/task-slots.ts';
import { ThroughputSamples } from '../hooks/throughput.ts';

interface ConsoleServices {
  readonly client: ConsoleClient;
  readonly samples: ThroughputSamples;
  readonly tasks: TaskSlots;
}

const ServicesContext = createContext<ConsoleServices | null>(null);

export function ConsoleServicesProvider({
  client,
  samples,
  tasks,
  children,
}: ConsoleServices & { readonly children: ReactNode }) {
  return <ServicesContext.Provider value={{ client, samples, tasks }}>{children}</ServicesContext.Provider>;
}

function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (services === null) throw new Error('ConsoleServicesProvider is missing');
  return services;
}

export function useClient(): ConsoleClient {
  return useServices().client;
}

export function useSamples(): ThroughputSamples {
  return useServices().samples;
}

export function useTaskSlots(): TaskSlots {
  return useServices().tasks;
}
