/**
 * A page's state, kept while the analyst works elsewhere: in memory for the whole session (leaving Match assurance
 * for Maintenance and coming back finds the tab, the label set, the reports and the workbench as they were; opening
 * a review case and coming back finds the list as it was), and in the tab's sessionStorage for what may be written
 * down (reload finds them too). What may be written down is decided per item by its codec: labels are record
 * references, reports are aggregates and record references, a workbench verdict is two record references, and the
 * review list's view is filters and a page; the records' values (the workbench's pairs) are never written, only
 * kept in memory and drawn again on demand. A stored item that no longer parses is dropped, never trusted.
 */
import { useCallback, useState } from 'react';

export interface Codec<T> {
  readonly write: (value: T) => unknown;
  readonly read: (stored: unknown) => T | undefined;
}

const memory = new Map<string, unknown>();

/** The browser's sessionStorage (absent where the code runs outside a page). */
interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
function session(): KeyValueStorage | undefined {
  return (globalThis as { sessionStorage?: KeyValueStorage }).sessionStorage;
}

function storageKey(scope: string, name: string): string {
  return `mpi-console:page:${scope}:${name}`;
}

function readStored<T>(key: string, codec: Codec<T>): T | undefined {
  try {
    const raw = session()?.getItem(key) ?? null;
    if (raw === null) return undefined;
    return codec.read(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

function writeStored<T>(key: string, codec: Codec<T>, value: T): void {
  try {
    session()?.setItem(key, JSON.stringify(codec.write(value)));
  } catch {
    // Storage full or refused: the in-memory copy still serves this session.
  }
}

/** Like useState, but kept per connection (`scope`) across navigation, and across reload when a codec is given. */
export function usePageState<T>(
  scope: string,
  name: string,
  initial: T,
  codec?: Codec<T>,
): [T, (next: T | ((old: T) => T)) => void] {
  const key = storageKey(scope, name);
  const [value, setValue] = useState<T>(() => {
    if (memory.has(key)) return memory.get(key) as T;
    const stored = codec === undefined ? undefined : readStored(key, codec);
    return stored ?? initial;
  });
  const set = useCallback(
    (next: T | ((old: T) => T)) => {
      setValue((old) => {
        const resolved = typeof next === 'function' ? (next as (o: T) => T)(old) : next;
        memory.set(key, resolved);
        if (codec !== undefined) writeStored(key, codec, resolved);
        return resolved;
      });
    },
    [key, codec],
  );
  return [value, set];
}

/** Text as it is (the label set). */
export const TEXT_CODEC: Codec<string> = {
  write: (text) => text,
  read: (stored) => (typeof stored === 'string' ? stored : undefined),
};

/** A form field's value as its input holds it: a number, or the text being typed (a request's settings, no records). */
const FIELD_CODEC: Codec<number | string> = {
  write: (value) => value,
  read: (stored) => (typeof stored === 'number' || typeof stored === 'string' ? stored : undefined),
};

/** A number field of a request form, kept like usePageState across navigation and reload. */
export function useFieldState(
  scope: string,
  name: string,
  initial: number,
): [number | string, (next: number | string) => void] {
  return usePageState<number | string>(scope, name, initial, FIELD_CODEC);
}

/** The Match assurance page's names other pages write under: the label set, its review-queue origin (its text), the open tab. */
export const LABELS_STATE = 'labels';
export const REVIEW_QUEUE_LABELS_STATE = 'labels-review-queue';
export const TAB_STATE = 'tab';

/** Sets a kept value from outside the page (another page handing it labels): the page finds it when it opens. */
export function putPageState<T>(scope: string, name: string, value: T, codec?: Codec<T>): void {
  const key = storageKey(scope, name);
  memory.set(key, value);
  if (codec !== undefined) writeStored(key, codec, value);
}

/** A codec for JSON values checked by a schema's safeParse (zod), or by any guard. */
export function schemaCodec<T>(parse: (stored: unknown) => { success: true; data: T } | { success: false }): Codec<T> {
  return {
    write: (value) => value,
    read: (stored) => {
      const result = parse(stored);
      return result.success ? result.data : undefined;
    },
  };
}
