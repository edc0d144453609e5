// world.ext.daggerheart and the helpers every Daggerheart command file shares:
// who controls a PC, reading a PC or any character, and who may read about one.
import { asJson, own, AUDIENCE_ALL, AUDIENCE_GM, audienceFor, controls, err, ok, type Audience, type Character, type Command, type Json, type Result, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { DAGGERHEART_ID, type DaggerheartState } from './selectors.js';
import { daggerheartSettings } from './settings.js';

export { DAGGERHEART_ID, getDaggerheart, hopeOf, pendingHitsOf, requestsOf, type DaggerheartState, type PendingHit, type RollRequest } from './selectors.js';

export function setDaggerheart(world: World, s: DaggerheartState): World {
  return { ...world, ext: { ...world.ext, [DAGGERHEART_ID]: asJson(s) } };
}

export const MAX_LABEL = 80;

export const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

/** The engine's one check (ADR 27): the GM, or a player whose seat holds this character. */
export { controls };

export const ownCharacter = (field: string) => (world: World, c: Command, actor: Viewer): RuleError | null => (controls(world, actor, c[field]) ? null : FORBIDDEN);

export function readCharacter(world: World, c: Command, field: string): Result<Character> {
  const id = c[field];
  const ch = typeof id === 'string' ? own(world.characters, id) : undefined;
  if (ch === undefined) return err('NOT_FOUND', `${field}: no character ${JSON.stringify(id ?? null).slice(0, 40)}`, field);
  return ok(ch);
}

export function readPc(world: World, c: Command, field: string): Result<Character> {
  const ch = readCharacter(world, c, field);
  if (!ch.ok) return ch;
  if (ch.value.kind !== 'pc') return err('DH_NOT_A_PC', `${ch.value.name} is not a PC: Hope and action rolls belong to PCs`, field);
  return ch;
}

/** A PC by id (NOT_FOUND, or DH_NOT_A_PC for another character), for handlers given a parsed payload. */
export function pcOf(world: World, id: string, field: string): Result<Character> {
  const ch = own(world.characters, id);
  if (ch === undefined) return err('NOT_FOUND', `${field}: no character ${JSON.stringify(id).slice(0, 40)}`, field);
  if (ch.kind !== 'pc') return err('DH_NOT_A_PC', `${ch.name} is not a PC: Hope and action rolls belong to PCs`, field);
  return ok(ch);
}

export function readBool(c: Command, key: string): Result<boolean> {
  const v = c[key];
  if (v === undefined) return ok(false);
  if (typeof v !== 'boolean') return err('INVALID_VALUE', `${key} must be true or false`, key);
  return ok(v);
}

export function readLabel(c: Command, key: string, max = MAX_LABEL): Result<string> {
  const v = c[key];
  if (v === undefined) return ok('');
  if (typeof v !== 'string') return err('INVALID_VALUE', `${key} must be a string`, key);
  if (v.length > max) return err('INVALID_VALUE', `${key} is longer than the limit of ${max} characters`, key);
  return ok(v.trim());
}

/** Who may read about a character: everyone only while it is fully visible. */
export function characterAudience(world: World, id: unknown): Audience {
  if (typeof id !== 'string') return AUDIENCE_ALL;
  const c = world.characters[id];
  return c === undefined ? AUDIENCE_GM : audienceFor(c.visibility);
}

export const fearAudience = (world: World): Audience => (daggerheartSettings(world).fearVisible ? AUDIENCE_ALL : AUDIENCE_GM);

export const nameOf = (world: World, id: unknown): string => (typeof id === 'string' ? (world.characters[id]?.name ?? 'someone') : 'The GM');

export function withStats(world: World, id: string, stats: { readonly [k: string]: Json }): World {
  const c = world.characters[id];
  return c === undefined ? world : { ...world, characters: { ...world.characters, [id]: { ...c, stats: { ...c.stats, ...stats } } } };
}

