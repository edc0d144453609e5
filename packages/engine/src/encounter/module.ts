// The 'encounter' Module: commands, reducers, reactions and the projector
// around the pure kernel (sequencers, economies, conditions, escalation die).
//
// Turn flow, all as events so undo reverses every step:
//   encounter.turnStarted -> (reaction) start-of-turn expiries, ruleset hook
//   encounter.turnEnded   -> (reaction) ongoing damage (ruleset hook), then
//   encounter.savesDue    -> (reaction) saves, fleeting stack loss, end-of-turn expiries, hook, then
//   encounter.turnClosed  -> (reaction) advance: next actor, a decision, or
//   encounter.roundEnded  -> (reaction) round-end expiries, then encounter.roundStarted -> advance
//
// The module is a folder along the engine's hooks (STYLE 4): commands/ by rule
// area (roster, turns, economy, conditions), turn-order.ts, evolve.ts,
// reactions.ts, view.ts; selectors.ts holds the read-only questions.
import { catalogOf } from '../core/catalog.js';
import { own } from '../core/own.js';
import type { CommandHandler, Module, ProjectorReads, World } from '../core/types.js';
import type { CommandWords } from '../core/undo-words.js';
import { conditionCommands } from './commands/conditions.js';
import { economyCommands } from './commands/economy.js';
import { rosterCommands } from './commands/roster.js';
import { turnCommands } from './commands/turns.js';
import { encounterDeclarations } from './declarations.js';
import { encounterReducers } from './evolve.js';
import { phasesReaction } from './reactions.js';
import { ENCOUNTER_ID } from './state.js';
import { turnFlow } from './turn-order.js';
import type { EncounterRules } from './types.js';
import { encounterView } from './view.js';

export { applyConditionEvent } from './commands/conditions.js';
export { spendEvent } from './commands/economy.js';
export { canAct, economyOf, encounterTitle, escalationFor, isDefeated, netAdvantage, netEffect, onDeck, peekNext, sequencerView } from './selectors.js';

/** What the undo button says for the kernel's commands. */
/** Undo words of the encounter's commands, with the creatures' names (see core/undo-words.ts). */
const ON = ['characterId', 'id'];
export const ENCOUNTER_WORDS: { readonly [type: string]: CommandWords } = {
  'encounter.endTurn': { say: ["end of {by}'s turn"], by: ['id', 'encounter.turnEnded:id'] },
  'encounter.advance': { say: ["start of {by}'s turn"], by: ['encounter.turnStarted:id'] },
  'encounter.choose': { say: ['{by} chosen to act'], by: ['id', 'encounter.turnStarted:id'] },
  'encounter.delay': { say: ['{by} delaying'], by: ['encounter.delayed:id'] },
  'encounter.ready': { say: ['{by} readying {=action}', '{by} readying an action'], by: ['encounter.readied:id'] },
  'encounter.add': { say: ['adding {=combatant.name} to the fight'] },
  'encounter.remove': { say: ['removing {on} from the fight'], on: ON },
  'encounter.place': { say: ['moving {on} in the order'], on: ON },
  'encounter.damage': { say: ['{=amount} damage to {on}'], on: ON },
  'encounter.heal': { say: ['healing {on} by {=amount}'], on: ON },
  'encounter.setIncapacitated': { say: ['marking {on} unable to act'], on: ON },
  'encounter.hide': { say: ['hiding {on}'], on: ON },
  'encounter.reveal': { say: ['revealing {on}'], on: ON },
  'condition.apply': { say: ['{=condition} on {on}'], on: ['targetId', 'condition.applied:target'] },
  'condition.remove': { say: ['removing a condition from {on}'], on: ['condition.removed:target'] },
};

export const ENCOUNTER_LABELS: { readonly [type: string]: string } = {
  'encounter.start': 'start an encounter',
  'encounter.end': 'end the encounter',
  'encounter.add': 'add a combatant',
  'encounter.remove': 'remove a combatant',
  'encounter.place': 'move a combatant in the order',
  'encounter.reorder': 'reorder the turns',
  'encounter.setStats': 'change a combatant\'s stats',
  'encounter.damage': 'deal damage',
  'encounter.heal': 'heal',
  'encounter.setIncapacitated': 'mark a combatant unable to act',
  'encounter.link': 'link a combatant to a character',
  'encounter.choose': 'choose who acts',
  'encounter.endTurn': 'end the turn',
  'encounter.advance': 'start the next turn',
  'encounter.delay': 'delay',
  'encounter.ready': 'ready an action',
  'encounter.triggerReady': 'trigger a readied action',
  'encounter.spend': 'spend an action',
  'encounter.cancelExtended': 'cancel an extended action',
  'encounter.grant': 'grant an action',
  'encounter.escalationOffset': 'adjust the escalation die',
  'encounter.escalationSuppress': 'hold the escalation die',
  'encounter.rest': 'rest',
  'encounter.hide': 'hide a combatant',
  'encounter.reveal': 'reveal a combatant',
  'encounter.obscure': 'show a combatant as unknown',
  'condition.apply': 'apply a condition',
  'condition.remove': 'remove a condition',
};

export function encounterModule(rules: EncounterRules): Module {
  const decls = encounterDeclarations(rules);
  const flow = turnFlow(rules);
  const commands: Record<string, CommandHandler> = {
    ...rosterCommands(rules, decls),
    ...turnCommands(rules, decls, flow),
    ...economyCommands(rules, decls),
    ...conditionCommands(rules, decls),
  };
  const loggedReducers = encounterReducers(rules);
  const eventTypes = Object.keys(loggedReducers);
  const phases = phasesReaction(rules, flow, eventTypes);
  const { project, idStatus, audience, eventView, eventViewBasis } = encounterView(rules, eventTypes);

  const labelled = Object.fromEntries(Object.entries(commands).map(([type, h]) => [type, h.label === undefined && ENCOUNTER_LABELS[type] !== undefined ? { ...h, label: ENCOUNTER_LABELS[type] } : h]));
  // The projector reads the encounter and the clock (players' turn count leaves hidden turns out),
  // and through canAct (who is on deck) whatever the ruleset's hook reads.
  const projectReads: ProjectorReads | undefined =
    rules.canAct !== undefined && rules.canActReads === undefined
      ? undefined
      : {
          // Characters and seats: a seat's retainer is no foe, so its stats pass (ADR 45).
          reads: [`ext.${ENCOUNTER_ID}`, 'clock', 'characters', 'seats', ...(rules.foeStats === undefined ? [] : (['ext.foes'] as const)), ...(rules.canActReads ?? [])],
          writes: [`ext.${ENCOUNTER_ID}`, 'clock'],
          // A clock advance changes only the players' clock: the projected encounter keeps its object.
          writtenFrom: { [`ext.${ENCOUNTER_ID}`]: [`ext.${ENCOUNTER_ID}`, 'characters', 'seats', ...(rules.foeStats === undefined ? [] : (['ext.foes'] as const)), ...(rules.canActReads ?? [])] },
        };
  // A combatant's name as the viewer's projection holds it (a hidden one is not in a player's).
  const nameOf = (world: World, id: string): string | null => {
    const combatants = (world.ext[ENCOUNTER_ID] as { combatants?: { readonly [id: string]: { readonly name?: unknown } } } | undefined)?.combatants;
    const c = combatants === undefined ? undefined : own(combatants, id);
    return typeof c?.name === 'string' ? c.name : null;
  };
  return { id: ENCOUNTER_ID, commands: labelled, words: ENCOUNTER_WORDS, nameOf, reducers: loggedReducers, reactions: [phases], project, ...(projectReads === undefined ? {} : { projectReads }), idStatus, audience, eventView, eventViewBasis, catalog: catalogOf(...Object.values(decls)) };
}
