// Helpers the OSR commands share: who may act for whom, reading ids and
// numbers, the advantage sources of a check, and HP-change events.
import { controls, getEncounter, type Command, type EngineEvent, type Json, type RuleError, type Viewer, type World, own } from '@tablekeeper/engine';
import { combineAdvantage, isAbility, type Ability } from './checks.js';
import { isCheckTag, lightEffect, litLevel, type CheckTag } from './exploration.js';
import { osrSettings } from './settings.js';
import { encumbrance, readSheet, type Sheet } from './sheet.js';
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

/** authorize(): players only for their own character named in `field`. */
export const ownCharacter =
  (field: string) =>
  (world: World, command: Command, actor: Viewer): RuleError | null =>
    controls(world, actor, command[field]) ? null : FORBIDDEN;

export function readCharacter(world: World, c: Command, field: string): R<string> {
  const id = c[field];
  if (typeof id !== 'string' || own(world.characters, id) === undefined) return fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id ?? null)}`, field);
  return okv(id);
}

export const MAX_LIST = 100;

export function readCharacters(world: World, c: Command, field: string, fallback: () => string[]): R<string[]> {
  const v = c[field];
  if (v === undefined) return okv(fallback());
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LIST) return fail('INVALID_VALUE', `${field} must list 1 to ${MAX_LIST} characters`, field);
  const out: string[] = [];
  for (const id of v) {
    if (typeof id !== 'string' || own(world.characters, id) === undefined) return fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id)}`, field);
    if (!out.includes(id)) out.push(id);
  }
  return okv(out);
}

export function readNum(c: Command, key: string, lo: number, hi: number, fallback?: number): R<number> {
  const v = c[key];
  if (v === undefined && fallback !== undefined) return okv(fallback);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) return fail('INVALID_VALUE', `${key} must be a whole number from ${lo} to ${hi}`, key);
  return okv(v);
}

export function readOpt<T extends string>(c: Command, key: string, allowed: readonly T[], fallback: T): R<T> {
  const v = c[key];
  if (v === undefined) return okv(fallback);
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) return fail('INVALID_VALUE', `${key} must be one of ${allowed.join(', ')}`, key);
  return okv(v as T);
}

export function readBool(c: Command, key: string, fallback: boolean): R<boolean> {
  const v = c[key];
  if (v === undefined) return okv(fallback);
  if (typeof v !== 'boolean') return fail('INVALID_VALUE', `${key} must be true or false`, key);
  return okv(v);
}

export function readAbility(c: Command, key: string, fallback?: Ability): R<Ability> {
  const v = c[key];
  if (v === undefined && fallback !== undefined) return okv(fallback);
  if (!isAbility(v)) return fail('INVALID_VALUE', `${key} must be one of str, dex, con, int, wis, cha`, key);
  return okv(v);
}

export function readTags(c: Command, key = 'tags'): R<CheckTag[]> {
  const v = c[key];
  if (v === undefined) return okv([]);
  if (!Array.isArray(v) || v.length > 13 || !v.every(isCheckTag)) return fail('INVALID_VALUE', `${key} must list check kinds such as stealth, attack, ranged-attack, sight`, key);
  return okv(v as CheckTag[]);
}

export function readText(c: Command, key: string, max: number, fallback: string): R<string> {
  const v = c[key];
  if (v === undefined) return okv(fallback);
  if (typeof v !== 'string' || v.trim().length === 0 || v.length > max) return fail('INVALID_VALUE', `${key} must be text of 1 to ${max} characters`, key);
  return okv(v.trim());
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
    if (encumbrance(sheet.str, sheet.load, sheet.speed).disadvantage) {
      dis++;
      reasons.push('carrying more load than STR');
    }
    if (st.exhausted.includes(id)) {
      dis++;
      reasons.push('exhausted');
    }
    if (st.shaken.includes(id)) {
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
export function readAdvantageCounts(c: Command): R<{ advantage: number; disadvantage: number }> {
  const a = readNum(c, 'advantage', -10, 10, 0);
  if (!a.ok) return a;
  return okv({ advantage: Math.max(0, a.value), disadvantage: Math.max(0, -a.value) });
}

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
  const out: EngineEvent[] = [{ type: 'osr.hpChanged', id, from: sheet.hp, to: next, reason }];
  if (next === 0 && !isDead(world, id) && getOsr(world).dying[id] === undefined) {
    out.push({ type: 'osr.downed', id, at: world.clock.seconds, fight: getEncounter(world).active });
  }
  return out;
}

export const j = (v: unknown): Json => v as Json;

export const nameOf = (world: World, id: string | null): string => (id === null ? 'someone' : (own(world.characters, id)?.name ?? id));
