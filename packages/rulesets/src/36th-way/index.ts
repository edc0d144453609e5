// The 36th Way ruleset (002); public API.
import { bandsEncounter, encounterModule } from '@tablekeeper/engine';
import { defineRuleset } from '../ruleset.js';

export const ruleset = defineRuleset({ id: '36th-way', name: 'The 36th Way', modules: [encounterModule({ ...bandsEncounter(), conditions: [] })], settings: [] });
