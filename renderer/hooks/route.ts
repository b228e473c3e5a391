/** The current hash route as React state, and navigation. */
import { useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './route-paths.ts';

export { parseRoute, paths, type Route } from './route-paths.ts';

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => {
    window.removeEventListener('hashchange', listener);
  };
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}

export function navigate(hash: string): void {
  window.location.hash = hash;
}
