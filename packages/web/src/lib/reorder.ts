// The tracker's manual order without a DOM (issue 20, ADR 29): which turn
// orders take one (DEX order, bands; not teams, spotlight or Edge Save slots),
// and the `before` an arrow press or a drop sends with encounter.reorder.
import { initiativeOf } from '@tablekeeper/rulesets/browser';

/** Does this ruleset's turn order take a manual order (the engine's sequencer has a reorder hook)? */
export function hasManualOrder(rulesetId: string): boolean {
  const order = initiativeOf(rulesetId)?.order;
  return order === 'score' || order === 'bands';
}

/** `before` for moving `id` one place earlier or later in `order`; undefined when it is already first or last. */
export function moveTarget(order: readonly string[], id: string, dir: 'up' | 'down'): string | null | undefined {
  const i = order.indexOf(id);
  if (i < 0) return undefined;
  if (dir === 'up') return i === 0 ? undefined : order[i - 1]!;
  if (i === order.length - 1) return undefined;
  return order[i + 2] ?? null;
}

/** `before` for `dragged` dropped onto `target`'s row: it takes the target's place (above it when coming from below, below it when coming from above). */
export function dropTarget(order: readonly string[], dragged: string, target: string): string | null | undefined {
  const from = order.indexOf(dragged);
  const to = order.indexOf(target);
  if (from < 0 || to < 0 || from === to) return undefined;
  return from > to ? target : (order[to + 1] ?? null);
}
