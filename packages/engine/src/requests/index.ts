export * from './model.js';
export { combatantOfRequest, commandForCombatant, kernelRequestCommand, requestModule, type RequestCommand } from './module.js';
