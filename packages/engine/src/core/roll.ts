// dice.roll: a table roll made by the engine, not the browser. The dice are
// drawn from the injected Rng inside decide and the whole record (every die,
// kept or dropped, explosions, total, comparison) goes into `dice.rolled`, so
// nobody can type a result in, and replay never rerolls.
import { own } from './own.js';
import type { DiceRollResult } from '../dice/compile.js';
import { DiceError } from '../dice/errors.js';
import type { DiceLimits } from '../dice/limits.js';
import { rollDice } from '../dice/notation.js';
import { costUnits, notationCost, type DiceCost } from '../dice/cost.js';
import { isNamedRoll, rollNamed, type NamedOutcome, type NamedRollResult } from '../dice/named-notation.js';
import type { D20Roll, DualityRoll, KleptoTestRoll, LuckTestRoll, TeamTestRoll, ThreeD6Roll } from '../dice/named.js';
import { appendLog } from './log.js';
import type { PayloadOf } from './catalog.js';
import type { diceRoll } from './declarations.js';
import { asJson, memberOf, stored } from './events.js';
import type { DiceRolled } from './events-core.js';
import { err, ErrorCode, ok } from './result.js';
import type { Audience, Command, EngineEvent, Env, Json, Result, World } from './types.js';
import { AUDIENCE_ALL, AUDIENCE_GM, seatAudience } from './visibility.js';

/** Longest notation a table roll accepts (the dice layer's own cap is far larger). */
export const MAX_ROLL_NOTATION = 200;
export const MAX_ROLL_LABEL = 100;
/**
 * The dice layer's limits, tightened: every die of a table roll is stored in
 * the event and the log for the life of the table, so a roll stays small
 * (at most 100 dice, 20 extra rolls per exploding die).
 */
export const TABLE_ROLL_LIMITS: Partial<DiceLimits> = Object.freeze({ maxLength: MAX_ROLL_NOTATION, maxDice: 100, maxExplodeDepth: 20 });
/** How many dice a log sentence lists before it says "…" (the entry's data keeps them all). */
const TEXT_DICE = 30;

/** Where a roll may be read: everyone, or the GM (plus the roller, when a player rolls for the GM). */
export type RollAudience = 'table' | 'gm';

/** One die as the log's data carries it (flattened across the expression's dice terms). */
export interface LoggedDie {
  readonly sides: number;
  readonly value: number;
  readonly kept: boolean;
  readonly exploded: boolean;
  readonly rerolled: boolean;
  readonly rolls?: readonly number[];
  /** Success counting: the die counted +1 (success) or -1 (failure). */
  readonly outcome?: 'success' | 'failure';
  /** What a named roll's die is for ("hope", "fear", "luck"...), when it has a part to play. */
  readonly role?: string;
}

function notationError(e: DiceError, lead: number): Result<never> {
  const column = e.position + lead;
  const code = e.code === 'LIMIT' ? ErrorCode.LIMIT_EXCEEDED : ErrorCode.BAD_NOTATION;
  return { ok: false, error: { code, message: `${e.message} (column ${column + 1})`, path: 'notation', column } };
}

/**
 * What a `dice.roll` command may cost the server, read before it is decided
 * (ADR 25): null when it has no notation or the notation does not parse, as
 * decide then refuses it without rolling.
 */
export function tableRollCost(c: Command): DiceCost | null {
  const raw = c['notation'];
  if (typeof raw !== 'string' || raw.length > MAX_ROLL_NOTATION) return null;
  try {
    return notationCost(raw, TABLE_ROLL_LIMITS);
  } catch (e) {
    if (e instanceof DiceError) return null;
    throw e;
  }
}

/**
 * What a table roll really cost, once rolled (ADR 33): its worst case's
 * compile-time work (plans, faces, groups) with the throws and die records
 * its `dice.rolled` event holds in place of their caps. A named roll, or
 * events without a plain roll, cost the worst case.
 */
export function rolledCost(worst: DiceCost, events: readonly EngineEvent[]): number {
  const rolled = memberOf<DiceRolled, 'dice.rolled'>(events.find((e) => e.type === 'dice.rolled'), 'dice.rolled')?.roll;
  if (rolled === undefined || !Array.isArray(rolled.dice)) return worst.units;
  let records = 0;
  let draws = 0;
  for (const g of rolled.dice) {
    records += g.dice.length;
    for (const d of g.dice) draws += d.rolls?.length ?? 1;
  }
  return Math.min(worst.units, costUnits({ ...worst, draws: Math.min(draws, worst.draws), records: Math.min(records, worst.records) }));
}

/** A dice.roll payload as its declaration parsed it. */
export type TableRoll = PayloadOf<typeof diceRoll>;

export function decideRoll(_world: World, p: TableRoll, env: Env): Result<EngineEvent[]> {
  const raw = p.notation;
  if (raw.length > MAX_ROLL_NOTATION)
    return { ok: false, error: { code: ErrorCode.LIMIT_EXCEEDED, message: `a table roll's notation may be at most ${MAX_ROLL_NOTATION} characters`, path: 'notation', column: MAX_ROLL_NOTATION } };
  const notation = raw.trim();
  if (notation === '') return err(ErrorCode.INVALID_VALUE, 'notation is empty', 'notation');
  const audience = p.audience ?? 'table';
  // A label is shown beside the roll: trimmed, and not blank when given.
  const label = p.label?.trim();
  if (label === '') return err(ErrorCode.INVALID_VALUE, 'label must have at least 1 character(s)', 'label');
  let roll: DiceRollResult | null = null;
  let named: NamedRollResult | null = null;
  try {
    // A system's own roll by name ("duality+2 vs 15 adv", "way+5 adv2 vs 14"), else plain notation.
    if (isNamedRoll(notation)) named = rollNamed(notation, env.rng, TABLE_ROLL_LIMITS);
    else roll = rollDice(notation, env.rng, TABLE_ROLL_LIMITS);
  } catch (e) {
    // Columns count from the notation as sent, leading spaces included, so a client's caret lines up.
    if (e instanceof DiceError) return notationError(e, raw.length - raw.trimStart().length);
    throw e;
  }
  const seatId = env.actor.role === 'player' ? env.actor.seatId : null;
  if (seatId === null && env.actor.role !== 'gm') return err(ErrorCode.FORBIDDEN, 'only the GM or a seated player may roll at the table');
  // A player's roll "for the GM" is read by the GM and that player; the GM's secret roll by the GM alone.
  const to: Audience = audience === 'table' ? AUDIENCE_ALL : seatId !== null ? seatAudience(seatId) : AUDIENCE_GM;
  const base = { type: 'dice.rolled', by: seatId ?? 'gm', audience: to, ...(label === undefined ? {} : { label }) } as const;
  return ok([stored<DiceRolled>(named !== null ? { ...base, named } : { ...base, roll: roll! })]);
}

export function flatDice(roll: DiceRollResult): LoggedDie[] {
  return roll.dice.flatMap((g) =>
    g.dice.map((d) => {
      const die: LoggedDie = { sides: g.sides, value: d.value, kept: d.kept, exploded: d.exploded, rerolled: d.rerolled };
      // Success counting (`10d10>=8`): which dice counted, for the log's marks.
      const counted = d.outcome === undefined || d.outcome === 'neutral' ? die : { ...die, outcome: d.outcome };
      return d.rolls === undefined ? counted : { ...counted, rolls: d.rolls };
    }),
  );
}

/** "6", "~1~" for a dropped die, "6!" for one that exploded (its value already holds the chain). */
function faceText(d: LoggedDie): string {
  const v = `${d.value}${d.exploded ? '!' : ''}${d.outcome === 'success' ? '*' : d.outcome === 'failure' ? '_' : ''}`;
  return d.kept ? v : `~${v}~`;
}

export function rollerName(world: World, by: string): string {
  return by === 'gm' ? 'The GM' : (own(world.seats, by)?.name ?? 'A player');
}

const die = (sides: number, value: number, kept: boolean, role?: string): LoggedDie => (role === undefined ? { sides, value, kept, exploded: false, rerolled: false } : { sides, value, kept, exploded: false, rerolled: false, role });

/** A named roll's dice as the log lists them, each with its part (Hope, Fear, luck...) where it has one. */
export function namedDice(n: NamedRollResult): LoggedDie[] {
  switch (n.spec.kind) {
    case 'duality': {
      const r = n.roll as DualityRoll;
      return [die(12, r.hope, true, 'hope'), die(12, r.fear, true, 'fear'), ...r.advantageDice.map((v) => die(6, v, true, r.advantageSign < 0 ? 'disadvantage' : 'advantage'))];
    }
    case 'way':
      return (n.roll as ThreeD6Roll).dice.map((d) => die(6, d.value, d.kept));
    case 'klepto': {
      const r = n.roll as KleptoTestRoll;
      return r.dice.map((d, i) => die(10, d.face, i === r.chosen, d.critical === null ? undefined : `critical ${d.critical}`));
    }
    case 'team': {
      const r = n.roll as TeamTestRoll;
      const sets = r.sets.flatMap((s, i) => [die(n.spec.attributeDie, s.attribute, i === r.chosen, 'attribute'), ...(s.skill === null ? [] : [die(n.spec.skillDie, s.skill, i === r.chosen, 'skill')])]);
      return [...sets, die(20, r.luckDie, true, 'luck')];
    }
    case 'osr': {
      const r = n.roll as D20Roll;
      return r.dice.map((v, i) => die(20, v, i === r.kept));
    }
    case 'luck':
      return [die(20, (n.roll as LuckTestRoll).luckDie, true, 'luck')];
  }
}

/** A named roll's outcome in its system's words (the log and the dice tray say the same). */
export const NAMED_OUTCOME_WORDS: { readonly [o in NamedOutcome]: string } = {
  critical: 'critical success',
  successWithHope: 'success with Hope',
  successWithFear: 'success with Fear',
  failureWithHope: 'failure with Hope',
  failureWithFear: 'failure with Fear',
  withHope: 'with Hope',
  withFear: 'with Fear',
  crit: 'crit',
  critFail: 'crit fail',
  criticalSuccess: 'critical success',
  criticalFailure: 'critical failure',
  natural20: 'natural 20',
  natural1: 'natural 1',
  luckBonus: 'luck bonus +4',
};

function faceWithRole(d: LoggedDie): string {
  return d.role === undefined ? faceText(d) : `${d.role} ${faceText(d)}`;
}

/** The log entry of a named roll: the total, the system's outcome, success against `vs`, each die. */
function reduceNamed(world: World, e: DiceRolled, n: NamedRollResult): World {
  const by = String(e.by);
  const audience = e.audience;
  const label = typeof e.label === 'string' ? e.label : null;
  const dice = namedDice(n);
  const who = rollerName(world, by);
  const vs = n.spec.difficulty;
  // A duality outcome against a difficulty already says success or failure.
  const saysSuccess = n.spec.kind === 'duality' && vs !== null;
  const verdict = [n.outcome === null ? null : NAMED_OUTCOME_WORDS[n.outcome], vs === null || saysSuccess ? null : n.success === true ? 'success' : 'failure'].filter((x) => x !== null).join(', ');
  const text =
    `${who} rolled ${n.expression}${label === null ? '' : ` (${label})`}${audience.kind === 'seat' ? ' for the GM' : ''}: ${n.total}` +
    `${vs === null ? '' : ` vs ${vs}`}${verdict === '' ? '' : `, ${verdict}`} [${dice.map(faceWithRole).join(' ')}]`;
  const data: { [k: string]: Json } = {
    by,
    who,
    notation: n.expression,
    total: n.total,
    comparison: vs === null ? null : { op: '>=', target: vs, success: n.success === true },
    outcome: n.outcome,
    dice: asJson(dice),
  };
  if (label !== null) data['label'] = label;
  return appendLog(world, { audience, kind: 'dice.rolled', text, data });
}

/** The log entry: who rolled what, the total, the comparison, and the dice. */
export function reduceRolled(world: World, e: DiceRolled): World {
  if (e.named !== undefined) return reduceNamed(world, e, e.named);
  const roll = e.roll;
  const by = String(e.by);
  const audience = e.audience;
  const label = typeof e.label === 'string' ? e.label : null;
  const dice = flatDice(roll);
  const who = rollerName(world, by);
  const cmp = roll.comparison;
  const faces = dice.slice(0, TEXT_DICE).map(faceText).join(' ') + (dice.length > TEXT_DICE ? ' …' : '');
  const text =
    `${who} rolled ${roll.expression}${label === null ? '' : ` (${label})`}${audience.kind === 'seat' ? ' for the GM' : ''}: ${roll.total}` +
    `${cmp === null ? '' : ` ${cmp.op} ${cmp.target}, ${cmp.success ? 'success' : 'failure'}`}${faces === '' ? '' : ` [${faces}]`}`;
  const data: { [k: string]: Json } = {
    by,
    who,
    notation: roll.expression,
    total: roll.total,
    comparison: asJson(cmp),
    dice: asJson(dice),
  };
  if (label !== null) data['label'] = label;
  // Labelled numbers (`1d20 + 5 [STR]`), so the tray can show what each added.
  if (roll.constants !== undefined) data['constants'] = roll.constants.map((c) => ({ value: c.value, label: c.label }));
  return appendLog(world, { audience, kind: 'dice.rolled', text, data });
}
