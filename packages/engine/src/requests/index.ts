export * from './model.js';
export { combatantOfRequest, commandForCombatant, kernelRequestCommand, noActionRequests, noRecoveryRequests, outsideFightRequest, playsInRunningFight, requestModule, type RequestAnswer, type RequestCommand } from './module.js';
export type { RequestEvent } from './events.js';
