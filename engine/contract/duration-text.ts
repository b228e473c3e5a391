/**
 * A duration as the console's pages and the CLI say it: "under a second" (not "0 s", which reads as nothing done),
 * "42 s", "3 min 4 s", "1 h 2 min"; and a time left, "about 3 min 4 s". Browser-safe.
 */
export function durationText(ms: number): string {
  if (ms < 500) return 'under a second';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${String(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min ${String(seconds % 60)} s`;
  return `${String(Math.floor(minutes / 60))} h ${String(minutes % 60)} min`;
}

/** A time left: "under a second" or "about 3 min 4 s". */
export function remainingText(ms: number): string {
  return ms < 1000 ? 'under a second' : `about ${durationText(ms)}`;
}
