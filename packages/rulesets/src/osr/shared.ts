// Helpers the OSR commands share once the schema has passed: who may act for
// whom, the characters a payload names, the advantage sources of a check, and
// HP-change events.
import { controls, getEncounter, type EngineEvent, type Json, type RuleError, type Viewer, type World, own } from '@tablekeeper/engine';
import { combineAdvantage } from './checks.js';
import { conditionEffect } from './conditions.js';
import { lightEffect, litLevel, type CheckTag } from './exploration.js';
import { osrSettings } from './settings.js';
import { carriedLoad, encumbrance, readSheet, type Sheet } from './sheet.js';
import type { OsrEvent } from './events.js';
import { getOsr, type OsrState } from './state.js';

export type R<T> = { ok: true; value: T } | { ok: false; error: RuleError };
export const okv = <T>(value: T): R<T> => ({ ok: true, value });
export const fail = (code: string, message: string, path?: string): { ok: false; error: RuleError } => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

export const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

/** The engine's one check (ADR 27): the GM, or a player whose seat holds this character. */
export { controls };

/** authorize(): the GM, or a player for their own character (ADR 27's one check). */
export const mayActFor = (world: World, actor: Viewer, characterId: string | undefined): RuleError | null => (controls(world, actor, characterId) ? null : FORBIDDEN);

/** A character the payload names (the schema has checked its shape; this checks it is at the table). */
export function needCharacter(world: World, id: string, field: string): R<string> {
  return own(world.characters, id) === undefined ? fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id)}`, field) : okv(id);
}

/** Characters the payload lists, each at the table, once each; `fallback` when the field is left out. */
export function needCharacters(world: World, ids: readonly string[] | undefined, field: string, fallback: () => string[]): R<string[]> {
  if (ids === undefined) return okv(fallback());
  const out: string[] = [];
  for (const id of ids) {
    if (own(world.characters, id) === undefined) return fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id)}`, field);
    if (!out.includes(id)) out.push(id);
  }
  return okv(out);
}

// ---------------------------------------------------------------- range

export type AttackDelivery = 'melee' | 'ranged';
export type AttackRange = 'close' | 'ranged' | 'far';

/**
 * An attack's delivery, range band and long-range tag as osr.attack and osr.attackOdds both read them (001 "Range",
 * "Range & Attacks", "Brilliant"): a weapon is delivered as its kind, a spell as listed (ranged unless said); far is
 * beyond any attack, melee needs close range, and long range lies beyond melee reach.
 */
export function attackReach(p: { kind?: 'melee' | 'ranged' | 'arcane' | 'divine'; delivery?: AttackDelivery; range?: AttackRange; longRange?: boolean }): R<{ kind: 'melee' | 'ranged' | 'arcane' | 'divine'; delivery: AttackDelivery; range: AttackRange; tags: CheckTag[] }> {
  const kind = p.kind ?? 'melee';
  const weapon = kind === 'melee' || kind === 'ranged' ? kind : null;
  if (weapon !== null && p.delivery !== undefined && p.delivery !== weapon) return fail('INVALID_VALUE', `delivery is for spells (arcane or divine): a ${weapon} weapon attack is delivered ${weapon === 'melee' ? 'in melee' : 'at range'}`, 'delivery');
  const delivery = weapon ?? p.delivery ?? 'ranged';
  const range = p.range ?? (delivery === 'melee' ? 'close' : 'ranged');
  if (range === 'far') return fail('OUT_OF_RANGE', 'far is beyond weapons and spells (001 "Positioning")', 'range');
  if (delivery === 'melee' && range !== 'close') return fail('OUT_OF_RANGE', 'a melee attack needs close range (5-10 feet)', 'range');
  if (p.longRange === true && range === 'close') return fail('OUT_OF_RANGE', 'a long-range attack is made from beyond melee reach, not at close range', 'longRange');
  const tags: CheckTag[] = ['attack'];
  if (delivery === 'ranged') tags.push('ranged-attack');
  if (p.longRange === true) tags.push('long-range-attack');
  return okv({ kind, delivery, range, tags });
}

// ---------------------------------------------------------------- advantage

export interface AdvantageInput {
  /** GM-granted advantage / disadvantage sources (flanking, outnumbered...). */
  readonly advantage?: number;
  readonly disadvantage?: number;
  readonly tags?: readonly CheckTag[];
  /** Light at the check, when it differs from the scene's (a ranged target in darkness...). */
  readonly light?: OsrState['ambient'];
}

export interface AdvantageOutcome {
  readonly advantage: -1 | 0 | 1;
  /** Why, in words, for the log. */
  readonly reasons: string[];
  /** Sight in darkness without darksight: the check cannot succeed. */
  readonly impossible: boolean;
}

/** Exhausted by the rules' lasting state (a failed resilience check, a corruption) or by the condition picked in a fight. */
export function isExhausted(world: World, id: string): boolean {
  return getOsr(world).exhausted.includes(id) || conditionEffect(world, id, 'exhausted') > 0;
}

/** In stealth (001 "Positioning"): hidden by a stealth check, or marked so by the GM's condition; no one can target them directly. */
export function isHidden(world: World, id: string): boolean {
  return getOsr(world).hidden.includes(id) || conditionEffect(world, id, 'untargetable') > 0;
}

/** Is any light source of this character (or an unowned one at the scene) burning? */
export function sourceBurning(world: World): boolean {
  return Object.values(getOsr(world).sources).some((s) => s.burnsOutAt !== null);
}

/**
 * Every automatic advantage source of a check: load over STR and exhaustion
 * (disadvantage on all checks), injury rows 14-19, the light level for the
 * check's kinds, plus what the GM grants.
 */
export function checkAdvantage(world: World, id: string | null, input: AdvantageInput): AdvantageOutcome {
  const st = getOsr(world);
  const sheet: Sheet = readSheet(id === null ? undefined : own(world.characters, id)?.stats);
  let adv = Math.max(0, input.advantage ?? 0);
  let dis = Math.max(0, input.disadvantage ?? 0);
  const reasons: string[] = [];
  if (adv > 0) reasons.push('advantage granted');
  if (dis > 0) reasons.push('disadvantage imposed');
  if (id !== null) {
    if (encumbrance(sheet.str, carriedLoad(sheet), sheet.speed).disadvantage) {
      dis++;
      reasons.push('carrying more load than STR');
    }
    // The ruleset's lasting state or the fight's condition (ADR 70): either way one disadvantage.
    if (isExhausted(world, id)) {
      dis++;
      reasons.push('exhausted');
    }
    if (st.shaken.includes(id) || conditionEffect(world, id, 'injured') > 0) {
      dis++;
      reasons.push('injured: disadvantage until rest');
    }
  }
  let impossible = false;
  const tags = input.tags ?? [];
  if (tags.length > 0) {
    const level = input.light ?? litLevel(st.ambient, sourceBurning(world));
    const fx = lightEffect(level, tags, { darksight: sheet.darksight, surfacer: sheet.surfacer });
    if (fx.advantage > 0) {
      adv += fx.advantage;
      reasons.push(`${level} light favours it`);
    }
    if (fx.disadvantage > 0) {
      dis += fx.disadvantage;
      reasons.push(`${level} light hinders it`);
    }
    impossible = fx.impossible;
  }
  return { advantage: combineAdvantage(adv, dis, osrSettings(world).advantageCombine), reasons, impossible };
}

/** docs/vocabulary.md: one signed `advantage` (net GM-granted sources), split into the counts the rules combine. */
export const advantageCounts = (advantage = 0): { advantage: number; disadvantage: number } => ({ advantage: Math.max(0, advantage), disadvantage: Math.max(0, -advantage) });

/** The old `disadvantage` count folds into the signed `advantage` (a value the fold cannot read is left for the schema to name). */
export function netAdvantage(disadvantage: Json, advantage: Json | undefined): Json {
  if (typeof disadvantage !== 'number' || (advantage !== undefined && typeof advantage !== 'number')) return disadvantage;
  return (advantage ?? 0) - disadvantage;
}

// ---------------------------------------------------------------- HP

export function isDead(world: World, id: string): boolean {
  return getOsr(world).dead.includes(id);
}

/**
 * Events for a new HP value, kept within 0..max (001 "Healing & HP"); reaching
 * 0 incapacitates and starts the death timer on the clock.
 */
export function hpEvents(world: World, id: string, to: number, reason: string): EngineEvent[] {
  const sheet = readSheet(own(world.characters, id)?.stats);
  const next = Math.max(0, Math.min(sheet.maxHp, Math.round(to)));
  if (next === sheet.hp) return [];
  const out: EngineEvent[] = [{ type: 'osr.hpChanged', characterId: id, from: sheet.hp, to: next, reason } satisfies OsrEvent];
  if (next === 0 && !isDead(world, id) && getOsr(world).dying[id] === undefined) {
    out.push({ type: 'osr.downed', characterId: id, at: world.clock.seconds, fight: getEncounter(world).active } satisfies OsrEvent);
  }
  return out;
}


export const nameOf = (world: World, id: string | null): string => (id === null ? 'someone' : (own(world.characters, id)?.name ?? id));

/** What a foe added without an AC must be given before it can be attacked (001 names no default AC; review 10). */
export const SET_AC = 'give it one with Set AC under Adjust on its row';

/** A foe's character made without an AC (the encounter builder's box left blank): rolled against the sheet's default. */
export function lacksAc(world: World, id: string): boolean {
  const ch = own(world.characters, id);
  return ch !== undefined && ch.kind === 'npc' && !Object.hasOwn(ch.stats, 'ac');
}

/** A foe on the tracker only (no character, so no AC), by its combatant id: its name, else null. */
export function bareFoe(world: World, id: string): string | null {
  const c = own(getEncounter(world).combatants, id);
  return c !== undefined && c.kind === 'npc' && (c.characterId === null || own(world.characters, c.characterId) === undefined) ? c.name : null;
}

/** The refusal an attack on a foe with no character (so no AC) gets, naming it; null for anyone else. */
export function noAcYet(world: World, id: string): { ok: false; error: RuleError } | null {
  const bare = own(world.characters, id) === undefined ? bareFoe(world, id) : null;
  return bare === null ? null : fail('NO_AC', `${bare} has no AC yet: ${SET_AC}`, 'targetId');
}
