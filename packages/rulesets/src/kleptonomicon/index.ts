// The Kleptonomicon ruleset (004): the encounter kernel with Edge Save turn
// order, two Beats and fleeting Slowed stacks, plus the Episode module.
import { encounterKit, kleptonomiconEncounter, withCatalog, withUpcasts, type ConditionDef } from '@tablekeeper/engine';
import { withQueries } from '../actions.js';
import { defineRuleset } from '../ruleset.js';
import { KLEPTO_WORDS, withWords } from '../undo-words.js';
import { kleptoActions, kleptoFreeplayActions, kleptoReactions } from './actions.js';
import { kleptoToolActions } from './tool-actions.js';
import { kleptoCatalog, kleptoUpcasts } from './declarations.js';
import { kleptonomiconModule } from './module.js';
import { encounterStartRefusal } from './phases.js';
import { edgeSaveRoller } from './roll.js';
import { getKlepto } from './state.js';
import { edgeSaveChoices, KLEPTO_SETTINGS } from './settings.js';
import { turnOrderStats } from './sheet.js';
import { kleptoSheetModel } from './sheet-model.js';
import { kleptoStatusModule } from './status.js';

/** Status conditions the excerpt names. Slowed is fleeting and stacks; two stacks interrupt movement. */
export const KLEPTO_CONDITIONS: readonly ConditionDef[] = [{ id: 'slowed', name: 'Slowed', stacking: 'stack', maxStacks: 10, effects: {}, effectsScaleWithStacks: true, fleeting: true }];

export const kleptonomiconKit = encounterKit({
  ...kleptonomiconEncounter({ roll: edgeSaveRoller, fromSettings: edgeSaveChoices }),
  conditions: KLEPTO_CONDITIONS,
  // 004 "Turns": each turn is six seconds, overlapping the others', so a round of turns is six seconds too (ADR 44).
  secondsPerRound: 6,
  // Edge Save and Sneaky live on the character's sheet; the turn order reads them there.
  sheetStats: (world, c) => turnOrderStats(c.characterId === null ? undefined : world.characters[c.characterId]?.stats),
  // A builder's or stat block's foe keeps its Defense on the combatant: players read it as they read a foe sheet's (ADR 68).
  foeStats: kleptoSheetModel.foeFields!,
  // The Episode's phases gate new fights (ADR 74, ADR 81); an 'encounter' phase here is an ended fight's Reward phase.
  mayStart: (world) => encounterStartRefusal(getKlepto(world).phase, getKlepto(world).episode),
});

export const ruleset = defineRuleset({
  id: 'kleptonomicon',
  name: 'The Kleptonomicon',
  modules: [kleptonomiconKit.module, withUpcasts(withCatalog(withQueries(withWords(kleptonomiconModule(kleptonomiconKit), KLEPTO_WORDS), { 'kleptonomicon.actions': kleptoActions, 'kleptonomicon.freeplayActions': kleptoFreeplayActions, 'kleptonomicon.toolActions': kleptoToolActions, 'kleptonomicon.reactions': kleptoReactions }), kleptoCatalog), kleptoUpcasts), kleptoStatusModule(kleptonomiconKit)],
  settings: KLEPTO_SETTINGS,
  sheet: kleptoSheetModel,
});

export { kleptonomiconModule, describePhase } from './module.js';
export { getKlepto, type KleptoState } from './state.js';
export * from './distances.js';
export * from './movement.js';
export * from './phases.js';
export { kleptoTest, passChance } from './roll.js';
export { EDGE_SAVE_LIMIT, kleptoSheetLine, kleptoSheetOf, type KleptoSheet } from './sheet.js';
export { kleptoSheetModel } from './sheet-model.js';
