// Checks the encounter's commands share once the schema has passed: limits the
// schema cannot know, the running encounter, the combatant a creature id names,
// and who may act for a combatant.
import { own } from '../core/own.js';
import { ErrorCode } from '../core/result.js';
import type { Json, Result, RuleError, Viewer, World } from '../core/types.js';
import type { PayloadOf } from '../core/catalog.js';
import type { EncounterDeclarations } from './declarations.js';
import { combatantNamed, controlsCombatant, errR, getEncounter, okR } from './state.js';
import type { Combatant, EncounterState } from './types.js';

export const MAX_COMBATANTS = 200;
/** Most keys one combatant's own stats may hold (as for a character's sheet). */
export const MAX_COMBATANT_STATS = 200;

/** A combatant as encounter.start and encounter.add receive it (parsed against the declaration). */
export type CombatantInput = PayloadOf<EncounterDeclarations['add']>['combatant'];

/**
 * A combatant from its input. Without an id it takes its character's id, else
 * `fresh()` (a random id the caller mints and records in the event), so hidden
 * combatants are never guessable from visible ones (ADR 18).
 */
export function combatantFrom(world: World, j: CombatantInput, joined: number, fresh: () => string): Combatant {
  const linked = j.characterId === undefined || j.characterId === null ? undefined : own(world.characters, j.characterId);
  const id = j.id ?? linked?.id ?? fresh();
  return {
    id,
    name: j.name ?? (j.id === undefined && linked !== undefined ? linked.name : id),
    kind: j.kind,
    side: j.side ?? (j.kind === 'pc' ? 'pcs' : 'npcs'),
    characterId: j.characterId ?? null,
    stats: j.stats ?? {},
    visibility: j.visibility ?? 'visible',
    incapacitated: j.incapacitated === true,
    unsurprisable: j.unsurprisable === true,
    placement: null,
    joined,
    readied: null,
  };
}

/** A typed value handed on as JSON (a sequencer's placement input, an event field). */
export function asJson(x: unknown): Json {
  return x as Json;
}

// ---------------------------------------------------------------- authorization

export const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that combatant may do this' };

/** The GM, or the player of the combatant whose turn it is. */
export function ownsCurrent(world: World, _p: unknown, actor: Viewer): RuleError | null {
  const id = getEncounter(world).current;
  if (id === null) return actor.role === 'gm' ? null : FORBIDDEN;
  return controlsCombatant(world, actor, id) ? null : FORBIDDEN;
}

/** The GM, or the player of the creature the payload's characterId names. */
export function ownsCreature(world: World, p: { readonly characterId: string }, actor: Viewer): RuleError | null {
  return controlsCombatant(world, actor, p.characterId) ? null : FORBIDDEN;
}

// ---------------------------------------------------------------- state checks

export function needActive(world: World): Result<EncounterState> {
  const enc = getEncounter(world);
  return enc.active ? okR(enc) : errR('NO_ENCOUNTER', 'no encounter is running');
}

/** The combatant a creature id names: its combatant id or the character it plays (docs/vocabulary.md). */
export function needCombatant(enc: EncounterState, id: string, path: string): Result<Combatant> {
  const c = combatantNamed(enc, id);
  return c === undefined ? errR(ErrorCode.NOT_FOUND, `no combatant "${id}" in this encounter`, path) : okR(c);
}

/** The running encounter and the combatant a creature id names in it: the prelude most per-combatant commands share. */
export function needActor(world: World, id: string, path = 'characterId'): Result<{ enc: EncounterState; combatant: Combatant }> {
  const a = needActive(world);
  if (!a.ok) return a;
  const c = needCombatant(a.value, id, path);
  return c.ok ? okR({ enc: a.value, combatant: c.value }) : c;
}

export function needCurrent(enc: EncounterState): Result<string> {
  return enc.current === null ? errR('NO_CURRENT_TURN', enc.pending !== null ? `waiting for a decision: ${enc.pending.prompt}` : 'nobody is taking a turn') : okR(enc.current);
}
