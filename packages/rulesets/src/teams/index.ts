// The team-initiative ruleset (003); public API.
import { encounterModule, teamsEncounter } from '@tablekeeper/engine';
import { defineRuleset } from '../ruleset.js';

export const ruleset = defineRuleset({ id: 'teams', name: 'Teams', modules: [encounterModule({ ...teamsEncounter(), conditions: [] })], settings: [] });
