// The four action economies as data, and the pure spend/reset logic. Pools
// are counted from `economy.spent` events and refilled by turn/round events,
// never ticked by hand.
import type { Result } from '../core/types.js';
import { EMPTY_ECONOMY, errR, okR } from './state.js';
import type { EconomyDef, EconomyState, ExtendedAction } from './types.js';

/** 001 "Types of Actions": one active, one movement, one quick per round; active trades down to movement or quick, movement to quick. */
export const OSR_ECONOMY: EconomyDef = {
  id: 'osr',
  pools: {
    active: { size: 1, resetOn: 'turnStart', when: 'own' },
    movement: { size: 1, resetOn: 'turnStart', when: 'own' },
    // Quick actions may be triggered off others (readied actions), so any time. 001 "PC Actions" allows one
    // of each per round: the pool refills when the round starts, so one used before your turn is not refunded by it.
    quick: { size: 1, resetOn: 'roundStart', when: 'any' },
  },
  payers: { active: ['active'], movement: ['movement', 'active'], quick: ['quick', 'movement', 'active'] },
};

/** 002 "Actions" / "Action Types": standard, move, quick on your turn (better substitutes for lesser), free, and one interrupt outside your turn before your next turn starts. */
export const BANDS_ECONOMY: EconomyDef = {
  id: '36th-way',
  pools: {
    standard: { size: 1, resetOn: 'turnStart', when: 'own' },
    move: { size: 1, resetOn: 'turnStart', when: 'own' },
    quick: { size: 1, resetOn: 'turnStart', when: 'own' },
    interrupt: { size: 1, resetOn: 'turnStart', when: 'off' },
  },
  payers: { standard: ['standard'], move: ['move', 'standard'], quick: ['quick', 'move', 'standard'], interrupt: ['interrupt'], free: [] },
  readiedActionOwed: true,
};

/** 003 "Actions in Combat": three actions per turn, one reaction recovered at the start of each of your turns; actions may span turns. */
export const TEAMS_ECONOMY: EconomyDef = {
  id: 'teams',
  pools: {
    actions: { size: 3, resetOn: 'turnStart', when: 'own' },
    reaction: { size: 1, resetOn: 'turnStart', when: 'any' },
  },
  payers: { action: ['actions'], reaction: ['reaction'], free: [] },
  extendedPools: ['actions'],
};

/** 004 "Using Abilities": two Beats per round, usable for reactions before your turn, reset at the end of your turn. */
export const BEATS_ECONOMY: EconomyDef = {
  id: 'kleptonomicon',
  pools: { beats: { size: 2, resetOn: 'turnEnd', when: 'any' } },
  payers: { ability: ['beats'], reaction: ['beats'], free: [] },
};

/** Daggerheart: no action economy; a spotlight is one turn and its moves are free (the tracker's tokens live in the spotlight sequencer). */
export const SPOTLIGHT_ECONOMY: EconomyDef = {
  id: 'daggerheart',
  pools: {},
  payers: { action: [] },
};

export function remaining(def: EconomyDef, st: EconomyState, pool: string): number {
  const p = def.pools[pool];
  if (p === undefined) return 0;
  return p.size + (st.granted[pool] ?? 0) - (st.spent[pool] ?? 0);
}

export interface SpendRequest {
  readonly kind: string;
  readonly cost: number;
  readonly onTurn: boolean;
  /** Once-per-turn / once-per-round limits ("Move: once per turn"). */
  readonly tag?: string;
  readonly limit?: 'turn' | 'round';
  /** Pay ahead for the next turn (002 readied action taken before your turn). */
  readonly forNextTurn?: boolean;
  /** Name for a multi-action that may span turns (003 extended actions). */
  readonly label?: string;
  /** A tag that must already be used this turn (003 Sprint needs a Move first). */
  readonly requires?: string;
  /** Pools a condition forbids (002 Stunned loses the move action). */
  readonly blocked?: readonly string[];
}

export interface Payment {
  readonly paid: { readonly pool: string; readonly n: number }[];
  /** Set when the action did not finish this turn. */
  readonly extended: ExtendedAction | null;
  /** Set when this payment finished an extended action. */
  readonly completed: string | null;
}

const MAX_COST = 20;

/** Decide how an action is paid, or why it cannot be. Pure; the event records the answer. */
export function planSpend(def: EconomyDef, st: EconomyState = EMPTY_ECONOMY, req: SpendRequest): Result<Payment> {
  // Own keys only: a kind sent as "constructor" or "toString" names no action, not something inherited.
  const payers = Object.hasOwn(def.payers, req.kind) ? def.payers[req.kind] : undefined;
  if (payers === undefined) return errR('UNKNOWN_ACTION', `"${req.kind}" is not an action kind of the ${def.id} economy (${Object.keys(def.payers).join(', ')})`, 'kind');
  if (!Number.isInteger(req.cost) || req.cost < 1 || req.cost > MAX_COST) return errR('BAD_COST', `cost must be an integer in [1, ${MAX_COST}]`, 'cost');
  if (req.tag !== undefined && req.limit !== undefined) {
    const used = req.limit === 'turn' ? st.turnTags : st.roundTags;
    if (used.includes(req.tag)) return errR('LIMIT_REACHED', `"${req.tag}" may be used only once per ${req.limit}`, 'tag');
  }
  if (req.requires !== undefined && !st.turnTags.includes(req.requires)) return errR('REQUIREMENT', `needs "${req.requires}" earlier this turn`, 'requires');
  if (payers.length === 0) return okR({ paid: [], extended: null, completed: null });
  const ext = st.extended;
  if (ext !== null && req.label !== ext.label && payers.includes(ext.pool)) {
    return errR('EXTENDED_PENDING', `finish or cancel "${ext.label}" first (${ext.remaining} action(s) left)`, 'label');
  }
  if (req.forNextTurn === true) {
    const pool = payers[0]!;
    const owedNow = st.owed[pool] ?? 0;
    if (owedNow + req.cost > (def.pools[pool]?.size ?? 0)) return errR('NO_ACTIONS_LEFT', `no ${pool} left to pay ahead`, 'kind');
    return okR({ paid: [{ pool, n: 0 }], extended: null, completed: null });
  }
  for (const pool of payers) {
    const p = def.pools[pool];
    if (p === undefined) continue;
    if (p.when === 'own' && !req.onTurn) continue;
    if (p.when === 'off' && req.onTurn) continue;
    if (req.blocked?.includes(pool) === true) continue;
    const left = remaining(def, st, pool);
    // Continuing an extended action pays its remainder.
    const cost = ext !== null && req.label === ext.label && ext.pool === pool ? ext.remaining : req.cost;
    if (left >= cost) return okR({ paid: [{ pool, n: cost }], extended: null, completed: ext !== null && req.label === ext.label ? ext.label : null });
    if (left > 0 && req.label !== undefined && (def.extendedPools ?? []).includes(pool)) {
      return okR({ paid: [{ pool, n: left }], extended: { label: req.label, pool, remaining: cost - left }, completed: null });
    }
  }
  const where = req.onTurn ? 'on this turn' : 'outside your turn';
  // "an action" (teams' plain action), "an active action", "a standard action".
  const what = req.kind === 'action' ? 'an action' : `${/^[aeiou]/.test(req.kind) ? 'an' : 'a'} ${req.kind} action`;
  return errR('NO_ACTIONS_LEFT', `nothing left to pay for ${what} ${where}`, 'kind');
}

/** Apply a recorded payment. */
export function applySpend(st: EconomyState, pay: Payment, req: { tag?: string; limit?: 'turn' | 'round'; forNextTurn?: boolean; cost: number }): EconomyState {
  const spent = { ...st.spent };
  const owed = { ...st.owed };
  for (const p of pay.paid) {
    if (req.forNextTurn === true) owed[p.pool] = (owed[p.pool] ?? 0) + req.cost;
    else spent[p.pool] = (spent[p.pool] ?? 0) + p.n;
  }
  return {
    ...st,
    spent,
    owed,
    turnTags: req.tag !== undefined && req.limit === 'turn' ? [...st.turnTags, req.tag] : st.turnTags,
    roundTags: req.tag !== undefined && req.limit === 'round' ? [...st.roundTags, req.tag] : st.roundTags,
    extended: pay.extended ?? (pay.completed !== null ? null : st.extended),
  };
}

/** Refill pools whose reset moment is `at`; turn tags clear at each turn start. */
export function resetEconomy(def: EconomyDef, st: EconomyState, at: 'turnStart' | 'turnEnd' | 'roundStart'): EconomyState {
  const spent = { ...st.spent };
  const granted = { ...st.granted };
  const owed = { ...st.owed };
  for (const [name, pool] of Object.entries(def.pools)) {
    if (pool.resetOn !== at) continue;
    spent[name] = owed[name] ?? 0;
    delete owed[name];
    delete granted[name];
  }
  return {
    ...st,
    spent,
    granted,
    owed,
    turnTags: at === 'turnStart' ? [] : st.turnTags,
    roundTags: at === 'roundStart' ? [] : st.roundTags,
  };
}

export function grant(st: EconomyState, pool: string, n: number): EconomyState {
  return { ...st, granted: { ...st.granted, [pool]: (st.granted[pool] ?? 0) + n } };
}

/** One row of 003's Actions, Reactions and Free Actions tables, as far as the economy is concerned. */
export interface TeamsActionRow {
  readonly name: string;
  readonly kind: 'action' | 'reaction' | 'free';
  /** Actions it takes (003: one unless the row says otherwise). */
  readonly cost: number;
  /** Once-per-turn tag (Move and Step share 'move': Step replaces the move action). */
  readonly oncePerTurn?: string;
  /** Once per turn per target (Command). */
  readonly oncePerTurnPerTarget?: boolean;
  readonly endsTurn?: boolean;
  /** Extra pool capacity until your next turn (Wait: one more reaction). */
  readonly grants?: { readonly pool: string; readonly n: number };
  /** Tag that must already be used this turn (Sprint after a Move). */
  readonly requires?: string;
}

/** 003 "Actions in Combat": the Actions, Reactions and Free Actions tables (resource costs such as stamina belong to the ruleset). */
export const TEAMS_ACTIONS: readonly TeamsActionRow[] = [
  { name: 'Attack', kind: 'action', cost: 1 },
  { name: 'Brandish', kind: 'action', cost: 1 },
  { name: 'Command', kind: 'action', cost: 1, oncePerTurnPerTarget: true },
  { name: 'Interact', kind: 'action', cost: 1 },
  { name: 'Guard', kind: 'action', cost: 1, endsTurn: true },
  { name: 'Move', kind: 'action', cost: 1, oncePerTurn: 'move' },
  { name: 'Ready an Action', kind: 'action', cost: 1, endsTurn: true },
  { name: 'Resuscitate', kind: 'action', cost: 2 },
  { name: 'Seek Cover', kind: 'action', cost: 1 },
  { name: 'Short Task', kind: 'action', cost: 3 },
  { name: 'Sprint', kind: 'action', cost: 1, requires: 'move' },
  { name: 'Stand Up', kind: 'action', cost: 1 },
  { name: 'Wait', kind: 'action', cost: 1, endsTurn: true, grants: { pool: 'reaction', n: 1 } },
  { name: 'Block', kind: 'reaction', cost: 1 },
  { name: 'Dodge', kind: 'reaction', cost: 1 },
  { name: 'Fortify', kind: 'reaction', cost: 1 },
  { name: 'Intercept', kind: 'reaction', cost: 1 },
  { name: 'Parry', kind: 'reaction', cost: 1 },
  { name: 'Resist', kind: 'reaction', cost: 1 },
  { name: 'Drop Item', kind: 'free', cost: 1 },
  { name: 'Drop Prone', kind: 'free', cost: 1 },
  { name: 'Step', kind: 'free', cost: 1, oncePerTurn: 'move' },
];

/** The spend request for a named 003 action (null if no such row). */
export function teamsActionRequest(name: string, onTurn: boolean, target?: string): SpendRequest | null {
  const row = TEAMS_ACTIONS.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (row === undefined) return null;
  const tag = row.oncePerTurn ?? (row.oncePerTurnPerTarget === true ? `${row.name.toLowerCase()}:${target ?? ''}` : undefined);
  return {
    kind: row.kind,
    cost: row.cost,
    onTurn,
    // Multi-action rows may span turns (extended actions).
    ...(row.cost > 1 ? { label: row.name } : {}),
    ...(tag !== undefined ? { tag, limit: 'turn' as const } : {}),
    ...(row.requires !== undefined ? { requires: row.requires } : {}),
  };
}
