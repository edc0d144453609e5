// The OSR ruleset (001); public API.
import { encounterModule, osrEncounter } from '@tablekeeper/engine';
import { defineRuleset } from '../ruleset.js';

export const ruleset = defineRuleset({ id: 'osr', name: 'OSR', modules: [encounterModule({ ...osrEncounter(), conditions: [] })], settings: [] });
