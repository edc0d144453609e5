// 001 "Attacks, Damage, & Injury": attack modifiers by attack type, hits
// against AC, critical doubling, HP bounds, the injury table and healing.
// Pure: dice arrive as faces already rolled.
import type { Ability } from './checks.js';

/** Which ability an attack adds (001 "PC Attacks"). */
export type AttackKind = 'melee' | 'ranged' | 'arcane' | 'divine';

export const ATTACK_ABILITY: { readonly [k in AttackKind]: Ability } = { melee: 'str', ranged: 'dex', arcane: 'int', divine: 'wis' };

export function isAttackKind(x: unknown): x is AttackKind {
  return x === 'melee' || x === 'ranged' || x === 'arcane' || x === 'divine';
}

/** How a critical hit doubles damage (setting `critDoubles`): the whole total, or only the dice. */
export type CritDoubling = 'total' | 'dice';

/**
 * Damage dealt after a roll. Critical hit (natural 20 on an attack, any
 * attacker, any attack type) doubles it; a natural 1 on a PC's own check that
 * damages that PC doubles it too (001 "Critical Failure"). Both never stack:
 * they come from different rolls.
 */
export function damageTotal(diceFaces: readonly number[], bonus: number, doubled: boolean, mode: CritDoubling = 'total'): number {
  const dice = diceFaces.reduce((a, b) => a + b, 0);
  const base = Math.max(0, dice + bonus);
  if (!doubled) return base;
  return mode === 'total' ? base * 2 : Math.max(0, dice * 2 + bonus);
}

/** 001 "Dealing Damage": weapon and spell damage is its dice plus the attack's ability modifier ("1d8 + STR mod"). */
export interface DamageRecord {
  readonly dice: string;
  readonly faces: readonly number[];
  /** Everything added to the dice: the dice's own bonus and, when added, the ability modifier. */
  readonly bonus: number;
  readonly doubled: boolean;
  readonly total: number;
  /** The ability whose modifier is in `bonus` (absent on attacks stored before it was recorded, or when none was added). */
  readonly ability?: Ability;
  readonly abilityMod?: number;
}

const signed = (n: number): string => (n < 0 ? `- ${-n}` : `+ ${n}`);

/** What an attack's damage adds up, before the roll: "1d6 + DEX 3", "1d8+1 + STR -1", "2d6" when no modifier is added. */
export function damageFormula(dice: string, ability: Ability | null, abilityMod: number): string {
  return ability === null ? dice : `${dice} + ${ability.toUpperCase()} ${abilityMod}`;
}

/**
 * A rolled damage in words, so the total can be checked: "1d6 [2] + DEX 3"; a
 * critical hit "1d6 [2] + DEX 3 = 5, doubled on a natural 20" (001 "Critical Hits").
 */
export function damageRollWords(d: DamageRecord, mode: CritDoubling = 'total'): string {
  const m = /^(\d+d\d+)([+-]\d+)?$/.exec(d.dice);
  const withMod = d.ability !== undefined && d.abilityMod !== undefined;
  const own = withMod ? d.bonus - d.abilityMod! : d.bonus;
  const parts: string[] = [];
  if (d.faces.length > 0) parts.push(`${m !== null ? m[1]! : d.dice} [${d.faces.join(', ')}]`);
  if (own !== 0 || (parts.length === 0 && !withMod)) parts.push(parts.length === 0 ? String(own) : signed(own));
  if (withMod) parts.push(`${parts.length === 0 ? '' : '+ '}${d.ability!.toUpperCase()} ${d.abilityMod!}`);
  const sum = parts.join(' ');
  if (!d.doubled) return sum;
  if (mode === 'dice') return `${sum}, the dice doubled on a natural 20`;
  return `${sum} = ${Math.max(0, d.faces.reduce((a, b) => a + b, 0) + d.bonus)}, doubled on a natural 20`;
}

/** 001 "Healing & HP": never below 0, never above max. */
export function clampHp(hp: number, maxHp: number): number {
  return Math.max(0, Math.min(maxHp, hp));
}

// ---------------------------------------------------------------- injury table

export type InjuryRow =
  | { readonly kind: 'dead' }
  | { readonly kind: 'abilityLoss'; readonly ability: Ability; readonly name: string }
  | { readonly kind: 'bodyPart' }
  | { readonly kind: 'disadvantageUntilRest' }
  | { readonly kind: 'standing' };

/** 001 "Injury Table", one entry per d20 face (our names for the rows). */
export function injuryRow(d20: number): InjuryRow {
  switch (d20) {
    case 1:
      return { kind: 'dead' };
    case 2:
      return { kind: 'abilityLoss', ability: 'str', name: 'Feeble' };
    case 3:
      return { kind: 'abilityLoss', ability: 'dex', name: 'Shaky' };
    case 4:
      return { kind: 'abilityLoss', ability: 'con', name: 'Weak' };
    case 5:
      return { kind: 'abilityLoss', ability: 'int', name: 'Addled' };
    case 6:
      return { kind: 'abilityLoss', ability: 'wis', name: 'Confused' };
    case 7:
      return { kind: 'abilityLoss', ability: 'cha', name: 'Disfigured' };
    case 20:
      return { kind: 'standing' };
    default:
      return d20 >= 8 && d20 <= 13 ? { kind: 'bodyPart' } : { kind: 'disadvantageUntilRest' };
  }
}

export function injuryLabel(row: InjuryRow): string {
  switch (row.kind) {
    case 'dead':
      return 'a false hope: dead';
    case 'abilityLoss':
      return `${row.name}: loses 1d6 ${row.ability.toUpperCase()}`;
    case 'bodyPart':
      return 'loses a body part (GM chooses)';
    case 'disadvantageUntilRest':
      return 'disadvantage on all checks until rest';
    case 'standing':
      return 'standing: heals 1d8 HP at once';
  }
}

/** Setting `standingHeal`: the 1d8 of row 20 replaces the usual 1 HP ('instead') or adds to it ('plus'). */
export type StandingHeal = 'instead' | 'plus';

export interface InjuryOutcome {
  readonly row: InjuryRow;
  /** HP after the injury roll (0 when dead). */
  readonly hp: number;
  readonly dead: boolean;
  readonly abilityLoss: { readonly ability: Ability; readonly amount: number; readonly from: number; readonly to: number } | null;
}

/**
 * The stabilized PC's injury: `extra` is the 1d6 (ability loss) or 1d8
 * (standing) face when the row needs one. An ability brought to 0 kills
 * (001 "Corruptions" example; setting `deathAtZeroAbility`).
 */
export function resolveInjury(
  d20: number,
  extra: number | null,
  scores: { readonly [a in Ability]: number },
  maxHp: number,
  opts: { readonly standingHeal?: StandingHeal; readonly deathAtZeroAbility?: boolean } = {},
): InjuryOutcome {
  const row = injuryRow(d20);
  if (row.kind === 'dead') return { row, hp: 0, dead: true, abilityLoss: null };
  if (row.kind === 'abilityLoss') {
    const amount = extra ?? 0;
    const from = scores[row.ability];
    const to = Math.max(0, from - amount);
    const dead = to === 0 && opts.deathAtZeroAbility !== false;
    return { row, hp: dead ? 0 : clampHp(1, maxHp), dead, abilityLoss: { ability: row.ability, amount, from, to } };
  }
  if (row.kind === 'standing') {
    const heal = extra ?? 0;
    const hp = opts.standingHeal === 'plus' ? 1 + heal : heal;
    return { row, hp: clampHp(Math.max(1, hp), maxHp), dead: false, abilityLoss: null };
  }
  return { row, hp: clampHp(1, maxHp), dead: false, abilityLoss: null };
}

/** Which extra die an injury row needs: d6 for ability loss, d8 for standing, none otherwise. */
export function injuryExtraDie(d20: number): 6 | 8 | null {
  const row = injuryRow(d20);
  return row.kind === 'abilityLoss' ? 6 : row.kind === 'standing' ? 8 : null;
}

// ---------------------------------------------------------------- healing and rest

export type RestKind = 'safe' | 'unsafe';

/** 001 "Healing From Rest": level HP per night of safe rest, 1 HP per night of unsafe rest, capped at max. */
export function restHealing(kind: RestKind, level: number, nights: number, hp: number, maxHp: number): number {
  const per = kind === 'safe' ? Math.max(1, level) : 1;
  return clampHp(hp + per * Math.max(0, nights), maxHp) - hp;
}

// ---------------------------------------------------------------- death timer

/**
 * 001 "Death & Injury": a combatant at 0 HP dies unless stabilized within one
 * minute or by the end of the fight, whichever is later. Dead once both the
 * minute has run out on the clock and no fight they went down in is going on.
 */
export function deathDue(downAt: number, now: number, fightGoingOn: boolean, windowSeconds = 60): boolean {
  return now >= downAt + windowSeconds && !fightGoingOn;
}
