// world.ext.teams: sheets keyed by combatant id, the multiple attack
// penalty counts, attacks waiting for the target's reaction, characters who
// must choose to fortify or fall unconscious, and Command grants.
import { asJson, fromJson } from '@tablekeeper/engine/events';
import type { Audience, Viewer, World } from '@tablekeeper/engine';
import { controlsCreature as controlsAnyCreature, getEncounter, own } from '@tablekeeper/engine';
import type { Sheet } from './sheet.js';

export const TEAMS_ID = 'teams';

/** An attack that hit and waits for the target to choose a reaction before damage lands (003 "Block": decide after the hit, before the damage). */
export interface PendingAttack {
  readonly id: string;
  readonly attacker: string;
  readonly target: string;
  readonly weapon: string;
  readonly result: number;
  readonly luck: number;
  readonly critical: boolean;
  /** The weapon's damage used (critical damage on a critical). */
  readonly weaponDamage: number;
  readonly damageType: string;
  readonly nonlethal: boolean;
  readonly ranged: boolean;
  /** Someone intercepted: the new target's defensive action is a free reaction. */
  readonly freeReaction: boolean;
  readonly intercepted: string | null;
}

export interface TeamsState {
  readonly sheets: { readonly [id: string]: Sheet };
  /** Attacks made this round, per attacker, for the multiple attack penalty. */
  readonly attackCounts: { readonly [id: string]: { readonly round: number; readonly encounter?: number; readonly count: number } };
  readonly pending: { readonly [attackId: string]: PendingAttack };
  /** Must fortify against `difficulty` or fall unconscious (003 "Damage"). */
  readonly atRisk: { readonly [id: string]: { readonly difficulty: number } };
  /** Command: `ally` may take one action during `by`'s turn number `serial`. */
  readonly commanded: { readonly [ally: string]: { readonly by: string; readonly serial: number } };
}

export const EMPTY_TEAMS: TeamsState = { sheets: {}, attackCounts: {}, pending: {}, atRisk: {}, commanded: {} };

export function getTeams(world: World): TeamsState {
  const raw = world.ext[TEAMS_ID];
  return raw === undefined || raw === null ? EMPTY_TEAMS : fromJson<TeamsState>(raw);
}

export function setTeams(world: World, st: TeamsState): World {
  return { ...world, ext: { ...world.ext, [TEAMS_ID]: asJson(st) } };
}

export function updateTeams(world: World, f: (s: TeamsState) => TeamsState): World {
  return setTeams(world, f(getTeams(world)));
}

export function updateSheet(world: World, id: string, f: (s: Sheet) => Sheet): World {
  const st = getTeams(world);
  const s = own(st.sheets, id);
  return s === undefined ? world : setTeams(world, { ...st, sheets: { ...st.sheets, [id]: f(s) } });
}

export function without<T>(o: { readonly [k: string]: T }, k: string): { [k: string]: T } {
  const out = { ...o };
  delete out[k];
  return out;
}

/** The GM, or the player of the character this sheet key stands for: the sheet's link, else the combatant's (the engine's one check, ADR 58). */
export function controlsCreature(world: World, actor: Viewer, id: string): boolean {
  return controlsAnyCreature(world, actor, id, (k) => own(getTeams(world).sheets, k)?.characterId);
}

/** Secret: the GM marked the sheet secret, or the combatant is not fully visible in the encounter. */
/**
 * Default-deny (ADR 10): a sheet or combatant is public only when its audience
 * is known to be everyone: a fully visible combatant in the fight, else a fully
 * visible character (by key or the sheet's characterId). A sheet nobody vouches
 * for, or a combatant that left while hidden, is the GM's. Ids that name no
 * entity (an attack id) are not secret by themselves.
 */
export function isSecret(world: World, id: string): boolean {
  const sheets = getTeams(world).sheets;
  const sheet = Object.hasOwn(sheets, id) ? sheets[id] : undefined;
  if (sheet?.secret === true) return true;
  const enc = getEncounter(world);
  if (Object.hasOwn(enc.combatants, id)) return !enc.roster.includes(id) || own(enc.combatants, id)!.visibility !== 'visible';
  if ((enc.hiddenGone ?? []).includes(id)) return true;
  const chId = Object.hasOwn(world.characters, id) ? id : (sheet?.characterId ?? null);
  if (chId !== null && Object.hasOwn(world.characters, chId)) return own(world.characters, chId)!.visibility !== 'visible';
  return sheet !== undefined;
}

/** Log and event audience: GM-only when anyone involved is secret. */
export function audienceOf(world: World, ids: readonly (string | null | undefined)[]): Audience {
  return ids.some((id) => typeof id === 'string' && isSecret(world, id)) ? { kind: 'gm' } : { kind: 'all' };
}

export function nameOf(world: World, id: string): string {
  return own(getTeams(world).sheets, id)?.name ?? own(getEncounter(world).combatants, id)?.name ?? id;
}

/** 003 "Damage": the words a table uses for a character's state. */
export function teamsStatus(world: World, id: string): { harmed: boolean; bloodied: boolean; conscious: boolean; dead: boolean } | null {
  const s = own(getTeams(world).sheets, id);
  if (s === undefined) return null;
  return { harmed: s.endurance * 2 <= s.maxEndurance, bloodied: s.health < s.maxHealth, conscious: s.conscious, dead: s.dead };
}
