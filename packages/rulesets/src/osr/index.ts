// The OSR ruleset (001_549d90ad32698ce5.txt); public API. See docs/rulesets/osr.md.
import { withCatalog } from '@tablekeeper/engine';
import { withQueries } from '../actions.js';
import { defineRuleset } from '../ruleset.js';
import { OSR_WORDS, withWords } from '../undo-words.js';
import { osrActions, osrMoraleActions, osrStabilizeActions } from './actions.js';
import { osrChecks } from './checks-query.js';
import { osrToolActions } from './tool-actions.js';
import { osrCatalog } from './declarations.js';
import { osrKit, osrModule } from './module.js';
import { OSR_SETTINGS } from './settings.js';
import { osrSheetModel } from './sheet-model.js';
import { osrStatusModule } from './status.js';

export const ruleset = defineRuleset({ id: 'osr', name: 'OSR', modules: [osrKit.module, withCatalog(withQueries(withWords(osrModule, OSR_WORDS), { 'osr.actions': osrActions, 'osr.stabilizeActions': osrStabilizeActions, 'osr.moraleActions': osrMoraleActions, 'osr.toolActions': osrToolActions, 'osr.checks': osrChecks }), osrCatalog), osrStatusModule], settings: OSR_SETTINGS, sheet: osrSheetModel });

export { osrKit, osrModule, OSR_CONDITIONS } from './module.js';
export { OSR_SETTINGS, osrSettings, type OsrSettings } from './settings.js';
export * from './checks.js';
export * from './combat.js';
export * from './exploration.js';
export * from './odds.js';
export { readSheet, validateSheet, carriedLoad, purseDropped, purseLoads, encumbrance, movementAllowance, bestModifier, type Sheet, type Encumbrance, type MoveMode } from './sheet.js';
export { getOsr, OSR_ID, type OsrState, type Corruption, type CorruptionStage, type LightSource } from './state.js';
export { readDice, type DiceSpec } from './rolls.js';
export { characterStatus, attackOddsAt, checkOddsAt, timeOfDay, type CharacterStatus } from './queries.js';
export { osrSheetModel } from './sheet-model.js';
export { osrEventFields, type OsrEvent } from './events.js';
