// The GM's remembered panels as a hook (ADR 86); what is remembered lives in lib/shownPanels.ts.
import { useState } from 'preact/hooks';
import { rememberShown, wasShown } from '../lib/shownPanels.ts';

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
