// The Daggerheart ruleset (000_5382b28a932eafef.txt + the rules README's
// duality dice); public API. The registry adds the system-agnostic countdowns
// module, which ticks on this ruleset's `actionRoll.resolved` events.
import { withCatalog } from '@tablekeeper/engine';
import { defineRuleset } from '../ruleset.js';
import { daggerheartCatalog } from './declarations.js';
import { daggerheartModule } from './module.js';
import { DAGGERHEART_SETTINGS } from './settings.js';

export const ruleset = defineRuleset({ id: 'daggerheart', name: 'Daggerheart', modules: [withCatalog(daggerheartModule, daggerheartCatalog)], settings: DAGGERHEART_SETTINGS });

export { daggerheartModule, getDaggerheart, hopeOf, DAGGERHEART_ID, MAX_MODIFIER, MAX_DIFFICULTY, MAX_ADVANTAGE_SOURCES, MAX_SPEND, type DaggerheartState } from './module.js';
export { DAGGERHEART_SETTINGS, daggerheartSettings, type DaggerheartSettings } from './settings.js';
