// The Daggerheart ruleset (000_5382b28a932eafef.txt + the rules README's
// duality dice); public API. The registry adds the system-agnostic countdowns
// module, which ticks on this ruleset's `actionRoll.resolved` events; the
// encounter kernel runs with the spotlight sequencer (ADR 14).
import { withCatalog } from '@tablekeeper/engine';
import { withQueries } from '../actions.js';
import { defineRuleset } from '../ruleset.js';
import { DAGGERHEART_WORDS, withWords } from '../undo-words.js';
import { daggerheartActions } from './actions.js';
import { actionRollOddsQuery } from './queries.js';
import { adversaryAttackOddsQuery } from './adversary-attack.js';
import { daggerheartCatalog } from './declarations.js';
import { daggerheartKit } from './encounter.js';
import { daggerheartModule } from './module.js';
import { DAGGERHEART_SETTINGS } from './settings.js';
import { daggerheartSheetModel } from './sheet-model.js';
import { daggerheartStatusModule } from './status.js';

export const ruleset = defineRuleset({ id: 'daggerheart', name: 'Daggerheart', modules: [daggerheartKit.module, withCatalog(withQueries(withWords(daggerheartModule, DAGGERHEART_WORDS), { 'daggerheart.actions': daggerheartActions, 'daggerheart.actionRollOdds': actionRollOddsQuery, 'daggerheart.adversaryAttackOdds': adversaryAttackOddsQuery }), daggerheartCatalog), daggerheartStatusModule], settings: DAGGERHEART_SETTINGS, sheet: daggerheartSheetModel });

export { daggerheartModule, DAGGERHEART_ID, MAX_MODIFIER, MAX_DIFFICULTY, MAX_ADVANTAGE_SOURCES, MAX_SPEND, MAX_REQUESTS, TRAITS, getDaggerheart, hopeOf, type DaggerheartState } from './module.js';
export { requestsOf, type RollRequest } from './state.js';
export { daggerheartKit, DAGGERHEART_CONDITIONS } from './encounter.js';
export { DOWNTIME_MOVES, MOVE_WORDS, MAX_DAMAGE, MAX_GROUP, type DowntimeMove } from './trackers.js';
export * from './rules.js';
export { DAGGERHEART_SETTINGS, daggerheartSettings, type DaggerheartSettings } from './settings.js';
export { daggerheartSheetModel } from './sheet-model.js';
