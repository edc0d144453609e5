// Public API of the bestiary module (issue 20).
export * from './model.js';
export { bestiaryModule, GENERIC_STAT_BLOCK, type StatBlockSchema } from './module.js';
