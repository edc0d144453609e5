// Public API of engine/encounter: the kernel contract (types), the 'encounter'
// Module factory, pure helpers for rulesets, the four turn orders and economies.
// Names are explicit (no generic helpers) so the engine barrel has no clashes.
export type * from './types.js';
export { ENCOUNTER_ID, getEncounter, setEncounter, playerTurnSerial, getCombatant, updateCombatant, updateEncounter, combatantList, combatantNamed, controlsCombatant, controlsCreature, EMPTY_ENCOUNTER, EMPTY_ECONOMY } from './state.js';
export type { EncounterEvent, ConditionEvent, ClockAdvancedEvent } from './events.js';
export { encounterModule, applyConditionEvent, spendEvent, canAct, isDefeated, encounterTitle, peekNext, onDeck, escalationFor, netEffect, netAdvantage, economyOf, sequencerView } from './module.js';
export * from './sequencers/index.js';
export {
  OSR_ECONOMY,
  BANDS_ECONOMY,
  TEAMS_ECONOMY,
  BEATS_ECONOMY,
  SPOTLIGHT_ECONOMY,
  TEAMS_ACTIONS,
  teamsActionRequest,
  planSpend,
  applySpend,
  resetEconomy,
  remaining as economyRemaining,
  grant as economyGrant,
  type SpendRequest,
  type Payment,
  type TeamsActionRow,
} from './economies.js';
export { escalationBase, escalationValue, escalationParity, type Parity } from './escalation.js';
export { parseDuration, planApply, conditionDef, CUSTOM_CONDITION_PREFIX, MAX_CUSTOM_CONDITION, expiringAt, fleetingLosses, netEffectOf, type ApplyInput, type Moment } from './conditions.js';
export { osrEncounter, bandsEncounter, teamsEncounter, kleptonomiconEncounter, daggerheartEncounter, type EncounterBase } from './systems.js';
export { encounterConformance, type ConformanceOptions } from './conformance.js';
export { encounterKit, type EncounterKit } from './kit.js';
