// Public API of engine/encounter: the kernel contract (types), the 'encounter'
// Module factory, pure helpers for rulesets, the four turn orders and economies.
export type * from './types.js';
export { ENCOUNTER_ID, getEncounter, setEncounter, getCombatant, updateCombatant, updateEncounter, combatantList, EMPTY_ENCOUNTER, EMPTY_ECONOMY } from './state.js';
export { encounterModule, applyConditionEvent, spendEvent, canAct, peekNext, onDeck, escalationFor, netEffect, netAdvantage, economyOf, sequencerView } from './module.js';
export * from './sequencers/index.js';
export * from './economies.js';
export * from './escalation.js';
export { parseDuration, planApply, expiringAt, fleetingLosses, netEffectOf, type ApplyInput, type Moment } from './conditions.js';
export * from './systems.js';
export { encounterConformance, type ConformanceOptions } from './conformance.js';
export { encounterKit, type EncounterKit } from './kit.js';
