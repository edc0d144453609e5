// @tablekeeper/rulesets: the five rule systems as engine modules, and the registry.
export * as daggerheart from './daggerheart/index.js';
export * as osr from './osr/index.js';
export * as thirtySixthWay from './36th-way/index.js';
export * as teams from './teams/index.js';
export * as kleptonomicon from './kleptonomicon/index.js';
export { defineRuleset, CORE_SETTINGS, type RulesetDefinition, type SettingDef } from './ruleset.js';
export { rulesetIds, rulesetInfo, rulesetDefinition, engineFor, resolveSettings, createTableFor, sheetSchemaFor, type RulesetInfo } from './registry.js';
export { statBlockOf } from './stat-blocks.js';
