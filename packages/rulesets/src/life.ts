// Who is dead or dying, read for the browser (issue 20, ADR 53): OSR keeps its
// dead and dying in its own state (001 "Death & Injury"), the 36th Way and
// teams on their kept sheets. The tracker and the phone show a dead creature
// as dead, and the next line-up leaves the dead out. Browser-safe (ADR 7), and
// small: the phone loads it, so it reads OSR's two lists without its state module.
import type { Json, World } from '@tablekeeper/engine';
import { own } from '@tablekeeper/engine/own';
import { keptSheets } from './sheets.js';

type Obj = { readonly [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
/** A ruleset's own state in this view, on that ruleset's table only. */
const stateOf = (world: World, rulesetId: string): Obj | null => {
  const st = world.rulesetId === rulesetId && Object.hasOwn(world.ext, rulesetId) ? world.ext[rulesetId] : undefined;
  return isObj(st) ? st : null;
};

/** OSR's dead (ids) and dying (by id), as its state (osr/state.ts) stores them; empty elsewhere. */
function osrLives(world: World): { dead: readonly string[]; dying: Obj } {
  const st = stateOf(world, 'osr');
  if (st === null) return { dead: [], dying: {} };
  const dead = st['dead'];
  const dying = st['dying'];
  return { dead: Array.isArray(dead) ? dead.filter((x): x is string => typeof x === 'string') : [], dying: isObj(dying) ? dying : {} };
}

/** The characters this view knows to be dead. */
export function deadCharacters(world: World): string[] {
  const out = new Set<string>(osrLives(world).dead);
  for (const s of Object.values(keptSheets(world))) if (s['dead'] === true && typeof s['characterId'] === 'string') out.add(s['characterId']);
  return [...out].filter((id) => own(world.characters, id) !== undefined);
}

/** Flags a tracker row reads beside its numbers (`dead`, `dying`) for a character the ruleset keeps them for elsewhere. */
export function lifeFlags(world: World, characterId: string | null): { [flag: string]: Json } {
  if (characterId === null) return {};
  const { dead, dying } = osrLives(world);
  if (dead.includes(characterId)) return { dead: true };
  return Object.hasOwn(dying, characterId) ? { dying: true } : {};
}

/**
 * The teams creatures this view holds at risk of falling unconscious (003 "Damage": fortify or fall, ADR 112), sorted.
 * The one reader of that list: the phone's gate below and `teamsAwaiting` both read it here (the phone cannot load awaiting.ts).
 */
export function teamsAtRisk(world: World): string[] {
  const atRisk = stateOf(world, 'teams')?.['atRisk'];
  return isObj(atRisk) ? Object.keys(atRisk).sort() : [];
}

/** Someone in this view must choose to fortify or fall: the tracker mounts the prompts between fights. */
export const fallChoiceWaiting = (world: World): boolean => teamsAtRisk(world).length > 0;
