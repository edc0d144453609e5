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

/**
 * The log line's list of what a sheet change set besides the Edge Save line
 * (review 9: "Edge Save +2." was all a sheet with a Defense and an attack said).
 */
export function kleptoSheetChanges(changed: { readonly [k: string]: Json }, stats: { readonly [k: string]: Json }): string[] {
  const out: string[] = [];
  const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n}`;
  if (num(changed['defense']) !== null) out.push(`Defense ${num(changed['defense'])}`);
  if (changed['hp'] !== undefined || changed['maxHp'] !== undefined) {
    const hp = num(stats['hp']);
    const max = num(stats['maxHp']);
    if (hp !== null) out.push(max !== null ? `Health ${hp}/${max}` : `Health ${hp}`);
  }
  if (changed['attackModifier'] !== undefined || changed['attackDamage'] !== undefined) {
    const m = num(stats['attackModifier']);
    const d = typeof stats['attackDamage'] === 'string' && stats['attackDamage'].trim() !== '' ? stats['attackDamage'].trim() : null;
    out.push(`Basic Attack ${[m !== null ? signed(m) : null, d].filter((x) => x !== null).join(', ') || 'cleared'}`);
  }
  if (typeof changed['attackKind'] === 'string') out.push(`${changed['attackKind']} Basic Attack`);
  const styles = changed['movementStyles'];
  // An empty list is the form's default (nothing to say), not news.
  if (Array.isArray(styles) && styles.length > 0) out.push(styles.length === 1 ? '1 movement style' : `${styles.length} movement styles`);
  else if (styles === null) out.push('the default movement styles');
  const abilities = changed['abilities'];
  if (Array.isArray(abilities) && abilities.length > 0) out.push(abilities.length === 1 ? '1 ability' : `${abilities.length} abilities`);
  return out;
}
