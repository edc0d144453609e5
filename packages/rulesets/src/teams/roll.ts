// Tests in the team game (rules README, "The team game (003)"), rolled with
// the engine's team test (attribute die + skill die + bonus, with a d20 luck
// die; advantage keeps the best of several rolls of the test dice). The luck
// bonus of ordinary tests is applied here from the table's settings.
import { asJson } from '@tablekeeper/engine/events';
import type { Json, Rng, RuleError, TeamTestRoll } from '@tablekeeper/engine';
import { rollLuckTest, rollTeamTest } from '@tablekeeper/engine';
import type { Sheet } from './sheet.js';

/** Net advantage beyond this is treated as this (best of four). */
export const MAX_ADVANTAGE = 3;
/** Fixed bonuses and penalties are clamped to this (the multiple attack penalty grows with every attack). */
export const MAX_BONUS = 500;

export interface TestSpec {
  readonly attributeDie: number;
  readonly skillDie: number;
  /** Proficiency and other fixed bonuses and penalties. */
  readonly bonus: number;
  /** Net advantage (+) or disadvantage (-). */
  readonly advantage: number;
  /** Fixed modifier to the luck die. */
  readonly luckModifier: number;
}

export type TestRoll = TeamTestRoll;

export interface LuckRule {
  /** Ordinary tests: luck at or above `at` adds `bonus`. Attacks pass null (their luck die is read against the critical threshold). */
  readonly at: number;
  readonly bonus: number;
}

export function clampAdvantage(n: number): number {
  return Math.max(-MAX_ADVANTAGE, Math.min(MAX_ADVANTAGE, Math.trunc(n)));
}

const clampBonus = (n: number): number => Math.max(-MAX_BONUS, Math.min(MAX_BONUS, n));

/** Roll a test; an ordinary test gets the luck bonus when its luck roll reaches the rule's threshold. */
export function rollTest(rng: Rng, spec: TestSpec, luckRule: LuckRule | null): TestRoll {
  const r = rollTeamTest(rng, {
    attributeDie: spec.attributeDie,
    skillDie: spec.skillDie,
    bonus: clampBonus(spec.bonus),
    advantage: clampAdvantage(spec.advantage),
    luckBonus: false,
    luckModifier: spec.luckModifier,
  });
  const luckBonus = luckRule !== null && r.luck >= luckRule.at ? luckRule.bonus : 0;
  return { ...r, luckBonus, total: r.total + luckBonus };
}

/** A luck test: the d20 alone (plus the luck modifier) against a difficulty. */
export function rollLuck(rng: Rng, luckModifier: number, difficulty: number): { readonly die: number; readonly total: number; readonly success: boolean } {
  const r = rollLuckTest(rng, difficulty, luckModifier);
  return { die: r.luckDie, total: r.luck, success: r.success };
}

export function rollJson(r: TestRoll): Json {
  return asJson(r);
}

export interface TestInput {
  readonly attribute: string;
  readonly skill: string;
  readonly proficiency?: string | null;
  readonly bonus?: number;
}

/** The test dice for a named attribute and skill on a sheet, with the named proficiency's bonus. */
export function specFromSheet(sheet: Sheet, input: TestInput, advantage: number): TestSpec | RuleError {
  const a = sheet.attributes[input.attribute.toLowerCase()];
  if (a === undefined) return { code: 'UNKNOWN_ATTRIBUTE', message: `${sheet.name} has no attribute "${input.attribute}"`, path: 'test.attribute' };
  const s = sheet.skills[input.skill.toLowerCase()];
  if (s === undefined) return { code: 'UNKNOWN_SKILL', message: `${sheet.name} has no skill "${input.skill}"`, path: 'test.skill' };
  let bonus = input.bonus ?? 0;
  if (input.proficiency !== undefined && input.proficiency !== null) {
    const p = sheet.proficiencies[input.proficiency.toLowerCase()];
    if (p === undefined) return { code: 'UNKNOWN_PROFICIENCY', message: `${sheet.name} has no proficiency "${input.proficiency}"`, path: 'test.proficiency' };
    bonus += p;
  }
  return { attributeDie: a, skillDie: s, bonus, advantage, luckModifier: sheet.luck };
}
