// The kernel's read-only questions about a running encounter (who can act, who is
// on deck, the escalation die, net effects), shared by the module and the rulesets.
import { own } from '../core/own.js';
import type { World } from '../core/types.js';
import { netEffectOf } from './conditions.js';
import { escalationValue } from './escalation.js';
import { EMPTY_ECONOMY, getEncounter } from './state.js';
import type { Combatant, EconomyState, EncounterRules, EncounterState, Next, SequencerView } from './types.js';


/**
 * A foe is defeated when its own hit points (stats.hp, the tracker's track)
 * reach 0: it is skipped like an incapacitated one. PCs are left to the
 * ruleset (dying PCs still take turns for death saves in 002).
 */
export function isDefeated(c: Combatant): boolean {
  const hp = c.stats['hp'];
  return c.kind === 'npc' && typeof hp === 'number' && hp <= 0;
}

/** Able to take a turn: present, not incapacitated (flag or condition), and the ruleset agrees. */
export function canAct(world: World, rules: EncounterRules, id: string): boolean {
  const enc = getEncounter(world);
  const c = own(enc.combatants, id);
  if (c === undefined || c.incapacitated || isDefeated(c)) return false;
  for (const inst of Object.values(enc.conditions)) {
    if (inst.target !== id || rules.conditions.find((d) => d.id === inst.defId)?.incapacitates !== true) continue;
    // "Until the start of your next turn" ends as that turn begins, so it never costs the bearer the turn itself.
    if (inst.duration.kind === 'turnStart' && inst.duration.of === id) continue;
    return false;
  }
  return rules.canAct === undefined ? true : rules.canAct(world, c);
}

export function sequencerView(world: World, rules: EncounterRules): SequencerView {
  return { enc: getEncounter(world), canAct: (id) => canAct(world, rules, id) };
}

/** What happens next if the current turn ended now (does not change anything). */
export function peekNext(world: World, rules: EncounterRules): Next {
  const enc = getEncounter(world);
  const acted = enc.current !== null && !enc.acted.includes(enc.current) ? [...enc.acted, enc.current] : enc.acted;
  const view: SequencerView = { enc: { ...enc, acted, current: null }, canAct: (id) => canAct(world, rules, id) };
  return rules.sequencer.next(view);
}

/** The combatant on deck (null when the next one is someone's choice or the round ends). */
export function onDeck(world: World, rules: EncounterRules): string | null {
  const n = peekNext(world, rules);
  return n.kind === 'actor' ? n.id : null;
}

export function escalationFor(world: World, rules: EncounterRules, id: string | null = null): number {
  const enc = getEncounter(world);
  if (id !== null) {
    if (enc.escalation.suppressed.includes(id)) return 0;
    for (const inst of Object.values(enc.conditions)) {
      if (inst.target === id && rules.conditions.find((d) => d.id === inst.defId)?.zeroesEscalation === true) return 0;
    }
  }
  return escalationValue(enc, rules.escalation);
}

/** Net effect of conditions on `id` for a resolution code, e.g. 'attack.advantage'. */
export function netEffect(world: World, rules: EncounterRules, id: string, code: string): number {
  return netEffectOf(getEncounter(world), rules.conditions, id, code);
}

/**
 * Net advantage (positive) or disadvantage (negative) for `actor` doing
 * `action`, counting the actor's '<action>.advantage' effects and, with a
 * target, the target's '<action>ed.advantage'-style 'against.<action>.advantage' effects.
 */
export function netAdvantage(world: World, rules: EncounterRules, actor: string, action: string, target: string | null = null): number {
  const own = netEffect(world, rules, actor, `${action}.advantage`);
  return target === null ? own : own + netEffect(world, rules, target, `against.${action}.advantage`);
}

export function economyOf(world: World, id: string): EconomyState {
  return own(getEncounter(world).economy, id) ?? EMPTY_ECONOMY;
}

// ---------------------------------------------------------------- input parsing

/** "The encounter" for a table's first fight, "Encounter 2" from the second on (the log keeps each one's start and end). */
export function encounterTitle(enc: EncounterState): string {
  const n = enc.number ?? 1;
  return n <= 1 ? 'The encounter' : `Encounter ${n}`;
}

/** A linked combatant as the turn order reads it: the ruleset's sheet numbers over its own stats (rules.sheetStats). */
export function withSheet(world: World, rules: EncounterRules, c: Combatant): Combatant {
  if (rules.sheetStats === undefined || c.characterId === null || own(world.characters, c.characterId) === undefined) return c;
  return { ...c, stats: { ...c.stats, ...rules.sheetStats(world, c) } };
}

export function withSheets(world: World, rules: EncounterRules, enc: EncounterState): EncounterState {
  if (rules.sheetStats === undefined) return enc;
  return { ...enc, combatants: Object.fromEntries(Object.entries(enc.combatants).map(([id, c]) => [id, withSheet(world, rules, c)])) };
}
