// Which of the GM's panels that ask the server were open last time on this
// device (ADR 86): each opens again as the GM left it, and a shut one stays
// shut and asks nothing. GM screen only (components/shown.ts reads it).
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
