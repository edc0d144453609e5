// What the Kleptonomicon's commands, reducers and views share (004): reading
// fields, who controls whom, sheet numbers, secrecy, log lines, the phase
// guards and a turn's movement.
import { appendLog, AUDIENCE_ALL, AUDIENCE_GM, combatantNamed, controls, controlsCreature, err, foeNumbersView, getEncounter, isFoeCharacter, ok, own, type Audience, type EngineEvent, type Json, type Result, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { interruptEffect, startTurnMovement, type MovementStyle, type TurnMovement } from './movement.js';
import { ABILITY_TIMES, type Ability, type EncounterPhase, type EpisodePhase } from './phases.js';
import { K, setting } from './settings.js';
import { getKlepto, type KleptoState } from './state.js';
import type { KleptoEvent } from './events.js';

export const MAX_TEXT = 500;
export const BEATS_PER_ROUND = 2;
export const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

// ---------------------------------------------------------------- reading typed payloads

/** Typed text is already bounded by its schema; only whitespace is left to refuse (it says nothing). */
export function blank(v: string, key: string): RuleError | null {
  return v.trim() === '' ? { code: 'INVALID_VALUE', message: `${key} must be a non-empty string of at most ${MAX_TEXT} characters`, path: key } : null;
}

// ---------------------------------------------------------------- who is who

/** Who acts for a character is the engine's one check (ADR 27). */
export const controlsCharacter = controls;

export function characterOfCombatant(world: World, id: string): string | null {
  return own(getEncounter(world).combatants, id)?.characterId ?? null;
}

/** The GM, or the player of the character a combatant plays (the engine's one check, ADR 58). */
export function controlsCombatant(world: World, actor: Viewer, combatantId: Json | undefined): boolean {
  return controlsCreature(world, actor, combatantId);
}

/** Sheet numbers: the linked character's stats, else the combatant's own (NPCs). */
export function sheet(world: World, combatantId: string): { readonly [k: string]: Json } {
  const c = own(getEncounter(world).combatants, combatantId);
  const ch = c?.characterId != null ? own(world.characters, c.characterId) : undefined;
  return ch?.stats ?? c?.stats ?? {};
}

export function stylesOf(world: World, combatantId: string): MovementStyle[] {
  const raw = sheet(world, combatantId)['movementStyles'] ?? setting(world, K.defaultStyles);
  const out: MovementStyle[] = [];
  if (Array.isArray(raw)) {
    for (const s of raw) {
      if (s === null || typeof s !== 'object' || Array.isArray(s) || typeof s['style'] !== 'string') continue;
      const v = s['variant'];
      out.push({ style: s['style'], variant: v === 'half' || v === 'double' ? v : 'normal' });
    }
  }
  return out;
}

/** An ability's key made from its name ("Quick Strike" is quick-strike), for a sheet that gives none. */
export function abilityKeyOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

export function abilitiesOf(world: World, characterId: string | null, combatantId: string | null): Ability[] {
  const stats = characterId !== null ? own(world.characters, characterId)?.stats : combatantId !== null ? sheet(world, combatantId) : undefined;
  const raw = stats?.['abilities'];
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((a): Ability[] => {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) return [];
    // A sheet entered without an id is keyed by its name (ADR 51, as the 36th Way's: ADR 43).
    const id = typeof a['id'] === 'string' ? a['id'] : typeof a['name'] === 'string' ? abilityKeyOf(a['name']) : undefined;
    const time = a['time'];
    if (typeof id !== 'string' || id === '' || typeof time !== 'string' || !(ABILITY_TIMES as readonly string[]).includes(time)) return [];
    const name = typeof a['name'] === 'string' ? a['name'] : id;
    const seconds = typeof a['seconds'] === 'number' ? a['seconds'] : undefined;
    const recovery = a['recovery'] === 'dodgesUp' || a['recovery'] === 'shieldsUp' || a['recovery'] === 'healUp' ? a['recovery'] : undefined;
    const int = (v: Json | undefined): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
    const modifier = int(a['modifier']);
    const slowed = int(a['slowed']);
    return [
      {
        id,
        name,
        time: time as Ability['time'],
        ...(seconds !== undefined ? { seconds } : {}),
        ...(recovery !== undefined ? { recovery } : {}),
        ...(a['attack'] === true ? { attack: true } : {}),
        ...(modifier !== undefined ? { modifier } : {}),
        ...(typeof a['damage'] === 'string' && a['damage'] !== '' ? { damage: a['damage'] } : {}),
        ...(slowed !== undefined && slowed > 0 ? { slowed } : {}),
        ...(a['interrupts'] === true ? { interrupts: true } : {}),
        ...(typeof a['reach'] === 'string' && a['reach'] !== '' ? { reach: a['reach'] } : {}),
      },
    ];
  });
}

/** Which resources each recovery ability restores ("Reward Phase": Dodges, Shield, Health and Vitality). */
export const RECOVERS: { readonly [r: string]: readonly string[] } = { dodgesUp: ['dodges'], shieldsUp: ['shield'], healUp: ['health', 'vitality'] };

export function nameOf(world: World, id: string): string {
  return own(getEncounter(world).combatants, id)?.name ?? own(world.characters, id)?.name ?? id;
}

export function isSecretCombatant(world: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return false;
  const v = own(getEncounter(world).combatants, id)?.visibility;
  return v === 'hidden' || v === 'existence';
}

export function isSecretCharacter(world: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return false;
  const ch = own(world.characters, id);
  return ch !== undefined && ch.visibility !== 'visible';
}

/** Events about a hidden combatant or an unrevealed character stay with the GM. */
export function audienceOf(world: World, e: EngineEvent): Audience {
  for (const k of ['combatant', 'combatantId', 'target', 'targetId', 'attacker', 'attackerId', 'by']) if (isSecretCombatant(world, e[k])) return AUDIENCE_GM;
  if (isSecretCharacter(world, e['characterId'])) return AUDIENCE_GM;
  return AUDIENCE_ALL;
}

export function log(world: World, e: EngineEvent, kind: string, line: string, data?: Json, shown?: string): World {
  return appendLog(world, { audience: audienceOf(world, e), kind, text: line, ...(shown !== undefined ? { shown } : {}), ...(data !== undefined ? { data } : {}) });
}

/** Anyone but a PC (an NPC character, one since removed): its resources (health, vitality...) are the GM's (ADR 33). */
export const isFoe = (world: World, id: Json | undefined): boolean => typeof id !== 'string' || isFoeCharacter(world, id);

/** History as players read it: a foe's resource change without its numbers, but for a fall to 0 (ADR 33), by the shared filter. */
export const kleptoEventView: { readonly [type: string]: (world: World, e: EngineEvent) => EngineEvent } = {
  'kleptonomicon.resourceSet': foeNumbersView({ id: 'characterId', numbers: ['from', 'value', 'max'], fall: 'value' }),
  // The Defense an attack met is the target's own number, shown to players when the GM shows defences.
  'kleptonomicon.attackRolled': foeNumbersView({ id: 'targetId', numbers: ['defense'], revealedBy: 'defences' }),
};

// ---------------------------------------------------------------- the module

// ---------------------------------------------------------------- phases and turns

export const inPhase = (st: KleptoState, ...phases: EpisodePhase[]): RuleError | null =>
  phases.includes(st.phase) ? null : { code: 'WRONG_PHASE', message: `not during ${describePhase(st)} (needs ${phases.join(' or ')})` };

export const inEncounterPhase = (st: KleptoState, ...phases: EncounterPhase[]): RuleError | null =>
  st.phase === 'encounter' && st.encounterPhase !== null && phases.includes(st.encounterPhase)
    ? null
    : { code: 'WRONG_PHASE', message: `not during ${describePhase(st)} (needs the ${phases.join(' or ')} phase of an Encounter)` };

export function phaseChange(st: KleptoState, to: EpisodePhase, encounterTo: EncounterPhase | null): EngineEvent {
  return { type: 'kleptonomicon.phaseChanged', from: st.phase, to, encounterFrom: st.encounterPhase, encounterTo } satisfies KleptoEvent;
}

/** The current combatant's movement this turn, checking it is their turn in the Main phase. */
export function turnMovement(world: World, characterId: string, path = 'characterId'): Result<{ id: string; tm: TurnMovement }> {
  const st = getKlepto(world);
  const bad = inEncounterPhase(st, 'main');
  if (bad !== null) return { ok: false, error: bad };
  const enc = getEncounter(world);
  // A character's id, or an unlinked combatant's own id (docs/vocabulary.md): the combatant it plays moves.
  const c = combatantNamed(enc, characterId);
  if (c === undefined) return err('NOT_FOUND', `no combatant "${characterId}" in this Encounter`, path);
  const id = c.id;
  if (enc.current !== id) return err('NOT_YOUR_TURN', `${nameOf(world, id)} moves on their own turn`, path);
  const tm = st.movement[id] ?? startTurnMovement(stylesOf(world, id), st.prone.includes(id));
  return ok({ id, tm });
}


export function interruption(world: World, id: string, reason: string, heavy: boolean): EngineEvent {
  const st = getKlepto(world);
  const style = st.movement[id]?.active ?? 'walk';
  return { type: 'kleptonomicon.movementInterrupted', combatant: id, style, effect: interruptEffect(style, { heavy: heavy || sheet(world, id)['heavy'] === true }), reason } satisfies KleptoEvent;
}

export function describePhase(st: KleptoState): string {
  switch (st.phase) {
    case 'between':
      return 'the time between Episodes';
    case 'opening':
      return 'the Opening Credits';
    case 'freeplay':
      return 'Freeplay';
    case 'closing':
      return 'the Closing Credits';
    case 'encounter':
      return `the ${st.encounterPhase ?? 'main'} phase of an Encounter`;
  }
}
