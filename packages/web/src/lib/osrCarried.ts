// What an OSR character carries, in words, for the phone's sheet (001 "Movement Actions", "Treasure"): the loads
// on the sheet and the purse's coins (500 to a load), against STR: speed and the disadvantage past it.
import type { Json } from '@tablekeeper/engine';
import { carriedLoad, encumbrance, purseLoads, readSheet } from '@tablekeeper/rulesets/browser';

export function carriedWords(stats: { readonly [k: string]: Json } | undefined): string {
  const s = readSheet(stats);
  const total = carriedLoad(s);
  const coins = s.cp + s.sp + s.gp;
  const enc = encumbrance(s.str, total, s.speed);
  const purse = `purse ${s.gp} gp, ${s.sp} sp, ${s.cp} cp`;
  const parts = `${s.load} on the sheet + ${purseLoads(s)} for ${coins} coins`;
  const after = enc.fullyEncumbered ? "speed 0': cannot move" : `speed ${enc.speed}'${enc.disadvantage ? ', disadvantage on every check' : ''}`;
  return `Carrying ${total} ${total === 1 ? 'load' : 'loads'} (${parts}; ${purse}) on STR ${s.str}: ${after}.`;
}
