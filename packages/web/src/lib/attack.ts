// Odds in words: the attack odds queries' answers (36th Way, teams, OSR) as
// the actions panel shows them. The odds come from the server's queries,
// answered on this viewer's own view; nothing here computes a chance.
import type { Json } from '@tablekeeper/engine';
import type { OddsShape } from '@tablekeeper/rulesets/browser';
import type { QueryAnswer } from '../net/codec.ts';

/** The attack odds shapes this file words (the rulesets' capability descriptor names each query's, ADR 58). */
export type AttackShape = Extract<OddsShape, 'attack3d6' | 'attackLuck' | 'attackD20'>;

/** Ask a module query; in the app this is TableClient.query. */
export type Ask = (name: string, args: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

type Obj = { readonly [k: string]: Json };
const obj = (x: Json | undefined): Obj | null => (x !== null && x !== undefined && typeof x === 'object' && !Array.isArray(x) ? x : null);
const num = (x: Json | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

/** A chance as a percentage: one decimal when it is not whole, never 0% or 100% for what can still happen. */
export function percent(p: number): string {
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  const x = Math.round(p * 1000) / 10;
  if (x <= 0) return '<0.1%';
  if (x >= 100) return '>99.9%';
  return `${Number.isInteger(x) ? x.toFixed(0) : x.toFixed(1)}%`;
}

/** What natural 3d6 result meets the defence, in words (3d6 shows 3 to 18). */
function reach(needed: number): string {
  if (needed <= 3) return 'any natural meets it';
  if (needed > 18) return 'no natural meets it';
  return `natural ${needed}+ hits`;
}

/** The answer in words: the headline ("62.5% to hit · 1.9% crit") and the numbers behind it. */
export function describeOdds(shape: AttackShape, result: Json): { headline: string; detail: string } | null {
  const r = obj(result);
  if (r === null) return null;
  const hit = num(r['hit']);
  if (hit === null) return null;
  const parts = [`${percent(hit)} to hit`];
  const sign = (n: number | null): string => (n === null ? '?' : n >= 0 ? `+${n}` : String(n));
  if (shape === 'attack3d6') {
    parts.push(`${percent(num(r['crit']) ?? 0)} crit`, `${percent(num(r['critFail']) ?? 0)} crit fail`);
    const invisible = num(r['invisibleSave']);
    const detail = [
      `${sign(num(r['bonus']))} vs ${String(r['defense']).toUpperCase()} ${num(r['defenseValue'])}: ${reach(num(r['needed']) ?? 0)}, ${num(r['critAt'])}+ crits`,
      num(r['net']) ? `net Advantage ${sign(num(r['net']))}` : '',
      invisible !== null ? `Invisible: ${percent(invisible)} to find them first` : '',
      r['coupDeGrace'] === true ? 'coup de grace' : '',
    ];
    return { headline: parts.join(' · '), detail: detail.filter((x) => x !== '').join(' · ') };
  }
  if (shape === 'attackLuck') {
    parts.push(`${percent(num(r['critical']) ?? 0)} critical`);
    const astray = num(r['astray']) ?? 0;
    if (astray > 0) parts.push(`${percent(astray)} astray`);
    const detail = [`${String(r['weapon'])} (${String(r['attribute'])}) vs evasion ${num(r['evasion'])}`, `critical on a luck ${num(r['criticalThreshold'])}+`, num(r['advantage']) ? `advantage ${sign(num(r['advantage']))}` : '', num(r['penalty']) ? `penalty ${sign(num(r['penalty']))}` : ''];
    return { headline: parts.join(' · '), detail: detail.filter((x) => x !== '').join(' · ') };
  }
  parts.push(`${percent(num(r['crit']) ?? 0)} crit`);
  const adv = num(r['advantage']);
  // The damage a hit deals in words ("1d6 + DEX 3"): review 9 could not tell the modifier was added.
  const words = typeof r['damageWords'] === 'string' ? `damage ${r['damageWords']}, doubled on a natural 20: ` : '';
  const detail = [`d20 ${sign(num(r['modifier']))} vs AC ${num(r['ac'])}`, adv === 1 ? 'advantage' : adv === -1 ? 'disadvantage' : '', `${words}${(num(r['expectedDamage']) ?? 0).toFixed(1)} damage expected`];
  return { headline: parts.join(' · '), detail: detail.filter((x) => x !== '').join(' · ') };
}
