// @tablekeeper/engine: the pure core. Each area keeps its own barrel.
export * from './dice/index.js';
export * from './core/index.js';
export * from './countdowns/index.js';
export * from './odds/index.js';
export * from './encounter/index.js';
export * from './bestiary/index.js';
export * from './requests/index.js';
export * from './timer/index.js';
export * from './foes/index.js';
export * from './custom-conditions/index.js';
export * from './reveal-when-acts/index.js';
