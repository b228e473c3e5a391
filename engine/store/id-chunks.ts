/**
 * An IN list over many IDs (or other values), one statement per chunk: `each` gets every `size` IDs in turn with the
 * placeholders of that many ("?, ?, …"). SQLite caps a statement's parameters, and a chunk's statement text is cached
 * per length.
 */
export function forIdChunks<T extends number | string>(
  ids: readonly T[],
  size: number,
  each: (part: readonly T[], placeholders: string) => void,
): void {
  for (let start = 0; start < ids.length; start += size) {
    const part = ids.slice(start, start + size);
    each(part, part.map(() => '?').join(', '));
  }
}
