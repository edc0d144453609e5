// Reading command fields with the teams commands' own limits, shared by the
// commands and the queries that answer "what if" for them.
import { combatantNamed, getEncounter, type Command, type RuleError, type World } from '@tablekeeper/engine';
import { isError, MAX_NEARBY, type AttackInput } from './combat.js';
import type { TestInput } from './roll.js';
import { getTeams } from './state.js';

export const MAX_ID = 80;

export function id(c: Command, k: string): string | RuleError {
  const v = c[k];
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_ID ? v : { code: 'INVALID_VALUE', message: `${k} must be an id of 1-${MAX_ID} characters`, path: k };
}

export function optStr(c: Command, k: string): string | undefined | RuleError {
  const v = c[k];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' && v.length > 0 && v.length <= 40 ? v : { code: 'INVALID_VALUE', message: `${k} must be a name of 1-40 characters`, path: k };
}

export function intIn(c: Command, k: string, min: number, max: number, dflt?: number): number | RuleError {
  const v = c[k];
  if (v === undefined && dflt !== undefined) return dflt;
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : { code: 'INVALID_VALUE', message: `${k} must be an integer in [${min}, ${max}]`, path: k };
}

/**
 * The sheet key a creature id names (docs/vocabulary.md: one id for a creature). Sheets are
 * keyed by combatant id: a sheet's or combatant's own key, else the sheet or combatant that
 * plays this character; an id naming nothing is returned as it is, for the caller to refuse.
 */
export function creatureKey(world: World, creature: string): string {
  const sheets = getTeams(world).sheets;
  const enc = getEncounter(world);
  if (Object.hasOwn(sheets, creature) || Object.hasOwn(enc.combatants, creature)) return creature;
  const bySheet = Object.entries(sheets).find(([, s]) => s.characterId === creature)?.[0];
  return bySheet ?? combatantNamed(enc, creature)?.id ?? creature;
}

/** A creature field read as a sheet key (see creatureKey). */
export function creature(world: World, c: Command, k: string): string | RuleError {
  const v = id(c, k);
  return isError(v) ? v : creatureKey(world, v);
}

/** teams.attack's fields (attackerId, targetId, weapon, attribute, proficiency, sneak, flank, nearby, bonus, await). */
export function readAttack(world: World, c: Command): AttackInput | RuleError {
  const attacker = creature(world, c, 'attackerId');
  if (isError(attacker)) return attacker;
  const target = creature(world, c, 'targetId');
  if (isError(target)) return target;
  const weapon = id(c, 'weapon');
  if (isError(weapon)) return weapon;
  const attribute = optStr(c, 'attribute');
  if (isError(attribute)) return attribute;
  const proficiency = optStr(c, 'proficiency');
  if (isError(proficiency)) return proficiency;
  const bonus = intIn(c, 'bonus', -100, 100, 0);
  if (isError(bonus)) return bonus;
  const nearbyIn = c['nearby'] ?? [];
  if (!Array.isArray(nearbyIn) || nearbyIn.length > MAX_NEARBY || !nearbyIn.every((x) => typeof x === 'string')) {
    return { code: 'INVALID_VALUE', message: `nearby must be a list of at most ${MAX_NEARBY} character ids`, path: 'nearby' };
  }
  const nearby = [...new Set(nearbyIn as string[])];
  return {
    attacker,
    target,
    weapon,
    ...(attribute !== undefined ? { attribute } : {}),
    ...(proficiency !== undefined ? { proficiency } : {}),
    sneak: c['sneak'] === true,
    flank: c['flank'] === true,
    nearby,
    bonus,
    await: c['await'] === true,
  };
}

/** An ordinary test as a parsed payload gives it (the declaration's `test`): a null proficiency is none. */
export function testFrom(t: { readonly attribute: string; readonly skill: string; readonly proficiency?: string | null | undefined; readonly bonus?: number | undefined }): TestInput {
  return { attribute: t.attribute, skill: t.skill, ...(typeof t.proficiency === 'string' ? { proficiency: t.proficiency } : {}), ...(t.bonus !== undefined ? { bonus: t.bonus } : {}) };
}

/** The attack fields of a parsed teams.attack or teams.killingStrike payload, with creature ids read as sheet keys. */
export interface AttackFields {
  readonly attackerId: string;
  readonly targetId: string;
  readonly weapon: string;
  readonly attribute?: string | undefined;
  readonly proficiency?: string | undefined;
  readonly bonus?: number | undefined;
  readonly nearby?: readonly string[] | undefined;
  readonly sneak?: boolean | undefined;
  readonly flank?: boolean | undefined;
  readonly await?: boolean | undefined;
}

export function attackFrom(world: World, p: AttackFields): AttackInput {
  return {
    attacker: creatureKey(world, p.attackerId),
    target: creatureKey(world, p.targetId),
    weapon: p.weapon,
    ...(p.attribute !== undefined ? { attribute: p.attribute } : {}),
    ...(p.proficiency !== undefined ? { proficiency: p.proficiency } : {}),
    sneak: p.sneak === true,
    flank: p.flank === true,
    nearby: [...new Set(p.nearby ?? [])],
    bonus: p.bonus ?? 0,
    await: p.await === true,
  };
}
