// The team-initiative ruleset (003); public API. The teams module comes first so
// its projector sees hidden combatants before the encounter's projector removes them.
import { withCatalog } from '@tablekeeper/engine';
import { withQueries } from '../actions.js';
import { defineRuleset } from '../ruleset.js';
import { TEAMS_WORDS, withWords } from '../undo-words.js';
import { teamsActions } from './actions.js';
import { teamsCatalog } from './declarations.js';
import { teamsModule } from './module.js';
import { kit, teamsRules, TEAMS_CONDITIONS } from './rules.js';
import { TEAMS_SETTINGS } from './settings.js';
import { teamsSheetModel } from './sheet-model.js';
import { teamsStatusModule } from './status.js';

export const ruleset = defineRuleset({ id: 'teams', name: 'Teams', modules: [withCatalog(withQueries(withWords(teamsModule, TEAMS_WORDS), { 'teams.actions': teamsActions }), teamsCatalog), kit.module, teamsStatusModule], settings: TEAMS_SETTINGS, sheet: teamsSheetModel });

export { teamsModule, teamsRules, TEAMS_CONDITIONS, TEAMS_SETTINGS, kit as teamsKit };
export { gridDistance } from './grid.js';
export { DAMAGE_TYPES, damageCategory, isHarmed, isBloodied } from './damage.js';
export { attackOutcome, blockOutcome, multipleAttackPenalty, sizeShift } from './attack.js';
export { parseSheet, type Sheet, type Item, type Weapon } from './sheet.js';
export { getTeams, teamsStatus, type TeamsState, type PendingAttack } from './state.js';
export { hitOdds, attackOdds, testChance, attackTotalDistribution, type HitOdds } from './odds.js';
export { teamsSheetModel, teamsSheetKey } from './sheet-model.js';
