// The named rolls the five rulesets use, each with its exact distribution.
// Mechanics come from /work/shared/rules/README.md ("Where the texts are
// silent"); every roll records each die it threw so events can replay it.

import type { Rng } from './rng.js';
import { DiceError, intOption } from './errors.js';
import { Pmf, convolve, extremeOf, keepHighest, keepLowest, negatePmf, pmfOfDie, shiftPmf, sumIid } from './pmf.js';

/** Largest |modifier| or |bonus| a named roll accepts. */
export const MAX_NAMED_MODIFIER = 1000;
/** Largest net advantage a named roll accepts (Kleptonomicon caps itself at 3). */
export const MAX_NAMED_ADVANTAGE = 20;

function opts<T extends object>(o: T | undefined, name: string): Partial<T> {
  if (o === undefined) return {};
  if (o === null || typeof o !== 'object') throw new DiceError('BAD_OPTION', `${name} options must be an object`);
  return o;
}
const mod = (v: unknown, name = 'modifier'): number => intOption(name, v ?? 0, -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER);
const adv = (v: unknown): number => intOption('advantage', v ?? 0, -MAX_NAMED_ADVANTAGE, MAX_NAMED_ADVANTAGE);

// ---------------------------------------------------------------- Daggerheart

export type DualityOutcome = 'critical' | 'successWithHope' | 'successWithFear' | 'failureWithHope' | 'failureWithFear';
export const DUALITY_OUTCOMES: readonly DualityOutcome[] = ['critical', 'successWithHope', 'successWithFear', 'failureWithHope', 'failureWithFear'];

export interface DualityOptions {
  readonly modifier?: number;
  readonly difficulty: number;
  /** Net advantage: +N adds N d6 to the total, -N subtracts N d6 (advantage and disadvantage cancel one for one). */
  readonly advantage?: number;
}

export interface DualityRoll {
  readonly hope: number;
  readonly fear: number;
  /** The d6 faces of the advantage (or disadvantage) dice. */
  readonly advantageDice: readonly number[];
  /** +1 advantage, -1 disadvantage, 0 none. */
  readonly advantageSign: -1 | 0 | 1;
  readonly modifier: number;
  readonly total: number;
  readonly difficulty: number;
  /** Matching Hope and Fear dice: a critical success whatever the total. */
  readonly critical: boolean;
  readonly withHope: boolean;
  readonly withFear: boolean;
  readonly success: boolean;
  readonly outcome: DualityOutcome;
}

function dualityInputs(o: DualityOptions): { modifier: number; difficulty: number; advantage: number } {
  const x = opts(o, 'duality');
  return { modifier: mod(x.modifier), difficulty: intOption('difficulty', x.difficulty, -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER), advantage: adv(x.advantage) };
}

function dualityOutcome(hope: number, fear: number, success: boolean): DualityOutcome {
  if (hope === fear) return 'critical';
  if (success) return hope > fear ? 'successWithHope' : 'successWithFear';
  return hope > fear ? 'failureWithHope' : 'failureWithFear';
}

/** Daggerheart action roll (000 via rules README): Hope d12 + Fear d12 + modifier, +/- advantage d6s, vs difficulty. */
export function rollDuality(rng: Rng, options: DualityOptions): DualityRoll {
  const { modifier, difficulty, advantage } = dualityInputs(options);
  const hope = rng.die(12);
  const fear = rng.die(12);
  const advantageDice: number[] = [];
  let extra = 0;
  for (let i = 0; i < Math.abs(advantage); i++) {
    const d = rng.die(6);
    advantageDice.push(d);
    extra += d;
  }
  const advantageSign = advantage > 0 ? 1 : advantage < 0 ? -1 : 0;
  const total = hope + fear + modifier + advantageSign * extra;
  const critical = hope === fear;
  const success = critical || total >= difficulty;
  return {
    hope, fear, advantageDice, advantageSign, modifier, total, difficulty, critical,
    withHope: hope > fear, withFear: fear > hope, success, outcome: dualityOutcome(hope, fear, success),
  };
}

/** Exact probability of each duality outcome. */
export function dualityOutcomeDistribution(options: DualityOptions): Record<DualityOutcome, number> {
  const { modifier, difficulty, advantage } = dualityInputs(options);
  let extra = sumIid(pmfOfDie(6), Math.abs(advantage));
  if (advantage < 0) extra = negatePmf(extra);
  const out: Record<DualityOutcome, number> = { critical: 0, successWithHope: 0, successWithFear: 0, failureWithHope: 0, failureWithFear: 0 };
  const pair = 1 / 144;
  for (let hope = 1; hope <= 12; hope++) {
    for (let fear = 1; fear <= 12; fear++) {
      if (hope === fear) {
        out.critical += pair;
        continue;
      }
      const succeed = extra.atLeast(difficulty - hope - fear - modifier);
      const fail = extra.atMost(difficulty - hope - fear - modifier - 1);
      if (hope > fear) {
        out.successWithHope += pair * succeed;
        out.failureWithHope += pair * fail;
      } else {
        out.successWithFear += pair * succeed;
        out.failureWithFear += pair * fail;
      }
    }
  }
  return out;
}

/** The total of a duality roll (before the critical rule), as a distribution. */
export function dualityTotalDistribution(options: Omit<DualityOptions, 'difficulty'>): Pmf {
  const { modifier, advantage } = dualityInputs({ ...options, difficulty: 0 });
  let extra = sumIid(pmfOfDie(6), Math.abs(advantage));
  if (advantage < 0) extra = negatePmf(extra);
  return shiftPmf(convolve(sumIid(pmfOfDie(12), 2), extra), modifier);
}

// ---------------------------------------------------------------- 36th Way

export interface KeptDie {
  readonly value: number;
  readonly kept: boolean;
}

export interface ThreeD6Roll {
  readonly dice: readonly KeptDie[];
  readonly advantage: number;
  /** Sum of the three kept dice. */
  readonly natural: number;
}

/** Marks the `keep` highest (or lowest) faces as kept; ties go to the earlier die. */
function markKept(values: readonly number[], keep: number, highest: boolean): KeptDie[] {
  const order = values.map((v, i) => i).sort((a, b) => (highest ? values[b]! - values[a]! : values[a]! - values[b]!) || a - b);
  const kept = new Set(order.slice(0, keep));
  return values.map((value, i) => ({ value, kept: kept.has(i) }));
}

/** The 36th Way check (002 via rules README): 3+|N| d6, keep the highest three (advantage) or lowest three (disadvantage). */
export function rollThreeD6(rng: Rng, options?: { readonly advantage?: number }): ThreeD6Roll {
  const advantage = adv(opts(options, 'threeD6').advantage);
  const values: number[] = [];
  for (let i = 0; i < 3 + Math.abs(advantage); i++) values.push(rng.die(6));
  const dice = markKept(values, 3, advantage >= 0);
  const natural = dice.reduce((s, d) => s + (d.kept ? d.value : 0), 0);
  return { dice, advantage, natural };
}

/** Exact distribution of the natural value (sum of the kept three). */
export function threeD6NaturalDistribution(advantage = 0): Pmf {
  const a = adv(advantage);
  const n = 3 + Math.abs(a);
  return a >= 0 ? keepHighest(pmfOfDie(6), n, 3) : keepLowest(pmfOfDie(6), n, 3);
}

// ---------------------------------------------------------------- Kleptonomicon

/** Net advantage on a Kleptonomicon Test is capped at this (at most 4 dice). */
export const KLEPTO_ADVANTAGE_CAP = 3;

export interface KleptoDie {
  /** The d10 face rolled. */
  readonly face: number;
  /** What the die counts as: the face, or 10 / 0 for a critical success / failure. */
  readonly value: number;
  /** A face of 10 flips a coin: 'success' counts 10, 'failure' counts 0. */
  readonly critical: 'success' | 'failure' | null;
  /** The coin (1 = called right, 2 = wrong) when the face was 10. */
  readonly coin: 1 | 2 | null;
}

export interface KleptoTestRoll {
  readonly dice: readonly KleptoDie[];
  /** Net advantage after the cap. */
  readonly advantage: number;
  readonly modifier: number;
  /** Index of the die that counts. */
  readonly chosen: number;
  readonly score: number;
  /** The counting die's critical, if any. */
  readonly critical: 'success' | 'failure' | null;
}

/** A Kleptonomicon Test (004 via rules README): 1d10 + modifier, extra d10s for net advantage (highest counts) or disadvantage (lowest). */
export function rollKleptoTest(rng: Rng, options?: { readonly modifier?: number; readonly advantage?: number }): KleptoTestRoll {
  const o = opts(options, 'kleptoTest');
  const modifier = mod(o.modifier);
  const advantage = Math.max(-KLEPTO_ADVANTAGE_CAP, Math.min(KLEPTO_ADVANTAGE_CAP, adv(o.advantage)));
  const dice: KleptoDie[] = [];
  for (let i = 0; i < 1 + Math.abs(advantage); i++) {
    const face = rng.die(10);
    if (face === 10) {
      const coin = rng.die(2) as 1 | 2;
      dice.push({ face, value: coin === 1 ? 10 : 0, critical: coin === 1 ? 'success' : 'failure', coin });
    } else {
      dice.push({ face, value: face, critical: null, coin: null });
    }
  }
  // Criticals are resolved per die first, then the highest / lowest value counts (first such die on ties).
  let chosen = 0;
  for (let i = 1; i < dice.length; i++) {
    const v = dice[i]!.value;
    const best = dice[chosen]!.value;
    if (advantage > 0 ? v > best : v < best) chosen = i;
  }
  const die = dice[chosen]!;
  return { dice, advantage, modifier, chosen, score: die.value + modifier, critical: die.critical };
}

/** One Kleptonomicon die: 0 and 10 at 1/20 each, 1-9 at 2/20 each. */
export function kleptoDiePmf(): Pmf {
  const p = new Float64Array(11).fill(2 / 20);
  p[0] = 1 / 20;
  p[10] = 1 / 20;
  return new Pmf(0, p);
}

/** Exact distribution of a Kleptonomicon Test's Score. */
export function kleptoTestDistribution(options?: { readonly modifier?: number; readonly advantage?: number }): Pmf {
  const o = opts(options, 'kleptoTest');
  const modifier = mod(o.modifier);
  const advantage = Math.max(-KLEPTO_ADVANTAGE_CAP, Math.min(KLEPTO_ADVANTAGE_CAP, adv(o.advantage)));
  return shiftPmf(extremeOf(kleptoDiePmf(), 1 + Math.abs(advantage), advantage >= 0), modifier);
}

// ---------------------------------------------------------------- team game

/** Dice sizes the team game's attribute and skill dice may take (0 = no skill die). */
export const TEAM_DIE_MAX = 100;
/** Most net advantage a team-game test accepts (each step rolls the test dice once more). */
export const TEAM_MAX_ADVANTAGE = 10;
/** A luck die at or above this adds TEAM_LUCK_BONUS to an ordinary test. */
export const TEAM_LUCK_THRESHOLD = 20;
export const TEAM_LUCK_BONUS = 4;

export interface TeamTestOptions {
  /** Sides of the attribute die (e.g. 6 for d6). */
  readonly attributeDie: number;
  /** Sides of the skill die; 0 when the character has no die in the skill. */
  readonly skillDie?: number;
  /** Fixed proficiency and other bonuses. */
  readonly bonus?: number;
  /**
   * Setting (the excerpt does not define advantage): +N rolls the test dice
   * N+1 times and keeps the best total; -N keeps the worst.
   */
  readonly advantage?: number;
  /** Ordinary tests add +4 on a luck die of 20+; attacks pass false and compare `luck` with the weapon's critical threshold. */
  readonly luckBonus?: boolean;
  /** Added to the d20 luck die (the text speaks of a luck roll of "20 or greater" and "1 or less"). */
  readonly luckModifier?: number;
}

export interface TeamTestSet {
  readonly attribute: number;
  readonly skill: number | null;
  readonly sum: number;
}

export interface TeamTestRoll {
  /** Every roll of the test dice (more than one with advantage). */
  readonly sets: readonly TeamTestSet[];
  /** Index of the set that counts. */
  readonly chosen: number;
  readonly attribute: number;
  readonly skill: number | null;
  readonly bonus: number;
  /** The d20 luck die's face. */
  readonly luckDie: number;
  /** Luck die + luck modifier. */
  readonly luck: number;
  /** +4 when the luck bonus applied, else 0. */
  readonly luckBonus: number;
  readonly total: number;
}

function teamInputs(o: TeamTestOptions) {
  const x = opts(o, 'teamTest');
  return {
    attributeDie: intOption('attributeDie', x.attributeDie, 1, TEAM_DIE_MAX),
    skillDie: intOption('skillDie', x.skillDie ?? 0, 0, TEAM_DIE_MAX),
    bonus: mod(x.bonus, 'bonus'),
    advantage: intOption('advantage', x.advantage ?? 0, -TEAM_MAX_ADVANTAGE, TEAM_MAX_ADVANTAGE),
    luckBonus: x.luckBonus ?? true,
    luckModifier: mod(x.luckModifier, 'luckModifier'),
  };
}

/** A test in the team game (003 "Attacks" and the rules README): attribute die + skill die + bonus, with a d20 luck die. */
export function rollTeamTest(rng: Rng, options: TeamTestOptions): TeamTestRoll {
  const t = teamInputs(options);
  const sets: TeamTestSet[] = [];
  let chosen = 0;
  for (let i = 0; i < 1 + Math.abs(t.advantage); i++) {
    const attribute = rng.die(t.attributeDie);
    const skill = t.skillDie > 0 ? rng.die(t.skillDie) : null;
    const sum = attribute + (skill ?? 0);
    sets.push({ attribute, skill, sum });
    const best = sets[chosen]!.sum;
    if (t.advantage >= 0 ? sum > best : sum < best) chosen = i;
  }
  const luckDie = rng.die(20);
  const luck = luckDie + t.luckModifier;
  const luckBonus = t.luckBonus && luck >= TEAM_LUCK_THRESHOLD ? TEAM_LUCK_BONUS : 0;
  const set = sets[chosen]!;
  return { sets, chosen, attribute: set.attribute, skill: set.skill, bonus: t.bonus, luckDie, luck, luckBonus, total: set.sum + t.bonus + luckBonus };
}

/** Exact distribution of a team-game test total (luck bonus included when it applies). */
export function teamTestDistribution(options: TeamTestOptions): Pmf {
  const t = teamInputs(options);
  let dice = pmfOfDie(t.attributeDie);
  if (t.skillDie > 0) dice = convolve(dice, pmfOfDie(t.skillDie));
  const best = t.advantage === 0 ? dice : extremeOf(dice, 1 + Math.abs(t.advantage), t.advantage > 0);
  // P(luck >= 20) with luck = d20 + luckModifier.
  const need = TEAM_LUCK_THRESHOLD - t.luckModifier;
  const pLuck = t.luckBonus ? Math.min(20, Math.max(0, 21 - Math.max(1, need))) / 20 : 0;
  const luck = pLuck === 0 ? Pmf.constant(0) : pLuck === 1 ? Pmf.constant(TEAM_LUCK_BONUS) : Pmf.fromEntries([[0, 1 - pLuck], [TEAM_LUCK_BONUS, pLuck]]);
  return shiftPmf(convolve(best, luck), t.bonus);
}

export interface LuckTestRoll {
  readonly luckDie: number;
  readonly luck: number;
  readonly difficulty: number;
  readonly success: boolean;
}

/** A luck test (003 "cheat death"): the d20 luck die alone, success at or above the difficulty. */
export function rollLuckTest(rng: Rng, difficulty: number, luckModifier = 0): LuckTestRoll {
  const d = intOption('difficulty', difficulty, -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER);
  const m = mod(luckModifier, 'luckModifier');
  const luckDie = rng.die(20);
  return { luckDie, luck: luckDie + m, difficulty: d, success: luckDie + m >= d };
}

/** Chance a luck test succeeds. */
export function luckTestProbability(difficulty: number, luckModifier = 0): number {
  const d = intOption('difficulty', difficulty, -MAX_NAMED_MODIFIER, MAX_NAMED_MODIFIER);
  const m = mod(luckModifier, 'luckModifier');
  return pmfOfDie(20).atLeast(d - m);
}

// ---------------------------------------------------------------- OSR d20

export type D20Mode = 'normal' | 'advantage' | 'disadvantage';

export interface D20Roll {
  readonly dice: readonly number[];
  /** Index of the kept die. */
  readonly kept: number;
  readonly natural: number;
  readonly modifier: number;
  readonly total: number;
}

function d20Inputs(o: { readonly modifier?: number; readonly mode?: D20Mode } | undefined): { modifier: number; mode: D20Mode } {
  const x = opts(o, 'd20');
  const mode = x.mode ?? 'normal';
  if (mode !== 'normal' && mode !== 'advantage' && mode !== 'disadvantage') throw new DiceError('BAD_OPTION', `mode must be normal, advantage or disadvantage, got ${String(mode)}`);
  return { modifier: mod(x.modifier), mode };
}

/** The OSR check (001 via rules README): d20 + modifier; advantage / disadvantage roll two and keep the higher / lower. */
export function rollD20(rng: Rng, options?: { readonly modifier?: number; readonly mode?: D20Mode }): D20Roll {
  const { modifier, mode } = d20Inputs(options);
  const dice = [rng.die(20)];
  if (mode !== 'normal') dice.push(rng.die(20));
  let kept = 0;
  if (mode === 'advantage' && dice[1]! > dice[0]!) kept = 1;
  if (mode === 'disadvantage' && dice[1]! < dice[0]!) kept = 1;
  const natural = dice[kept]!;
  return { dice, kept, natural, modifier, total: natural + modifier };
}

export function d20Distribution(options?: { readonly modifier?: number; readonly mode?: D20Mode }): Pmf {
  const { modifier, mode } = d20Inputs(options);
  const base = mode === 'normal' ? pmfOfDie(20) : extremeOf(pmfOfDie(20), 2, mode === 'advantage');
  return shiftPmf(base, modifier);
}
