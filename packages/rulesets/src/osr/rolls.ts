// Reading dice specs from commands and rolling them with the injected Rng.
// Every face rolled goes into the event that uses it (replay never rolls).
import { rollD20, type Json, type Rng, type RuleError } from '@tablekeeper/engine';

/** `count` dice of `sides` plus `bonus` (damage "1d8 + STR mod", healing "3d6"). */
export interface DiceSpec {
  readonly count: number;
  readonly sides: number;
  readonly bonus: number;
}

export const DICE_LIMITS = { count: 100, sides: 1000, bonus: 1000 } as const;

const bad = (path: string, message: string): RuleError => ({ code: 'INVALID_VALUE', message, path });

/**
 * Accepts `{count, sides, bonus?}` or the short form "NdS", "NdS+K", "NdS-K"
 * (or a plain number for a fixed amount). Limits: at most 100 dice of at most
 * 1,000 sides, bonus within +-1,000.
 */
export function readDice(v: Json | undefined, path: string): { ok: true; value: DiceSpec } | { ok: false; error: RuleError } {
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || Math.abs(v) > DICE_LIMITS.bonus) return { ok: false, error: bad(path, `${path} must be a whole number within ±${DICE_LIMITS.bonus}`) };
    return { ok: true, value: { count: 0, sides: 1, bonus: v } };
  }
  let count: unknown;
  let sides: unknown;
  let bonus: unknown;
  if (typeof v === 'string') {
    const m = /^\s*(\d{1,4})\s*d\s*(\d{1,5})\s*(?:([+-])\s*(\d{1,5}))?\s*$/i.exec(v);
    if (m === null) return { ok: false, error: bad(path, `${path} must look like 2d6+1`) };
    count = Number(m[1]);
    sides = Number(m[2]);
    bonus = m[3] === undefined ? 0 : (m[3] === '-' ? -1 : 1) * Number(m[4]);
  } else if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    count = v['count'];
    sides = v['sides'];
    bonus = v['bonus'] ?? 0;
  } else return { ok: false, error: bad(path, `${path} must be dice like "2d6+1" or {count, sides, bonus}`) };
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > DICE_LIMITS.count) return { ok: false, error: bad(path, `${path}: at most ${DICE_LIMITS.count} dice`) };
  if (typeof sides !== 'number' || !Number.isInteger(sides) || sides < 1 || sides > DICE_LIMITS.sides) return { ok: false, error: bad(path, `${path}: a die has 1 to ${DICE_LIMITS.sides} sides`) };
  if (typeof bonus !== 'number' || !Number.isInteger(bonus) || Math.abs(bonus) > DICE_LIMITS.bonus) return { ok: false, error: bad(path, `${path}: bonus within ±${DICE_LIMITS.bonus}`) };
  return { ok: true, value: { count, sides, bonus } };
}

export function rollDice(rng: Rng, spec: DiceSpec): number[] {
  return Array.from({ length: spec.count }, () => rng.die(spec.sides));
}

/** One d20, or two when advantage or disadvantage applies (001: keep the higher / lower). */
export function rollCheckDice(rng: Rng, advantage: -1 | 0 | 1): number[] {
  return [...rollD20(rng, { mode: advantage === 1 ? 'advantage' : advantage === -1 ? 'disadvantage' : 'normal' }).dice];
}

export function specText(s: DiceSpec): string {
  const dice = s.count > 0 ? `${s.count}d${s.sides}` : '';
  if (s.bonus === 0) return dice || '0';
  return dice ? `${dice}${s.bonus > 0 ? '+' : '-'}${Math.abs(s.bonus)}` : String(s.bonus);
}
