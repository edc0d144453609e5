// Where a query is asked: the budget first (a refusal costs nothing), then
// the worker pool when the catalog can load its engines there, else inline.
// The world is the one at the moment of asking, so the answer matches the
// version the asker held when the query reached the head of the queue.
import type { Command, Json, Viewer } from '@tablekeeper/engine';
import type { QueryResult, RejectionError } from '@tablekeeper/protocol';
import { MIN_QUERY_COST, queryCost, type QueryBudget } from './query-budget.js';
import type { QueryPool } from './query-pool.js';
import { chargeRoll, refundRoll } from './roll-budget.js';
import { viewerKey, type Room, type SubmitResult } from './room.js';

export class QueryDesk {
  constructor(
    private readonly budget: QueryBudget,
    private readonly pool: QueryPool | null,
  ) {}

  /** Charges a table roll to the asker's budget; the refusal, or null to go on (ADR 25). */
  chargeCommand(room: Room, viewer: Viewer, command: Command): RejectionError | null {
    return chargeRoll(this.budget, room.tableId, viewer, command);
  }

  /**
   * Settles a charged table roll once its batch is synced (ADR 33): a roll
   * applied gives back what its recorded dice did not use, a refusal or a
   * duplicate all but the base unit. Null for commands that are not rolls.
   */
  settleCommand(room: Room, viewer: Viewer, command: Command): ((res: SubmitResult) => void) | null {
    if (command.type !== 'dice.roll') return null;
    return (res) => {
      const tx = !res.ok || res.duplicate ? undefined : res.transaction ?? room.table.transactions.bySeq(res.version);
      refundRoll(this.budget, room.tableId, viewer, command, tx?.kind === 'command' ? { events: tx.events } : null);
    };
  }

  ask(room: Room, viewer: Viewer, queryId: string, name: string, args: { readonly [k: string]: Json } | undefined, send: (answer: QueryResult) => void): void {
    const seatKey = viewerKey(viewer);
    const a: { readonly [k: string]: Json } = args ?? {};
    const cost = queryCost(name, a);
    const taken = this.budget.take(room.tableId, seatKey, cost);
    if (!taken.ok) {
      const who = taken.scope === 'seat' ? 'your queries' : "this table's queries";
      send({ type: 'queryResult', queryId, ok: false, error: { code: 'RATE_LIMITED', message: `${who} used up their budget; retry in ${taken.retryAfterMs} ms`, retryAfterMs: taken.retryAfterMs } });
      return;
    }
    if (this.pool === null) {
      const started = performance.now();
      const answer = room.query(viewer, queryId, name, a);
      this.settle(room.tableId, seatKey, cost, performance.now() - started);
      send(answer);
      return;
    }
    void this.pool.run(room.record.rulesetId, room.table.world, viewer, name, a).then(({ result, ms }) => {
      this.settle(room.tableId, seatKey, cost, ms);
      send(room.answer(viewer, queryId, result));
    });
  }

  /**
   * Once answered, a query costs the work it took (at least the cheapest query's cost): the up-front
   * cost only held its place while it waited and ran (ADR 86), so quick odds cost what they took, not 20.
   */
  private settle(tableId: string, seatKey: string, upFront: number, ms: number): void {
    const took = Math.max(MIN_QUERY_COST, ms);
    if (took > upFront) this.budget.charge(tableId, seatKey, took - upFront);
    else this.budget.refund(tableId, seatKey, upFront - took);
  }
}
