// Worker-thread bootstrap. A thread's module is TypeScript when the console runs from source (it is loaded
// through tsx, which a thread does not inherit from its parent) and JavaScript when built for packaging.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
