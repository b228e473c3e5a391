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

/** The current hash, to hand to `navigateUnlessMoved` once a long call ends. */
export function currentHash(): string {
  return window.location.hash;
}

/**
 * Goes to `hash` after a call that began on `from`, unless the person chose another page while it ran: opening a
 * sandbox then lands on Maintenance, but never pulls someone away from the page they went to meanwhile.
 */
export function navigateUnlessMoved(from: string, hash: string): void {
  if (window.location.hash === from) navigate(hash);
}
