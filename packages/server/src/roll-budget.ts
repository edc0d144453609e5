// Table rolls pay from the same per-seat and per-table budget as queries
// (ADR 25): the engine states what a notation may cost before anything is
// compiled or rolled, and a roll that does not fit whole in what is left is
// refused here, so a flood of heavy rolls never reaches the commit queue.
import { rolledCost, tableRollCost, type Command, type EngineEvent, type Viewer } from '@tablekeeper/engine';
import type { RejectionError } from '@tablekeeper/protocol';
import type { QueryBudget } from './query-budget.js';
import { viewerKey } from './room.js';

/** Refusal for a roll that does not fit the asker's or the table's budget, or null when it was charged (or is no roll). */
export function chargeRoll(budget: QueryBudget, tableId: string, viewer: Viewer, command: Command): RejectionError | null {
  if (command.type !== 'dice.roll') return null;
  // Notation that does not parse is refused by the engine without rolling; it costs the base unit.
  const units = tableRollCost(command)?.units ?? 1;
  const taken = budget.takeWhole(tableId, viewerKey(viewer), units);
  if (taken.ok) return null;
  const whose = taken.scope === 'seat' ? 'your seat' : 'this table';
  if (taken.tooBig) {
    return {
      kind: 'RULE_ERROR',
      code: 'LIMIT_EXCEEDED',
      path: 'notation',
      message: `this roll may cost up to ${units} units of server work, over the rollCost limit (${whose} holds at most ${taken.capacity}); roll fewer dice, fewer explosions or fewer possible sides`,
    };
  }
  return {
    kind: 'RATE_LIMITED',
    retryAfterMs: taken.retryAfterMs,
    message: `this roll may cost up to ${units} units and ${whose} has ${taken.left} of ${taken.capacity} left (${taken.perSecond} come back each second); retry in ${taken.retryAfterMs} ms`,
  };
}

/** How a charged roll ended: rolled (its events), or not rolled at all (refused by the engine, or a duplicate of one already rolled). */
export type RollOutcome = { readonly events: readonly EngineEvent[] } | null;

/**
 * Gives back what a charged roll did not use (ADR 33): the roll was charged
 * its worst case before it ran, so a flood can never spend past the budget;
 * once rolled, the throws and records it really made are known. A roll that
 * did not happen keeps the base unit.
 */
export function refundRoll(budget: QueryBudget, tableId: string, viewer: Viewer, command: Command, outcome: RollOutcome): void {
  if (command.type !== 'dice.roll') return;
  const worst = tableRollCost(command);
  if (worst === null) return;
  const used = outcome === null ? 1 : rolledCost(worst, outcome.events);
  budget.refund(tableId, viewerKey(viewer), worst.units - used);
}
