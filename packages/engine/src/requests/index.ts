export * from './model.js';
export { combatantFor, commandForCombatant, kernelRequestCommand, requestModule, type RequestCommand } from './module.js';
