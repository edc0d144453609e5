// Reading world.ext.countdowns for display. The exact odds beside chase and
// dynamic countdowns are in countdown-odds.ts, loaded after the screen shows.
import type { Countdown, Chase, World, ticksFor } from '@tablekeeper/engine';

/** The five action-roll outcomes, as the engine's advancement table names them. */
export type DualityOutcome = Parameters<typeof ticksFor>[1];

export type Redacted = { readonly id: string; readonly name: string; readonly visibility: string; readonly redacted: true };
export type CountdownShown = Countdown | Redacted;

export interface CountdownsView {
  readonly countdowns: CountdownShown[];
  readonly chases: Chase[];
}

function rec(x: unknown): Record<string, unknown> | null {
  return x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}

function listOf<T>(x: unknown): T[] {
  if (Array.isArray(x)) return x as T[];
  const r = rec(x);
  return r ? (Object.values(r) as T[]) : [];
}

/** The countdowns module's state in this view; tolerant of either a map or a list. */
export function countdownsOf(world: World | undefined): CountdownsView {
  const st = rec(world?.ext?.['countdowns']);
  if (!st) return { countdowns: [], chases: [] };
  const map = rec(st['countdowns']);
  const order = Array.isArray(st['order']) ? (st['order'] as unknown[]) : [];
  // Creation order when the view carries it; the map's own order otherwise.
  const ordered = map && order.length > 0 ? order.map((id) => map[String(id)]).filter((c) => c !== undefined) : listOf<CountdownShown>(st['countdowns']);
  const countdowns = (ordered as CountdownShown[]).filter((c) => rec(c) !== null && typeof c.id === 'string');
  const chases = listOf<Chase>(st['chases']).filter((c) => rec(c) !== null && typeof c.id === 'string');
  return { countdowns, chases };
}

export function isRedacted(c: CountdownShown): c is Redacted {
  return (c as Redacted).redacted === true || typeof (c as Countdown).value !== 'number';
}

/** The commands that move a countdown to `to` from `from` (reveal and hide are separate, audited commands). */
export function visibilityCommand(countdownId: string, from: string, to: string): { type: string; countdownId: string; to: string } | null {
  if (from === to) return null;
  if (to === 'hidden') return { type: 'countdown.hide', countdownId, to };
  if (to === 'existence') return from === 'hidden' ? { type: 'countdown.reveal', countdownId, to } : { type: 'countdown.hide', countdownId, to };
  return { type: 'countdown.reveal', countdownId, to };
}

export function pct(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p > 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}
