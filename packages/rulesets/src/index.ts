// @tablekeeper/rulesets: the five rule systems as engine modules.
export * as daggerheart from './daggerheart/index.js';
export * as osr from './osr/index.js';
export * as thirtySixthWay from './36th-way/index.js';
export * as teams from './teams/index.js';
export * as kleptonomicon from './kleptonomicon/index.js';
