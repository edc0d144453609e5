export * from './common.js';
export * from './score.js';
export * from './bands.js';
export * from './teams.js';
export * from './edge-save.js';
