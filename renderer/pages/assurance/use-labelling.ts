/**
 * Labelling pairs one after another, by keyboard or button, as the workbench and the registry audit do: the pair
 * shown holds the focus after every draw and verdict (so the keys work at once, also after a button), M / N / U give
 * a verdict and move to the next pair without one, Backspace or P goes back and undoes that pair's verdict. Keys
 * work anywhere inside the pair, but not while typing in a field or with a modifier (browser and screen-reader keys).
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import {
  nextUnlabelled,
  withVerdict,
  withoutVerdict,
  type KeptVerdict,
  type PairRefs,
  type Verdict,
} from './workbench-labels.ts';

export interface Labelling<P> {
  /** The pair shown (undefined once every pair has a verdict). */
  readonly pair: P | undefined;
  /** The element holding the pair: give it tabIndex 0 and onKeyDown. */
  readonly surface: RefObject<HTMLDivElement | null>;
  readonly label: (verdict: Verdict) => void;
  readonly previous: () => void;
  readonly onKey: (event: KeyboardEvent<HTMLDivElement>) => void;
}

export function useLabelling<P extends PairRefs>(
  pairs: readonly P[],
  verdicts: ReadonlyMap<string, KeptVerdict>,
  setVerdicts: (next: Map<string, KeptVerdict> | ((old: Map<string, KeptVerdict>) => Map<string, KeptVerdict>)) => void,
  index: number,
  setIndex: (next: number) => void,
): Labelling<P> {
  const surface = useRef<HTMLDivElement>(null);
  const pair = pairs[index];
  useEffect(() => {
    if (pair !== undefined) surface.current?.focus();
  }, [pairs.length, pair]);
  const label = (verdict: Verdict): void => {
    if (pair === undefined) return;
    const next = withVerdict(verdicts, pair, verdict);
    setVerdicts(next);
    setIndex(nextUnlabelled(pairs, next, index + 1));
  };
  const previous = (): void => {
    if (index === 0) return;
    const earlier = pairs[index - 1];
    if (earlier !== undefined) setVerdicts((old) => withoutVerdict(old, earlier));
    setIndex(index - 1);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const target = event.target as HTMLElement;
    if (
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) ||
      target.isContentEditable
    )
      return;
    const key = event.key.toLowerCase();
    if (key === 'm') label('match');
    else if (key === 'n') label('non-match');
    else if (key === 'u') label('unsure');
    else if (key === 'backspace' || key === 'p') previous();
    else return;
    event.preventDefault();
  };
  return { pair, surface, label, previous, onKey };
}
