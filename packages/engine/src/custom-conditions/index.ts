// Public API of the table's own conditions (issue 20, ADR 71).
export * from './model.js';
export { customConditionsModule } from './module.js';
