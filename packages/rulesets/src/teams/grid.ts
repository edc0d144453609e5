// 003 "Movement and Distances": on a square grid of 1 m squares, every second
// diagonal step counts 2 m, so diagonals cost 1, 2, 1, 2...
import type { RuleError } from '@tablekeeper/engine';

/** Largest grid offset we accept on either axis (a 100 km battlefield is plenty). */
export const MAX_GRID_OFFSET = 100_000;

export interface GridPoint {
  readonly x: number;
  readonly y: number;
}

/** Metres between two squares: straight steps count 1, diagonals alternate 1 and 2. */
export function gridDistance(from: GridPoint, to: GridPoint): number | RuleError {
  for (const [k, v] of [['from.x', from.x], ['from.y', from.y], ['to.x', to.x], ['to.y', to.y]] as const) {
    if (!Number.isSafeInteger(v) || Math.abs(v) > MAX_GRID_OFFSET) {
      return { code: 'INVALID_VALUE', message: `${k} must be an integer square within ±${MAX_GRID_OFFSET}`, path: k };
    }
  }
  const dx = Math.abs(to.x - from.x);
  const dy = Math.abs(to.y - from.y);
  const diagonals = Math.min(dx, dy);
  const straight = Math.max(dx, dy) - diagonals;
  // Every second diagonal costs one extra metre.
  return straight + diagonals + Math.floor(diagonals / 2);
}
