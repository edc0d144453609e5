// A Kleptonomicon character's turn-order numbers on their sheet
// (world.characters[id].stats): the Edge Save modifier and whether they are
// Sneaky (004 "Turn Order": advantage on the Edge Saves). Browser-safe: the
// web shows them with the same reader the turn order uses.
import type { Json } from '@tablekeeper/engine';

/** Edge Save modifiers a GM may enter (a typo of 1000 would make every save pass). */
export const EDGE_SAVE_LIMIT = 20;

export interface KleptoSheet {
  /** Edge Save modifier; null when the sheet holds none (the combatant's own, or 0). */
  readonly edgeSave: number | null;
  readonly sneaky: boolean;
}

export function kleptoSheetOf(stats: { readonly [k: string]: Json } | undefined): KleptoSheet {
  const e = stats?.['edgeSave'];
  return { edgeSave: typeof e === 'number' && Number.isInteger(e) ? e : null, sneaky: stats?.['sneaky'] === true };
}

/** What the Edge Save turn order reads from a linked character's sheet (only what the sheet holds). */
export function turnOrderStats(stats: { readonly [k: string]: Json } | undefined): { [k: string]: Json } {
  const s = kleptoSheetOf(stats);
  return { ...(s.edgeSave !== null ? { edgeSave: s.edgeSave } : {}), ...(stats?.['sneaky'] !== undefined ? { sneaky: s.sneaky } : {}) };
}

/** "Edge Save +2 · Sneaky" for the sheet's line on screen. */
export function kleptoSheetLine(s: KleptoSheet): string {
  const edge = s.edgeSave === null ? 'Edge Save not set' : `Edge Save ${s.edgeSave >= 0 ? '+' : ''}${s.edgeSave}`;
  return s.sneaky ? `${edge} · Sneaky` : edge;
}
