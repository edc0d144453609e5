// dice.roll: a table roll made by the engine, not the browser. The dice are
// drawn from the injected Rng inside decide and the whole record (every die,
// kept or dropped, explosions, total, comparison) goes into `dice.rolled`, so
// nobody can type a result in, and replay never rerolls.
import type { DiceRollResult } from '../dice/compile.js';
import { DiceError } from '../dice/errors.js';
import type { DiceLimits } from '../dice/limits.js';
import { rollDice } from '../dice/notation.js';
import { appendLog } from './log.js';
import { err, ErrorCode, ok } from './result.js';
import type { Audience, Command, EngineEvent, Env, Json, Result, World } from './types.js';
import { readEnum, readString } from './validate.js';
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
}

function notationError(e: DiceError, lead: number): Result<never> {
  const column = e.position + lead;
  const code = e.code === 'LIMIT' ? ErrorCode.LIMIT_EXCEEDED : ErrorCode.BAD_NOTATION;
  return { ok: false, error: { code, message: `${e.message} (column ${column + 1})`, path: 'notation', column } };
}

export function decideRoll(_world: World, c: Command, env: Env): Result<EngineEvent[]> {
  const raw = c['notation'];
  if (typeof raw !== 'string') return err(ErrorCode.INVALID_VALUE, 'notation must be dice notation such as 2d6+3', 'notation');
  if (raw.length > MAX_ROLL_NOTATION)
    return { ok: false, error: { code: ErrorCode.LIMIT_EXCEEDED, message: `a table roll's notation may be at most ${MAX_ROLL_NOTATION} characters`, path: 'notation', column: MAX_ROLL_NOTATION } };
  const notation = raw.trim();
  if (notation === '') return err(ErrorCode.INVALID_VALUE, 'notation is empty', 'notation');
  const audience = readEnum<RollAudience>(c, 'audience', ['table', 'gm'], 'table');
  if (!audience.ok) return audience;
  const label = readString(c, 'label', { max: MAX_ROLL_LABEL, optional: true });
  if (!label.ok) return label;
  let roll: DiceRollResult;
  try {
    roll = rollDice(notation, env.rng, TABLE_ROLL_LIMITS);
  } catch (e) {
    // Columns count from the notation as sent, leading spaces included, so a client's caret lines up.
    if (e instanceof DiceError) return notationError(e, raw.length - raw.trimStart().length);
    throw e;
  }
  const seatId = env.actor.role === 'player' ? env.actor.seatId : null;
  if (seatId === null && env.actor.role !== 'gm') return err(ErrorCode.FORBIDDEN, 'only the GM or a seated player may roll at the table');
  // A player's roll "for the GM" is read by the GM and that player; the GM's secret roll by the GM alone.
  const to: Audience = audience.value === 'table' ? AUDIENCE_ALL : seatId !== null ? seatAudience(seatId) : AUDIENCE_GM;
  const event: { [k: string]: Json } = { type: 'dice.rolled', by: seatId ?? 'gm', audience: to as unknown as Json, roll: roll as unknown as Json };
  if (label.value !== undefined) event['label'] = label.value;
  return ok([event as EngineEvent]);
}

export function flatDice(roll: DiceRollResult): LoggedDie[] {
  return roll.dice.flatMap((g) =>
    g.dice.map((d) => {
      const die: LoggedDie = { sides: g.sides, value: d.value, kept: d.kept, exploded: d.exploded, rerolled: d.rerolled };
      return d.rolls === undefined ? die : { ...die, rolls: d.rolls };
    }),
  );
}

/** "6", "~1~" for a dropped die, "6!" for one that exploded (its value already holds the chain). */
function faceText(d: LoggedDie): string {
  const v = `${d.value}${d.exploded ? '!' : ''}`;
  return d.kept ? v : `~${v}~`;
}

export function rollerName(world: World, by: string): string {
  return by === 'gm' ? 'The GM' : (world.seats[by]?.name ?? 'A player');
}

/** The log entry: who rolled what, the total, the comparison, and the dice. */
export function reduceRolled(world: World, e: EngineEvent): World {
  const roll = e['roll'] as unknown as DiceRollResult;
  const by = String(e['by']);
  const audience = e['audience'] as unknown as Audience;
  const label = typeof e['label'] === 'string' ? e['label'] : null;
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
    comparison: cmp as unknown as Json,
    dice: dice as unknown as Json,
  };
  if (label !== null) data['label'] = label;
  return appendLog(world, { audience, kind: 'dice.rolled', text, data });
}
