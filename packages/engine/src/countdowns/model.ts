// The countdown model as pure functions: kinds, the Dynamic Countdown
// Advancement table, randomized starts, trigger and reset rules. Source:
// /work/shared/rules/000_5382b28a932eafef.txt ("Countdowns" and its sections).
// The 'countdowns' Module (module.ts) turns these into events.
import { DUALITY_OUTCOMES, type DualityOutcome } from '../dice/index.js';
import type { Rng } from '../dice/rng.js';
import type { Result, RuleError, Visibility } from '../core/types.js';
import { VISIBILITIES as CORE_VISIBILITIES } from '../core/visibility.js';

/**
 * How a countdown advances:
 * - standard: one tick per action roll, whatever the result ("Standard Countdown");
 * - progress / consequence: ticks by the roll's outcome ("Dynamic Countdown");
 * - longTerm: ticks on rests (once per short rest, twice per long rest) ("Long-Term Countdowns");
 * - manual: only the GM ticks it (an event the table tracks by hand).
 */
export type CountdownKind = 'standard' | 'progress' | 'consequence' | 'longTerm' | 'manual';
export const COUNTDOWN_KINDS: readonly CountdownKind[] = ['standard', 'progress', 'consequence', 'longTerm', 'manual'];

/** What happens after it triggers ("Loop", "Increasing or Decreasing"); 'once' ends it. */
export type CountdownRepeat = 'once' | 'loop' | 'increasing' | 'decreasing';
export const COUNTDOWN_REPEATS: readonly CountdownRepeat[] = ['once', 'loop', 'increasing', 'decreasing'];

export const VISIBILITIES: readonly Visibility[] = CORE_VISIBILITIES;

export type CountdownStatus = 'active' | 'paused' | 'ended';
/** Why an ended countdown ended. 'finalEvent' = a decreasing countdown's reset reached 0. */
export type EndReason = 'triggered' | 'finalEvent' | 'chaseOver';

/** The five duality outcomes the advancement table is keyed on (the dice layer's list). */
export const OUTCOMES: readonly DualityOutcome[] = DUALITY_OUTCOMES;

/**
 * "Dynamic Countdown Advancement" (000): ticks per action roll outcome, both
 * columns as the table gives them.
 */
export const DYNAMIC_ADVANCEMENT: { readonly [o in DualityOutcome]: { readonly progress: number; readonly consequence: number } } = {
  failureWithFear: { progress: 0, consequence: 2 },
  failureWithHope: { progress: 0, consequence: 1 },
  successWithFear: { progress: 1, consequence: 1 },
  successWithHope: { progress: 2, consequence: 0 },
  critical: { progress: 3, consequence: 0 },
};

/** How many ticks one action roll with `outcome` gives a countdown of `kind`. */
export function ticksFor(kind: CountdownKind, outcome: DualityOutcome): number {
  switch (kind) {
    case 'standard':
      return 1;
    case 'progress':
      return DYNAMIC_ADVANCEMENT[outcome].progress;
    case 'consequence':
      return DYNAMIC_ADVANCEMENT[outcome].consequence;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------- limits

/** Largest starting value or value a countdown may hold (a d100 is the biggest die anyone reaches for). */
export const MAX_COUNTDOWN_VALUE = 100;
/** "usually between 4 and 12 ticks" (000, "Long-Term Countdowns"). */
export const LONG_TERM_MIN = 4;
export const LONG_TERM_MAX = 12;
export const MAX_TEXT = 500;
export const MAX_NAME = 80;
export const MAX_COUNTDOWNS = 200;
export const MAX_FORMULA_DICE = 10;
export const MAX_FORMULA_SIDES = 100;
export const MAX_TICKS_PER_COMMAND = 100;

// ---------------------------------------------------------------- records

/** A rolled starting value ("Randomized Starting Value"), kept so replay never rerolls. */
export type StartRoll = {
  readonly formula: string;
  readonly sides: number;
  readonly dice: readonly number[];
  readonly bonus: number;
  readonly total: number;
};

/** A long-term countdown's story beat, happening when the value reaches `at`. */
export type Beat = {
  readonly at: number;
  readonly text: string;
  /** "the party can learn of this": the GM means news of it to reach the PCs. */
  readonly partyCanLearn: boolean;
};

export type Countdown = {
  readonly id: string;
  readonly name: string;
  readonly kind: CountdownKind;
  readonly repeat: CountdownRepeat;
  /** The value it resets to; moves by one per reset for increasing / decreasing. */
  readonly start: number;
  readonly value: number;
  /** The formula a randomized countdown rolled ("1d6"), or null for a fixed start. */
  readonly startDie: string | null;
  readonly startRoll: StartRoll | null;
  /** A randomized loop rerolls its starting value at each reset (off: it keeps the first roll). */
  readonly rerollOnReset: boolean;
  readonly status: CountdownStatus;
  readonly endReason: EndReason | null;
  readonly visibility: Visibility;
  /** Times it has triggered. */
  readonly triggers: number;
  readonly activation: string;
  readonly advancement: string;
  readonly effect: string;
  /** A decreasing countdown's major event when its reset would reach 0. */
  readonly finalEffect: string;
  readonly beats: readonly Beat[];
  /** Ticks per short rest and per long rest (long-term: 1 and 2). */
  readonly restTicks: { readonly shortRest: number; readonly longRest: number };
  readonly chaseId: string | null;
  /** The other countdown of a chase pair. */
  readonly linkedTo: string | null;
};

export type Chase = {
  readonly id: string;
  readonly name: string;
  /** The PCs' countdown (progress) and the other party's (consequence). */
  readonly progressId: string;
  readonly consequenceId: string;
  /** Who the PCs are in this chase (the text allows either). */
  readonly pcs: 'pursuing' | 'escaping';
  readonly result: ChaseResult | null;
};

/** 'pcs' = the PCs' progress countdown triggered first; 'other' = the other party's; 'both' = on one roll. */
export type ChaseResult = 'pcs' | 'other' | 'both';

// ---------------------------------------------------------------- errors

export function ruleErr<T = never>(code: string, message: string, path?: string): Result<T> {
  const error: RuleError = path === undefined ? { code, message } : { code, message, path };
  return { ok: false, error };
}
function okv<T>(value: T): Result<T> {
  return { ok: true, value };
}

// ---------------------------------------------------------------- randomized start

export type DiceFormula = { readonly count: number; readonly sides: number; readonly bonus: number; readonly text: string };

/** Parses "d6", "1d6", "2d4+1" (the only shapes a countdown start needs). */
export function parseStartDie(formula: unknown, path = 'startDie'): Result<DiceFormula> {
  if (typeof formula !== 'string') return ruleErr('COUNTDOWN_BAD_DIE', 'startDie must be a dice formula such as "1d6"', path);
  const m = /^\s*(\d*)\s*d\s*(\d+)\s*(?:\+\s*(\d+))?\s*$/i.exec(formula);
  if (m === null) return ruleErr('COUNTDOWN_BAD_DIE', `"${formula.slice(0, 20)}" is not a dice formula such as "1d6" or "2d4+1"`, path);
  const count = m[1] === '' ? 1 : Number(m[1]);
  const sides = Number(m[2]);
  const bonus = m[3] === undefined ? 0 : Number(m[3]);
  if (count < 1 || count > MAX_FORMULA_DICE) return ruleErr('COUNTDOWN_BAD_DIE', `a start formula rolls 1 to ${MAX_FORMULA_DICE} dice`, path);
  if (sides < 2 || sides > MAX_FORMULA_SIDES) return ruleErr('COUNTDOWN_BAD_DIE', `a start die has 2 to ${MAX_FORMULA_SIDES} sides`, path);
  if (count * sides + bonus > MAX_COUNTDOWN_VALUE) return ruleErr('COUNTDOWN_BAD_DIE', `a start formula may total at most ${MAX_COUNTDOWN_VALUE}`, path);
  return okv({ count, sides, bonus, text: `${count}d${sides}${bonus > 0 ? `+${bonus}` : ''}` });
}

export function rollStart(f: DiceFormula, rng: Rng): StartRoll {
  const dice: number[] = [];
  for (let i = 0; i < f.count; i++) dice.push(rng.die(f.sides));
  return { formula: f.text, sides: f.sides, dice, bonus: f.bonus, total: dice.reduce((a, b) => a + b, 0) + f.bonus };
}

// ---------------------------------------------------------------- ticking

export type TickStep = { readonly from: number; readonly to: number; readonly triggered: boolean };

/** Ticks `amount` down from `value`: never below 0; triggers when it goes from >= 1 to 0. */
export function tickValue(value: number, amount: number): TickStep {
  const to = Math.max(0, value - Math.max(0, amount));
  return { from: value, to, triggered: value > 0 && to === 0 };
}

/**
 * What follows a trigger: a reset (loop, increasing, decreasing) or the end.
 * A decreasing countdown whose reset value would be 0 ends with its major
 * event ("Increasing or Decreasing": the cave collapses when it resets to 0).
 * Overflow ticks past 0 do not carry into the next cycle (the text resets to
 * the starting value).
 */
export type AfterTrigger =
  | { readonly kind: 'reset'; readonly fromStart: number; readonly start: number }
  | { readonly kind: 'end'; readonly reason: 'triggered' | 'finalEvent' };

export function afterTrigger(cd: Pick<Countdown, 'repeat' | 'start'>): AfterTrigger {
  switch (cd.repeat) {
    case 'loop':
      return { kind: 'reset', fromStart: cd.start, start: cd.start };
    case 'increasing':
      return { kind: 'reset', fromStart: cd.start, start: Math.min(MAX_COUNTDOWN_VALUE, cd.start + 1) };
    case 'decreasing':
      return cd.start - 1 <= 0 ? { kind: 'end', reason: 'finalEvent' } : { kind: 'reset', fromStart: cd.start, start: cd.start - 1 };
    default:
      return { kind: 'end', reason: 'triggered' };
  }
}

/** Beats a move from `from` to `to` newly reaches (values only: a beat at k is reached at value <= k). */
export function beatsReached(beats: readonly Beat[], from: number, to: number): Beat[] {
  return beats.filter((b) => b.at < from && b.at >= to);
}

/** Total ticks until a decreasing countdown's final event, from a fresh start `s`: s + (s-1) + ... + 1. */
export function decreasingTotalTicks(start: number): number {
  return (start * (start + 1)) / 2;
}

// ---------------------------------------------------------------- visibility

/** Whether players and spectators may read the countdown's values right now. */
export function publicValues(cd: Pick<Countdown, 'visibility' | 'triggers'>): boolean {
  return cd.visibility === 'visible' || (cd.visibility === 'reveal-on-trigger' && cd.triggers > 0);
}

/** Whether players and spectators may know the countdown exists (and its name). */
export function publicExistence(cd: Pick<Countdown, 'visibility'>): boolean {
  return cd.visibility !== 'hidden';
}

/**
 * A countdown as players and spectators may see it, or null if they may not
 * know of it. Existence-only shows the id and name; visible shows the rest,
 * except beats not yet reached or not flagged "the party can learn of this"
 * (those are the GM's plans).
 */
export function redactCountdown(cd: Countdown): Countdown | { readonly id: string; readonly name: string; readonly visibility: Visibility; readonly redacted: true } | null {
  if (!publicExistence(cd)) return null;
  if (!publicValues(cd)) return { id: cd.id, name: cd.name, visibility: cd.visibility, redacted: true };
  // Field by field (ADR 25): a field this list does not name stays with the GM.
  const r = cd.startRoll;
  return {
    id: cd.id,
    name: cd.name,
    kind: cd.kind,
    repeat: cd.repeat,
    start: cd.start,
    value: cd.value,
    startDie: cd.startDie,
    startRoll: r === null ? null : { formula: r.formula, sides: r.sides, dice: r.dice.filter((x) => typeof x === 'number'), bonus: r.bonus, total: r.total },
    rerollOnReset: cd.rerollOnReset,
    status: cd.status,
    endReason: cd.endReason,
    visibility: cd.visibility,
    triggers: cd.triggers,
    activation: cd.activation,
    advancement: cd.advancement,
    effect: cd.effect,
    finalEffect: cd.finalEffect,
    beats: cd.beats.filter((b) => b.partyCanLearn && cd.value <= b.at).map((b) => ({ at: b.at, text: b.text, partyCanLearn: b.partyCanLearn })),
    restTicks: { shortRest: cd.restTicks.shortRest, longRest: cd.restTicks.longRest },
    chaseId: cd.chaseId,
    linkedTo: cd.linkedTo,
  };
}

/** A chase as players may read it, field by field; who won only when both sides' values are theirs to read. */
export function shownChase(ch: Chase, resultShown: boolean): Chase {
  return { id: ch.id, name: ch.name, progressId: ch.progressId, consequenceId: ch.consequenceId, pcs: ch.pcs, result: resultShown ? ch.result : null };
}
