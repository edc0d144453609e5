// The attack panel's pure side: who may attack and be attacked as this view
// shows them, the options each ruleset's attack command takes, and the query
// and command those choices make. The odds themselves come from the server's
// query (answered on this viewer's own view); nothing here computes a chance.
import type { EncounterState, Json, World } from '@tablekeeper/engine';
import type { ClientCommand, QueryAnswer } from '../net/codec.ts';
import { displayOrder } from './encounter.ts';

export type AttackRules = '36th-way' | 'teams' | 'osr';

/** Ask a module query; in the app this is TableClient.query. */
export type Ask = (name: string, args: { readonly [k: string]: Json }) => Promise<QueryAnswer>;

export function attackRulesOf(world: World): AttackRules | null {
  const id = world.rulesetId;
  return id === '36th-way' || id === 'teams' || id === 'osr' ? id : null;
}

type Obj = { readonly [k: string]: Json };
const obj = (x: Json | undefined): Obj | null => (x !== null && x !== undefined && typeof x === 'object' && !Array.isArray(x) ? x : null);
const num = (x: Json | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const str = (x: Json | undefined): string | null => (typeof x === 'string' ? x : null);

/** Someone who can make or take an attack: the id the ruleset's command names them by. */
export interface Fighter {
  readonly id: string;
  readonly name: string;
  readonly characterId: string | null;
  /** What the tracker would show of their health, when this view has it ("HP 11/20"). */
  readonly health: string | null;
}

/** An attack option: the value of a <select> and its label. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

function sheetsOf(world: World, rules: AttackRules): { [id: string]: Obj } {
  const st = obj(world.ext[rules === '36th-way' ? '36th-way' : 'teams']);
  const sheets = obj(st?.['sheets']);
  const out: { [id: string]: Obj } = {};
  for (const [id, s] of Object.entries(sheets ?? {})) {
    const o = obj(s);
    if (o !== null) out[id] = o;
  }
  return out;
}

function healthOf(rules: AttackRules, s: Obj): string | null {
  const pair = (label: string, v: Json | undefined, m: Json | undefined): string | null => (num(v) === null ? null : num(m) === null ? `${label} ${num(v)}` : `${label} ${num(v)}/${num(m)}`);
  if (rules === 'teams') return [pair('Endurance', s['endurance'], s['maxEndurance']), pair('Health', s['health'], s['maxHealth'])].filter((x) => x !== null).join(' · ') || null;
  return pair('HP', s['hp'], s['maxHp']);
}

/** Everyone in this view who can fight, in turn order first (the encounter's), then the rest by name. */
export function fightersOf(world: World, rules: AttackRules, enc: EncounterState | null): Fighter[] {
  const all: Fighter[] = [];
  if (rules === 'osr') {
    for (const c of Object.values(world.characters)) all.push({ id: c.id, name: c.name, characterId: c.id, health: healthOf(rules, c.stats) });
  } else {
    for (const [id, s] of Object.entries(sheetsOf(world, rules))) all.push({ id, name: str(s['name']) ?? id, characterId: str(s['characterId']), health: s['secret'] === true ? null : healthOf(rules, s) });
  }
  const rank = new Map<string, number>();
  if (enc !== null) {
    displayOrder(enc).forEach((c, i) => {
      const f = all.find((x) => x.id === c.id) ?? (c.characterId !== null ? all.find((x) => x.characterId === c.characterId) : undefined);
      if (f !== undefined && !rank.has(f.id)) rank.set(f.id, i);
    });
  }
  return all.sort((a, b) => (rank.get(a.id) ?? 1e9) - (rank.get(b.id) ?? 1e9) || a.name.localeCompare(b.name));
}

/** The fighter acting now, if the encounter's current combatant is one. */
export function currentFighter(fighters: readonly Fighter[], enc: EncounterState | null): string | null {
  const c = enc?.current ? enc.combatants[enc.current] : undefined;
  if (c === undefined) return null;
  return (fighters.find((f) => f.id === c.id) ?? fighters.find((f) => c.characterId !== null && f.characterId === c.characterId))?.id ?? null;
}

function sideOf(f: Fighter, enc: EncounterState | null): string | null {
  const c = enc === null ? undefined : (enc.combatants[f.id] ?? Object.values(enc.combatants).find((x) => f.characterId !== null && x.characterId === f.characterId));
  return c?.side ?? null;
}

/** The first one on another side than the attacker's (the tracker's order), else simply the first. */
export function defaultTarget(targets: readonly Fighter[], attacker: Fighter | undefined, enc: EncounterState | null): string {
  const mine = attacker === undefined ? null : sideOf(attacker, enc);
  return (targets.find((t) => mine !== null && sideOf(t, enc) !== null && sideOf(t, enc) !== mine) ?? targets[0])?.id ?? '';
}

/** A player's own fighters: linked to one of their combatants (by id or character). */
export function ownFighters(fighters: readonly Fighter[], enc: EncounterState | null, mine: readonly string[]): Fighter[] {
  const chars = new Set(mine.map((id) => enc?.combatants[id]?.characterId).filter((x): x is string => typeof x === 'string'));
  return fighters.filter((f) => mine.includes(f.id) || (f.characterId !== null && chars.has(f.characterId)));
}

/** The ways this attacker can attack: basic attacks and attack abilities (36th Way), weapons (teams), attack kinds (OSR). */
export function optionsFor(world: World, rules: AttackRules, attacker: string): Choice[] {
  if (rules === 'osr') return ['melee', 'ranged', 'arcane', 'divine'].map((k) => ({ value: k, label: k[0]!.toUpperCase() + k.slice(1) }));
  const s = sheetsOf(world, rules)[attacker];
  if (s === undefined) return [];
  if (rules === 'teams') {
    return Object.entries(obj(s['items']) ?? {})
      .filter(([, it]) => obj(obj(it)?.['weapon']) !== null)
      .map(([id, it]) => ({ value: id, label: str(obj(it)?.['name']) ?? id }));
  }
  const stance = s['stance'] === 'ranged' ? 'ranged' : 'melee';
  const out: Choice[] = [{ value: `basic:${stance}`, label: `Basic ${stance} attack` }];
  for (const [id, a] of Object.entries(obj(s['abilities']) ?? {})) out.push({ value: `ability:${id}`, label: str(obj(a)?.['name']) ?? id });
  return out;
}

/** Everything the panel lets one choose; fields a ruleset does not use are ignored for it. */
export interface AttackForm {
  readonly attacker: string;
  readonly target: string;
  /** From optionsFor. */
  readonly option: string;
  /** 36th Way: ac / pd / md. */
  readonly defense: string;
  /** 36th Way: situational net Advantage; OSR: +1 advantage, -1 disadvantage. */
  readonly advantage: number;
  readonly bonus: number;
  /** Teams. */
  readonly sneak: boolean;
  readonly flank: boolean;
  /** OSR. */
  readonly proficient: boolean;
  readonly range: 'close' | 'ranged';
  readonly damage: string;
}

export const DEFAULT_FORM: AttackForm = { attacker: '', target: '', option: '', defense: 'ac', advantage: 0, bonus: 0, sneak: false, flank: false, proficient: false, range: 'close', damage: '1d6' };

/** The query that answers the odds of this attack, or null while the form is incomplete. */
export function oddsQuery(rules: AttackRules, f: AttackForm): { name: string; args: { [k: string]: Json } } | null {
  if (f.attacker === '' || f.target === '' || f.option === '' || f.attacker === f.target) return null;
  if (rules === '36th-way') {
    const args: { [k: string]: Json } = { attacker: f.attacker, target: f.target, defense: f.defense, advantage: f.advantage, bonus: f.bonus };
    if (f.option.startsWith('ability:')) args['ability'] = f.option.slice('ability:'.length);
    return { name: 'tsw.attackOdds', args };
  }
  if (rules === 'teams') return { name: 'teams.attackOdds', args: { attacker: f.attacker, target: f.target, weapon: f.option, sneak: f.sneak, flank: f.flank, bonus: f.bonus } };
  return { name: 'osr.attackOdds', args: { ...osrArgs(f), damage: f.damage } };
}

function osrArgs(f: AttackForm): { [k: string]: Json } {
  const melee = f.option === 'melee';
  return {
    attacker: f.attacker,
    target: f.target,
    kind: f.option,
    range: melee ? 'close' : f.range,
    proficient: f.proficient,
    bonus: f.bonus,
    advantage: f.advantage > 0 ? 1 : 0,
    disadvantage: f.advantage < 0 ? 1 : 0,
  };
}

/** The ruleset's own attack command for this form (the server rolls every die). */
export function attackCommand(rules: AttackRules, f: AttackForm): ClientCommand | null {
  if (oddsQuery(rules, f) === null) return null;
  if (rules === '36th-way') {
    const how = f.option.startsWith('basic:') ? { basic: f.option.slice('basic:'.length) } : { ability: f.option.slice('ability:'.length) };
    return { type: 'tsw.attack', attacker: f.attacker, targets: [f.target], ...how, defense: f.defense, advantage: f.advantage, bonus: f.bonus };
  }
  if (rules === 'teams') return { type: 'teams.attack', attacker: f.attacker, target: f.target, weapon: f.option, sneak: f.sneak, flank: f.flank, bonus: f.bonus };
  return { type: 'osr.attack', ...osrArgs(f), damage: f.damage.trim() === '' ? '1d6' : f.damage.trim() };
}

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
export function describeOdds(rules: AttackRules, result: Json): { headline: string; detail: string } | null {
  const r = obj(result);
  if (r === null) return null;
  const hit = num(r['hit']);
  if (hit === null) return null;
  const parts = [`${percent(hit)} to hit`];
  const sign = (n: number | null): string => (n === null ? '?' : n >= 0 ? `+${n}` : String(n));
  if (rules === '36th-way') {
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
  if (rules === 'teams') {
    parts.push(`${percent(num(r['critical']) ?? 0)} critical`);
    const astray = num(r['astray']) ?? 0;
    if (astray > 0) parts.push(`${percent(astray)} astray`);
    const detail = [`${String(r['weapon'])} (${String(r['attribute'])}) vs evasion ${num(r['evasion'])}`, `critical on a luck ${num(r['criticalThreshold'])}+`, num(r['advantage']) ? `advantage ${sign(num(r['advantage']))}` : '', num(r['penalty']) ? `penalty ${sign(num(r['penalty']))}` : ''];
    return { headline: parts.join(' · '), detail: detail.filter((x) => x !== '').join(' · ') };
  }
  parts.push(`${percent(num(r['crit']) ?? 0)} crit`);
  const adv = num(r['advantage']);
  const detail = [`d20 ${sign(num(r['modifier']))} vs AC ${num(r['ac'])}`, adv === 1 ? 'advantage' : adv === -1 ? 'disadvantage' : '', `${(num(r['expectedDamage']) ?? 0).toFixed(1)} damage expected`];
  return { headline: parts.join(' · '), detail: detail.filter((x) => x !== '').join(' · ') };
}
