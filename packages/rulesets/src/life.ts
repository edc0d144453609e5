// Who is dead or dying, read for the browser (issue 20, ADR 53): OSR keeps its
// dead and dying in its own state (001 "Death & Injury"), the 36th Way and
// teams on their kept sheets. The tracker and the phone show a dead creature
// as dead, and the next line-up leaves the dead out. Browser-safe (ADR 7).
import type { Json, World } from '@tablekeeper/engine';
import { own } from '@tablekeeper/engine/own';
import { keptSheets } from './sheets.js';
import { getOsr } from './osr/state.js';

/** The characters this view knows to be dead. */
export function deadCharacters(world: World): string[] {
  const out = new Set<string>();
  if (world.rulesetId === 'osr') for (const id of getOsr(world).dead) out.add(id);
  for (const s of Object.values(keptSheets(world))) if (s['dead'] === true && typeof s['characterId'] === 'string') out.add(s['characterId']);
  return [...out].filter((id) => own(world.characters, id) !== undefined);
}

/** Flags a tracker row reads beside its numbers (`dead`, `dying`) for a character the ruleset keeps them for elsewhere. */
export function lifeFlags(world: World, characterId: string | null): { [flag: string]: Json } {
  if (characterId === null || world.rulesetId !== 'osr') return {};
  const st = getOsr(world);
  if (st.dead.includes(characterId)) return { dead: true };
  return Object.hasOwn(st.dying, characterId) ? { dying: true } : {};
}
