// What each living PC's recoveries heal, for the GM's quick rest form (002
// "Quick Rest", "Recoveries"), read from the sheets the 36th Way keeps, for the
// browser (issue 17): the web asks this instead of walking the state. The
// server rolls (or averages) each recovery. Imports only the kept-sheet readers (ADR 7).
import type { Json, World } from '@tablekeeper/engine';
import { keptSheets } from '../sheets.js';

export interface RecoveryRow {
  /** The sheet's id (what 36th-way.quickRest keys recoveries by). */
  readonly id: string;
  readonly name: string;
  readonly hp: number;
  readonly maxHp: number;
  readonly recoveries: number;
  readonly maxRecoveries: number;
  /** "2d8+3": what one recovery heals. */
  readonly dice: string;
  /** At 0 HP or less and dying (002 "Dying and Death"): a recovery brings them back, counted from 0 HP. */
  readonly dying: boolean;
  /** Abilities spent and not yet back (what downtime may give back, 002 "Full Rest"), by key and name. */
  readonly expended: readonly { readonly id: string; readonly name: string }[];
}

type Obj = { readonly [k: string]: Json };
const obj = (v: Json | undefined): Obj | null => (v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : null);
const num = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Living PCs' sheets, in name order, with what a recovery heals (a level's worth of d8s unless the sheet says otherwise); empty off the 36th Way. */
export function recoveryRowsOf(world: World): RecoveryRow[] {
  if (world.rulesetId !== '36th-way') return [];
  const out: RecoveryRow[] = [];
  for (const [id, s] of Object.entries(keptSheets(world))) {
    if (s['kind'] !== 'pc' || s['dead'] === true) continue;
    const rd = obj(s['recoveryDice']);
    const count = num(rd?.['count']) ?? num(s['level']) ?? 1;
    const sides = num(rd?.['sides']) ?? 8;
    const bonus = num(s['recoveryBonus']) ?? 0;
    const maxHp = num(s['maxHp']) ?? 0;
    out.push({
      id,
      name: typeof s['name'] === 'string' ? s['name'] : id,
      hp: num(s['hp']) ?? maxHp,
      maxHp,
      recoveries: num(s['recoveries']) ?? 0,
      maxRecoveries: num(s['maxRecoveries']) ?? 0,
      dice: `${count}d${sides}${bonus > 0 ? `+${bonus}` : bonus < 0 ? String(bonus) : ''}`,
      dying: obj(s['dying']) !== null,
      expended: Object.entries(obj(s['uses']) ?? {})
        .filter(([, u]) => obj(u)?.['expended'] === true)
        .map(([key]) => {
          const named = obj(obj(s['abilities'])?.[key])?.['name'];
          return { id: key, name: typeof named === 'string' ? named : key };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
