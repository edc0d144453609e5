// Reading world.ext.countdowns for display, and the exact odds shown next to
// chase and dynamic countdowns (computed in the browser by the pure engine).
import { chaseOdds, countdownOdds, ticksFor, triggerWithin, type Countdown, type Chase, type OutcomeSource, type World } from '@tablekeeper/engine';

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

/** "42% <name> first": the chase's odds from the current values, or null if it cannot be computed. */
export function chaseLine(chase: Chase, byId: Map<string, CountdownShown>, source: OutcomeSource): { pcs: string; other: string; both: string; expected: string } | null {
  const p = byId.get(chase.progressId);
  const c = byId.get(chase.consequenceId);
  if (!p || !c || isRedacted(p) || isRedacted(c) || chase.result !== null) return null;
  if (p.value < 1 || c.value < 1) return null;
  const r = chaseOdds({ progress: p.value, consequence: c.value }, source);
  if (!r.ok) return null;
  return {
    pcs: `${pct(r.value.progressFirst)} ${p.name}`,
    other: `${pct(r.value.consequenceFirst)} ${c.name}`,
    both: r.value.sameRoll > 0 ? `${pct(r.value.sameRoll)} both on one roll` : '',
    expected: Number.isFinite(r.value.expectedRolls) ? `${r.value.expectedRolls.toFixed(1)} rolls expected` : '',
  };
}

/** For a lone dynamic countdown: its chance to trigger within 3 rolls and the expected number of rolls. */
export function dynamicLine(cd: Countdown, source: OutcomeSource): string | null {
  // A standard countdown ticks once per roll whatever happens: nothing to estimate.
  if (cd.kind !== 'progress' && cd.kind !== 'consequence') return null;
  if (cd.status !== 'active' || cd.value < 1) return null;
  const r = countdownOdds({ value: cd.value, advance: cd.kind }, source);
  if (!r.ok) return null;
  const within = triggerWithin(r.value, 3);
  const exp = Number.isFinite(r.value.expectedRolls) ? `, ${r.value.expectedRolls.toFixed(1)} rolls expected` : '';
  return `${pct(within)} it triggers within 3 rolls${exp}`;
}

export function pct(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p > 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}
