// Pure accessors over world.ext.encounter, for the kernel and for rulesets.
import { controls } from '../core/controls.js';
import { own } from '../core/own.js';
import { asJson, fromJson } from '../core/events.js';
import type { Result, RuleError, Viewer, World } from '../core/types.js';
import type { Combatant, EconomyState, EncounterState } from './types.js';

export const ENCOUNTER_ID = 'encounter';

export function okR<T>(value: T): Result<T> {
  return { ok: true, value };
}
export function errR<T = never>(code: string, message: string, path?: string): Result<T> {
  const error: RuleError = path === undefined ? { code, message } : { code, message, path };
  return { ok: false, error };
}

export const EMPTY_ENCOUNTER: EncounterState = {
  active: false,
  round: 0,
  surpriseActors: null,
  combatants: {},
  roster: [],
  current: null,
  acted: [],
  pending: null,
  turnSerial: 0,
  lastTurn: {},
  seq: null,
  economy: {},
  conditions: {},
  escalation: { offset: 0, suppressed: [] },
  nextJoin: 0,
};

export const EMPTY_ECONOMY: EconomyState = { spent: {}, granted: {}, owed: {}, turnTags: [], roundTags: [], extended: null };

/** The encounter state of a world (an empty, inactive one if none yet). */
export function getEncounter(world: World): EncounterState {
  const raw = world.ext[ENCOUNTER_ID];
  return raw === undefined || raw === null ? EMPTY_ENCOUNTER : fromJson<EncounterState>(raw);
}

/**
 * A turn number as players see it: hidden combatants' turns are not counted,
 * so a gap can never reveal them. Rulesets that keep turn numbers in their
 * own state map them through this in their projectors.
 */
export function playerTurnSerial(enc: EncounterState, serial: number): number {
  return serial - (enc.hiddenTurns ?? []).filter((h) => h <= serial).length;
}

export function setEncounter(world: World, enc: EncounterState): World {
  return { ...world, ext: { ...world.ext, [ENCOUNTER_ID]: asJson(enc) } };
}

export function getCombatant(world: World, id: string): Combatant | undefined {
  return own(getEncounter(world).combatants, id);
}

/** Replace one combatant through `fn` (rulesets use this inside their own reducers). */
export function updateCombatant(world: World, id: string, fn: (c: Combatant) => Combatant): World {
  const enc = getEncounter(world);
  const c = own(enc.combatants, id);
  if (c === undefined) return world;
  return setEncounter(world, { ...enc, combatants: { ...enc.combatants, [id]: fn(c) } });
}

export function updateEncounter(world: World, fn: (e: EncounterState) => EncounterState): World {
  return setEncounter(world, fn(getEncounter(world)));
}

/** Combatants in join order. */
export function combatantList(enc: EncounterState): Combatant[] {
  return enc.roster.map((id) => own(enc.combatants, id)).filter((c): c is Combatant => c !== undefined);
}

/**
 * The combatant a creature id names (docs/vocabulary.md: one id for a creature):
 * its combatant id, or the character it plays. A combatant without a character
 * is named by its own id.
 */
export function combatantNamed(enc: EncounterState, id: string): Combatant | undefined {
  return own(enc.combatants, id) ?? combatantList(enc).find((c) => c.characterId === id);
}

/**
 * The GM, or the player of the character a creature stands for (ADR 58: the rulesets' one check):
 * the link its ruleset keeps for that id (a kept sheet's `characterId`), else the character its
 * combatant plays. An id that is not text, or a creature linked to no character, is the GM's.
 */
export function controlsCreature(world: World, actor: Viewer, id: unknown, linkOf?: (id: string) => string | null | undefined): boolean {
  if (actor.role === 'gm') return true;
  if (typeof id !== 'string') return false;
  const link = linkOf?.(id) ?? own(getEncounter(world).combatants, id)?.characterId ?? null;
  return link !== null && controls(world, actor, link);
}

/** The GM, or the player whose seat holds the character a combatant plays (an unlinked combatant is the GM's). */
export function controlsCombatant(world: World, actor: Viewer, id: unknown): boolean {
  if (actor.role === 'gm') return true;
  const c = typeof id === 'string' ? combatantNamed(getEncounter(world), id) : undefined;
  return c !== undefined && c.characterId !== null && controls(world, actor, c.characterId);
}
