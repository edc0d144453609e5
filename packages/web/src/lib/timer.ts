// The turn timer on screen (issue 20, ADR 29): time left from the server's
// recorded start and this page's estimate of the server clock (set at every
// welcome, so a reload or reconnect counts on from the same start).
import { timeLeftMs, type TimerState } from '@tablekeeper/engine/timer';

let offsetMs = 0;

/** The welcome said the server's clock read `serverTime` when this page's read `localTime`. */
export function setServerClock(serverTime: number, localTime: number): void {
  offsetMs = serverTime - localTime;
}

/** The server's clock now, as this page estimates it. */
export const serverNow = (local = Date.now()): number => local + offsetMs;

/** "0:42", "12:05"; over time reads "+0:07 over". */
export function clockText(ms: number): string {
  const over = ms < 0;
  const total = Math.ceil(Math.abs(ms) / 1000);
  const text = `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
  return over ? `+${text} over` : text;
}

/** What the tracker shows for the acting combatant, or null when no turn time runs. */
export function timerText(t: TimerState, now: number): { readonly text: string; readonly over: boolean; readonly paused: boolean } | null {
  const left = timeLeftMs(t, now);
  if (left === null) return null;
  return { text: clockText(left), over: left < 0, paused: t.pausedAt !== null };
}

/** The GM's choices of time per turn (0 = off). */
export const TURN_TIMES: readonly (readonly [number, string])[] = [
  [0, 'Off'],
  [30, '30 s'],
  [60, '1 min'],
  [90, '1 min 30 s'],
  [120, '2 min'],
  [300, '5 min'],
];
