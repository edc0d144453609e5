// The Daggerheart ruleset (000); public API. Core only until its modules land.
import { defineRuleset } from '../ruleset.js';

export const ruleset = defineRuleset({ id: 'daggerheart', name: 'Daggerheart', modules: [], settings: [] });
