// The 36th Way ruleset (002); public API. Two modules: the encounter kernel
// bound to 002's rules (bands, standard / move / quick / interrupt, the
// fifteen conditions, ongoing damage then saves) and the '36th-way' module
// (sheets, attacks, damage, dying, recoveries, abilities, rests, positioning).
import { withCatalog, withUpcasts } from '@tablekeeper/engine';
import { withQueries } from '../actions.js';
import { defineRuleset } from '../ruleset.js';
import { TSW_WORDS, withWords } from '../undo-words.js';
import { tswActions } from './actions.js';
import { tswCatalog, tswUpcasts } from './declarations.js';
import { createTswModule } from './module.js';
import { TSW_SETTINGS } from './settings.js';
import { tswSheetModel } from './sheet-model.js';
import { tswStatusModule } from './status.js';

export const tsw = createTswModule();

export const ruleset = defineRuleset({ id: '36th-way', name: 'The 36th Way', modules: [tsw.kit.module, withUpcasts(withCatalog(withQueries(withWords(tsw.module, TSW_WORDS), { '36th-way.actions': tswActions(tsw.kit) }), tswCatalog), tswUpcasts), tswStatusModule(tsw.kit)], settings: TSW_SETTINGS, sheet: tswSheetModel });

export { TSW_SETTINGS, setting } from './settings.js';
export { TSW_CONDITIONS, TEXT_CONDITION_IDS } from './conditions.js';
export { DAMAGE_TYPES, averagesChart, meanOf, recoveryAverage, rollDamage, expectedDamage, damageRange, critThreshold, finalDamage, resistThreshold, isWeakTo, confusedSelfDamage } from './damage.js';
export { resolveAttack, attackOdds, DEFENSES } from './attack.js';
export { roll3d6, naturalDistribution } from './roll.js';
export { parseAbility, cannotUse, restoredByRest, rechargeTarget } from './abilities.js';
export { isStaggered, statusOf, takeDamage, heal, recoveryAmount, deathSaveOutcome } from './health.js';
export { disengageTarget, movesNeeded, rangeBetween, isFree } from './positioning.js';
export { getTsw, parseSheet, TSW_ID, type Sheet, type TswState } from './state.js';
export { attackOddsFor, rollOdds, summary, type SheetSummary } from './odds.js';
export { tswSheetModel, tswSheetKey } from './sheet-model.js';
