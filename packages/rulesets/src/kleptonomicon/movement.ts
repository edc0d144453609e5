// 004 "Movement", "Interrupted Movement", "The Dash Ability": movement styles
// with their own caps, one shared pool per turn, Dash multipliers, Prone.
// Pure functions over a per-turn record; the module stores it in events.
import type { RuleError } from '@tablekeeper/engine';

export type StyleVariant = 'half' | 'normal' | 'double';

export interface MovementStyle {
  /** walk, jump, climb, swim, fly, levitate, or a table's own style. */
  readonly style: string;
  readonly variant: StyleVariant;
  /** Granted by the GM for this turn (improvised movement). */
  readonly improvised?: boolean;
}

/** A style moves a Spitting Distance (4u) by default; Half is 2u, Double 8u. */
export const BASE_STYLE_UNITS = 4;
const VARIANT_FACTOR: Record<StyleVariant, number> = { half: 0.5, normal: 1, double: 2 };

export function styleCapacity(s: MovementStyle): number {
  return BASE_STYLE_UNITS * VARIANT_FACTOR[s.variant];
}

/** The pool for a turn: what the largest style on the sheet could cover. */
export function movementPool(styles: readonly MovementStyle[]): number {
  return styles.reduce((m, s) => Math.max(m, styleCapacity(s)), 0);
}

/** What happens when a creature's active style is interrupted ("Interrupted Movement", the common styles). */
export type InterruptEffect = 'none' | 'fall' | 'float' | 'sink';

export function interruptEffect(style: string, opts: { readonly heavy?: boolean } = {}): InterruptEffect {
  switch (style) {
    case 'climb':
    case 'fly':
      return 'fall';
    case 'swim':
      // More than half the Good spots filled (or a heavy non-buoyant load) sinks 2u a turn; otherwise float up 1u.
      return opts.heavy === true ? 'sink' : 'float';
    default:
      // Walk, Jump and Levitate describe no interrupted effect.
      return 'none';
  }
}

export const DRIFT_PER_TURN: Record<'float' | 'sink', number> = { float: 1, sink: 2 };

/** One combatant's movement for the current turn. */
export interface TurnMovement {
  readonly styles: readonly MovementStyle[];
  /** 1 normally; 2 after a Dash; 3 after a passed second Dash. */
  readonly multiplier: number;
  /** Units of movement spent per style this turn. */
  readonly used: { readonly [style: string]: number };
  /** Units spent from the shared pool this turn. */
  readonly spent: number;
  readonly active: string;
  readonly prone: boolean;
  /** Styles interrupted this turn (unusable until the next turn). */
  readonly interrupted: readonly string[];
}

export function startTurnMovement(styles: readonly MovementStyle[], prone: boolean): TurnMovement {
  const walk = styles.find((s) => s.style === 'walk');
  return { styles, multiplier: 1, used: {}, spent: 0, active: walk !== undefined ? 'walk' : (styles[0]?.style ?? 'walk'), prone, interrupted: [] };
}

const bad = (code: string, message: string, path?: string): RuleError => (path === undefined ? { code, message } : { code, message, path });

export function styleLeft(tm: TurnMovement, style: string): number {
  const s = tm.styles.find((x) => x.style === style);
  if (s === undefined || tm.interrupted.includes(style)) return 0;
  return styleCapacity(s) * tm.multiplier - (tm.used[style] ?? 0);
}

export function poolLeft(tm: TurnMovement): number {
  // Only the sheet's own styles set the cap; a GM-granted style draws on the same pool.
  return movementPool(tm.styles.filter((s) => s.improvised !== true)) * tm.multiplier - tm.spent;
}

/** Movement units a move of `units` costs: walking while Prone halves movement, so each unit costs two. */
export function moveCost(tm: TurnMovement, style: string, units: number): number {
  return style === 'walk' && tm.prone ? units * 2 : units;
}

export function planMove(tm: TurnMovement, style: string, units: number): { ok: true; value: TurnMovement } | { ok: false; error: RuleError } {
  if (!Number.isFinite(units) || units <= 0 || units > 1000) return { ok: false, error: bad('BAD_DISTANCE', 'units must be a positive number of at most 1000', 'units') };
  const s = tm.styles.find((x) => x.style === style);
  if (s === undefined) return { ok: false, error: bad('NO_SUCH_STYLE', `no ${style} movement style on this sheet (the GM may grant an improvised one)`, 'style') };
  if (tm.interrupted.includes(style)) return { ok: false, error: bad('STYLE_INTERRUPTED', `${style} was interrupted this turn`, 'style') };
  if (tm.prone && style !== 'walk') return { ok: false, error: bad('PRONE', 'stand up first: while Prone only Walk can be used', 'style') };
  const cost = moveCost(tm, style, units);
  if (cost > styleLeft(tm, style)) return { ok: false, error: bad('STYLE_EXHAUSTED', `${style} has ${styleLeft(tm, style)}u left this turn; this move costs ${cost}u`, 'units') };
  if (cost > poolLeft(tm)) return { ok: false, error: bad('POOL_EXHAUSTED', `${poolLeft(tm)}u of movement left this turn; this move costs ${cost}u`, 'units') };
  return { ok: true, value: { ...tm, used: { ...tm.used, [style]: (tm.used[style] ?? 0) + cost }, spent: tm.spent + cost, active: style } };
}

/** Standing up is free but spends a Swinging Distance (1u) of Walk movement. */
export function planStand(tm: TurnMovement): { ok: true; value: TurnMovement } | { ok: false; error: RuleError } {
  if (!tm.prone) return { ok: false, error: bad('NOT_PRONE', 'not Prone') };
  const standing = { ...tm, prone: false };
  const r = planMove(standing, 'walk', 1);
  if (!r.ok) return { ok: false, error: bad('CANNOT_STAND', `standing needs 1u of Walk movement: ${r.error.message}`) };
  return r;
}

/** Dropping Prone is free while walking. */
export function planDropProne(tm: TurnMovement): { ok: true; value: TurnMovement } | { ok: false; error: RuleError } {
  if (tm.prone) return { ok: false, error: bad('ALREADY_PRONE', 'already Prone') };
  if (tm.active !== 'walk') return { ok: false, error: bad('NOT_WALKING', `Prone needs Walk to be the active style (now ${tm.active})`) };
  return { ok: true, value: { ...tm, prone: true } };
}

/** A GM-granted improvised style for this turn: the Half variant unless the GM says otherwise. */
export function grantStyle(tm: TurnMovement, style: string, variant: StyleVariant = 'half'): TurnMovement {
  const rest = tm.styles.filter((s) => s.style !== style);
  // The pool is fixed by the sheet's largest style at the start of the turn; a granted style uses that pool.
  return { ...tm, styles: [...rest, { style, variant, improvised: true }] };
}

export function interruptStyle(tm: TurnMovement, style: string): TurnMovement {
  return tm.interrupted.includes(style) ? tm : { ...tm, interrupted: [...tm.interrupted, style] };
}

/** How a Dash resolves: the first in a round doubles; a second needs an Athletics Test (pass: triple, fail: Slowed). */
export type DashOutcome = { readonly kind: 'doubled' } | { readonly kind: 'tripled' } | { readonly kind: 'slowed' };

export function planDash(
  tm: TurnMovement,
  dashesThisRound: number,
  athletics: { readonly passed: boolean } | null,
): { ok: true; value: { movement: TurnMovement; outcome: DashOutcome } } | { ok: false; error: RuleError } {
  if (dashesThisRound === 0) return { ok: true, value: { movement: { ...tm, multiplier: Math.max(tm.multiplier, 2) }, outcome: { kind: 'doubled' } } };
  if (dashesThisRound === 1) {
    if (athletics === null) return { ok: false, error: bad('TEST_REQUIRED', 'a second Dash in a round needs an Athletics Test first', 'athletics') };
    return athletics.passed
      ? { ok: true, value: { movement: { ...tm, multiplier: 3 }, outcome: { kind: 'tripled' } } }
      : { ok: true, value: { movement: tm, outcome: { kind: 'slowed' } } };
  }
  // The text stops at the second Dash; we do not invent a fourfold one.
  return { ok: false, error: bad('DASH_LIMIT', 'at most two Dashes per round') };
}
