// The 36th Way's quick rest as the GM fills it in (002 "Quick Rest": heal
// using any number of recoveries; "Recoveries": with none left the healing is
// halved and costs -1 to Volition and defences until a full rest). The PCs'
// rows come from the ruleset's selector; the server rolls (or averages) each recovery and logs it.
import type { ClientCommand } from '../net/codec.ts';
import type { RecoveryRow } from '@tablekeeper/rulesets/browser';

// The rows come from the ruleset's selector (issue 17: the web never walks world.ext).
export { recoveryRowsOf, type RecoveryRow } from '@tablekeeper/rulesets/browser';

/** The most recoveries one PC may spend in one rest from this form (the server's limit is 99). */
export const MAX_SPEND = 20;

/** A row's line: "Kira: HP 12/30, 5 of 8 recoveries (each heals 2d8+3)"; a dying PC's says so ("Bram: dying at HP -3/30, ..."). */
export function recoveryLine(r: RecoveryRow): string {
  return `${r.name}: ${r.dying ? 'dying at ' : ''}HP ${r.hp}/${r.maxHp}, ${r.recoveries} of ${r.maxRecoveries} recoveries (each heals ${r.dice})`;
}

/**
 * What a row's box holds before the GM types: one recovery for a dying PC (002 "Dying and Death": any healing brings
 * them back, counted from 0 HP; review 7: the rest did nothing for Bram), nothing for the others.
 */
export function startingSpend(r: RecoveryRow): string {
  return r.dying ? '1' : '';
}

/** Said beside a dying PC's box. */
export function dyingNote(r: RecoveryRow): string | null {
  return r.dying ? `${r.name} is dying: a recovery brings them back, counted from 0 HP.` : null;
}

/** What the GM typed per PC becomes the quick rest; an untouched box holds its starting spend; blank is 0; a sentence names a box that is not 0 to MAX_SPEND. */
export function quickRestCommand(rows: readonly RecoveryRow[], typed: { readonly [id: string]: string }, average: boolean): { ok: true; command: ClientCommand } | { ok: false; message: string } {
  const recoveries: { [id: string]: number } = {};
  for (const r of rows) {
    const t = (typed[r.id] ?? startingSpend(r)).trim();
    if (t === '') continue;
    const n = Number(t);
    if (!Number.isInteger(n) || n < 0 || n > MAX_SPEND) return { ok: false, message: `${r.name}'s recoveries must be a whole number from 0 to ${MAX_SPEND}.` };
    if (n > 0) recoveries[r.id] = n;
  }
  return { ok: true, command: { type: '36th-way.quickRest', recoveries, ...(average ? { average: true } : {}) } };
}

/** Said beside a box asking for more than are left (002: halved healing, -1 to Volition and defences until a full rest). */
export function overSpendNote(r: RecoveryRow, n: number): string | null {
  if (!Number.isInteger(n) || n <= r.recoveries) return null;
  const over = n - r.recoveries;
  return `${r.name} has ${r.recoveries} left: the last ${over} heal${over === 1 ? 's' : ''} half and cost${over === 1 ? 's' : ''} -1 to Volition and defences until a full rest each.`;
}

/**
 * Said while no box spends a recovery (review 13 #12: an untouched form healed nobody, and nothing said so):
 * the rest still brings powers back, but heals no one. Null once some PC spends one (or there is no PC).
 */
export function nobodySpendsNote(rows: readonly RecoveryRow[], typed: { readonly [id: string]: string }): string | null {
  if (rows.length === 0) return null;
  const spends = rows.some((r) => {
    const n = Number((typed[r.id] ?? startingSpend(r)).trim());
    return Number.isInteger(n) && n > 0;
  });
  return spends ? null : 'Nobody spends recoveries: this quick rest heals no one. Type how many each PC spends above.';
}
