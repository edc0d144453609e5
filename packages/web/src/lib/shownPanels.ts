// Which of the GM's panels that ask the server were open last time on this
// device (ADR 86): each opens again as the GM left it, and a shut one stays
// shut and asks nothing. GM screen only (its panels import it).
import { useState } from 'preact/hooks';
import { deviceStore } from './recent.ts';

type Store = { getItem(key: string): string | null; setItem(key: string, value: string): void };

/** One key for every remembered panel: the list of those left open. */
export const SHOWN_KEY = 'tk.shownPanels';

function read(store: Store | null): string[] {
  try {
    const v: unknown = JSON.parse(store?.getItem(SHOWN_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether `panel` was left open on this device (never: shut). */
export function wasShown(panel: string, store: Store | null = deviceStore()): boolean {
  return read(store).includes(panel);
}

/** Remembers `panel` open or shut; a browser that keeps nothing (private mode) forgets it with the page. */
export function rememberShown(panel: string, shown: boolean, store: Store | null = deviceStore()): void {
  const rest = read(store).filter((p) => p !== panel);
  try {
    store?.setItem(SHOWN_KEY, JSON.stringify(shown ? [...rest, panel] : rest));
  } catch {
    // storage full or refused: the choice lasts for this page only
  }
}

/** A `<details>` panel's open state, starting as it was left on this device and remembered as it changes. */
export function useShown(panel: string): [boolean, (shown: boolean) => void] {
  const [shown, setShown] = useState(() => wasShown(panel));
  return [
    shown,
    (next) => {
      if (next === shown) return;
      setShown(next);
      rememberShown(panel, next);
    },
  ];
}
