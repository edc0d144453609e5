// Public API of the bestiary module (issue 20).
export * from './model.js';
export { bestiaryModule, genericStatBlock, type StatBlockSchema } from './module.js';
export type { BestiaryEvent } from './events.js';
