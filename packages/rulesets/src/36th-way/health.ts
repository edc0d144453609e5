// 002 "Damage and Recovery": staggered at half HP, dying at 0 or less (PCs),
// enemies dead (or spared unconscious) at 0; recoveries rolled or averaged
// (each die rounded down); healing with no recoveries left is halved and
// costs -1 Volition and defenses until a full rest; death saves.
import type { World } from '@tablekeeper/engine';
import { recoveryAverage } from './damage.js';
import { halve, numSetting, setting } from './settings.js';
import type { Dying, Sheet } from './state.js';

export type Status = 'healthy' | 'staggered' | 'dying' | 'unconscious' | 'dead';

/** Staggered: at half HP or below (and still above 0). */
export function isStaggered(s: Pick<Sheet, 'hp' | 'maxHp'>): boolean {
  return s.hp > 0 && s.hp * 2 <= s.maxHp;
}

export function statusOf(s: Sheet): Status {
  if (s.dead) return 'dead';
  if (s.dying !== null) return 'dying';
  if (s.unconscious) return 'unconscious';
  return isStaggered(s) ? 'staggered' : 'healthy';
}

/** Can take actions on a turn (a dying PC still gets a turn, for the death save only). */
export function ableToAct(s: Sheet): boolean {
  return !s.dead && !s.unconscious && !s.outOfFight;
}

export interface DamageOutcome {
  readonly hp: number;
  readonly dying: Dying | null;
  readonly dead: boolean;
  readonly unconscious: boolean;
}

/**
 * Apply damage. A PC who drops to 0 or less starts dying; the first death
 * save has 2 Disadvantage if a crit dropped them or they fell to minus half
 * their maximum. An enemy at 0 or less is dead (or unconscious by setting).
 */
export function takeDamage(world: World | null, s: Sheet, amount: number, crit: boolean): DamageOutcome {
  const hp = s.hp - Math.max(0, amount);
  if (s.dead) return { hp, dying: s.dying, dead: true, unconscious: s.unconscious };
  if (hp > 0) return { hp, dying: s.dying, dead: false, unconscious: s.unconscious };
  if (s.kind === 'npc') {
    const spare = setting<string>(world, '36th-way.npcAtZero') === 'unconscious';
    return { hp, dying: null, dead: !spare, unconscious: spare };
  }
  if (setting<string>(world, '36th-way.dyingMode') === 'unconscious') return { hp, dying: null, dead: false, unconscious: true };
  const deep = hp * 2 <= -s.maxHp;
  if (s.dying !== null) {
    // Hit again before the first death save: the penalty can still apply.
    const harsher = s.dying.savesRolled === 0 && s.dying.lastGasp === null && (crit || deep) ? { ...s.dying, firstSaveDisadvantage: 2 } : s.dying;
    return { hp, dying: harsher, dead: false, unconscious: false };
  }
  return { hp, dying: { stabilized: false, firstSaveDisadvantage: crit || deep ? 2 : 0, savesRolled: 0, lastGasp: null }, dead: false, unconscious: false };
}

/** A recovery's amount: rolled dice, or the average with each die rounded down, plus the sheet's bonus. */
export function recoveryAmount(s: Sheet, rolled: readonly number[] | null): number {
  const dice = rolled === null ? recoveryAverage(s.recoveryDice.count, s.recoveryDice.sides) : rolled.reduce((a, b) => a + b, 0);
  return Math.max(0, dice + s.recoveryBonus);
}

export interface HealOutcome {
  readonly hp: number;
  readonly healed: number;
  /** Recoveries spent (0 for a free recovery or an empty pool). */
  readonly spent: number;
  /** Healing was halved because no recoveries were left. */
  readonly halved: boolean;
  readonly exhaustion: number;
}

/**
 * Heal using a recovery (or a free one). Healing starts from 0 when below it,
 * is capped at max HP, and with no recoveries left is halved and adds one
 * exhaustion penalty.
 */
export function heal(world: World | null, s: Sheet, amount: number, opts: { readonly free: boolean }): HealOutcome {
  const empty = !opts.free && s.recoveries <= 0;
  const healed0 = empty ? halve(amount, world) : amount;
  const from = Math.max(0, s.hp);
  const hp = Math.min(s.maxHp, from + healed0);
  return { hp, healed: hp - s.hp, spent: opts.free || empty ? 0 : 1, halved: empty, exhaustion: s.exhaustion + (empty ? 1 : 0) };
}

export type DeathSaveOutcome = 'crit' | 'success' | 'failure';

export function deathSaveOutcome(world: World | null, natural: number, target: number): DeathSaveOutcome {
  if (natural >= numSetting(world, '36th-way.saveCritAt') && natural >= target) return 'crit';
  return natural >= target ? 'success' : 'failure';
}

/** After a failed death save: dead when the failures reach the limit and nobody stabilized them. */
export function diesAfter(world: World | null, d: Dying, failures: number): boolean {
  return !d.stabilized && failures >= numSetting(world, '36th-way.deathSaveFailures');
}
