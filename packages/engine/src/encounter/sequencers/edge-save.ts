// 004 (The Kleptonomicon, "Turn Order"): NPCs grouped by creature type, the
// groups sorted by Edge Save modifier (highest first), 2-4 groups (the GM may
// merge or split by passing explicit groups). Each PC rolls an Edge Save
// against each group in order (advantage when Sneaky); the first failure
// (Score 6 or lower) slots the PC right after that group; passing all puts
// the PC first. PCs in the same slot choose their order or go by Score.
import { own } from '../../core/own.js';
import type { Json, Result } from '../../core/types.js';
import { KLEPTO_ADVANTAGE_CAP, MAX_NAMED_MODIFIER, rollKleptoTest } from '../../dice/named.js';
import type { Rng } from '../../dice/rng.js';
import { errR, okR } from '../state.js';
import type { Combatant, EncounterState, Sequencer } from '../types.js';
import { byJoin, field, nextFromTiers, num, tierRank, type Tier } from './common.js';

/** One Edge Save: at least the Score; everything else it returns (dice, coin flips) is recorded as is. */
export interface EdgeSaveRoll { readonly score: number }
/** The Kleptonomicon Test; the ruleset passes the dice helper's `rollKleptoTest`. */
export type EdgeSaveRoller = (rng: Rng, opts: { readonly modifier: number; readonly advantage: number }) => EdgeSaveRoll;

export interface EdgeSaveOptions {
  /** The Kleptonomicon Test; default: the dice layer's rollKleptoTest (kleptoEdgeSave). */
  readonly roll?: EdgeSaveRoller;
  /** Order of PCs in one slot: 'choice' = they decide; 'score' = higher Edge Save Score first. */
  readonly ties?: 'choice' | 'score';
  /** Score at or below which an Edge Save fails (004: 6). */
  readonly failAtOrBelow?: number;
  /** Each player rolls their own PC's Edge Saves (a decision) instead of the engine rolling at the start. */
  readonly playersRoll?: boolean;
  /** A turn passed while unable is 'lost' (default) or taken 'later' in the round once able. */
  readonly missedTurns?: 'lost' | 'later';
  /**
   * Per-table choices read from the table's settings when an encounter starts
   * (they override the options above and hold for the whole encounter).
   */
  readonly fromSettings?: (settings: { readonly [key: string]: Json }) => Partial<Pick<EdgeSaveOptions, 'ties' | 'failAtOrBelow' | 'playersRoll'>> & { readonly rerollEachRound?: boolean };
}

/** The choices in force for one encounter, kept in its sequencer state so replays never depend on later setting changes. */
interface InForce { readonly ties: 'choice' | 'score'; readonly failAt: number; readonly playersRoll: boolean; readonly reroll: boolean }

interface PcSlot { readonly slot: number; readonly score: number; readonly rolls: Json[] }

/**
 * The default Edge Save: a Kleptonomicon Test (dice layer, rules README on 004).
 * The modifier comes from a combatant's stats, so it is made a whole number within
 * the dice layer's limit rather than letting a bad stat throw inside decide().
 */
export const kleptoEdgeSave: EdgeSaveRoller = (rng, o) => {
  const modifier = Math.max(-MAX_NAMED_MODIFIER, Math.min(MAX_NAMED_MODIFIER, Math.trunc(Number.isFinite(o.modifier) ? o.modifier : 0)));
  return rollKleptoTest(rng, { modifier, advantage: Math.max(-KLEPTO_ADVANTAGE_CAP, Math.min(KLEPTO_ADVANTAGE_CAP, Math.trunc(o.advantage))) });
};

const CRITICALS = ['success', 'failure'] as const;
const critical = (v: Json | undefined): Json => (CRITICALS.find((c) => c === v) ?? null);

/**
 * A recorded Edge Save roll as players read it (ADR 33): the Kleptonomicon
 * Test's fields (its dice, advantage, modifier, chosen die, score, critical),
 * each of its type; any other key a roller recorded stays with the GM.
 */
export function shownTestRoll(detail: Json | undefined): Json {
  if (detail === null || detail === undefined || typeof detail !== 'object' || Array.isArray(detail)) return null;
  const dice = field(detail, 'dice');
  return {
    dice: Array.isArray(dice)
      ? dice.map((d) => {
          const coin = num(field(d, 'coin'));
          return { face: num(field(d, 'face')) ?? 0, value: num(field(d, 'value')) ?? 0, critical: critical(field(d, 'critical')), coin: coin === 1 || coin === 2 ? coin : null };
        })
      : [],
    advantage: num(field(detail, 'advantage')) ?? 0,
    modifier: num(field(detail, 'modifier')) ?? 0,
    chosen: num(field(detail, 'chosen')) ?? 0,
    score: num(field(detail, 'score')) ?? 0,
    critical: critical(field(detail, 'critical')),
  };
}

export function edgeModifier(c: Combatant | undefined): number {
  return num(c?.stats['edgeSave']) ?? 0;
}

function groupsOf(enc: EncounterState): string[][] {
  const g = field(enc.seq, 'groups');
  return Array.isArray(g) ? g.map((x) => (Array.isArray(x) ? x.filter((y): y is string => typeof y === 'string') : [])) : [];
}

/** Default grouping: by stats.creatureType, each group sorted by Edge Save modifier, groups by their best modifier. */
export function groupByCreatureType(enc: EncounterState): string[][] {
  const npcs = enc.roster.filter((id) => own(enc.combatants, id)?.kind === 'npc');
  const byType = new Map<string, string[]>();
  for (const id of npcs) {
    const t = own(enc.combatants, id)?.stats['creatureType'];
    const key = typeof t === 'string' ? t : '(untyped)';
    byType.set(key, [...(byType.get(key) ?? []), id]);
  }
  const sortMembers = (ids: string[]): string[] =>
    [...ids].sort((a, b) => edgeModifier(own(enc.combatants, b)) - edgeModifier(own(enc.combatants, a)) || byJoin(enc)(a, b));
  const groups = [...byType.values()].map(sortMembers);
  return groups.sort((a, b) => edgeModifier(own(enc.combatants, b[0]!)) - edgeModifier(own(enc.combatants, a[0]!)) || byJoin(enc)(a[0]!, b[0]!));
}

export function edgeSaveSequencer(options: EdgeSaveOptions): Sequencer {
  const defaults: InForce = { ties: options.ties ?? 'choice', failAt: options.failAtOrBelow ?? 6, playersRoll: options.playersRoll === true, reroll: false };
  const roll = options.roll ?? kleptoEdgeSave;

  function inForce(enc: EncounterState): InForce {
    const t = field(enc.seq, 'ties');
    const f = num(field(enc.seq, 'failAtOrBelow'));
    const p = field(enc.seq, 'playersRoll');
    return { ties: t === 'score' || t === 'choice' ? t : defaults.ties, failAt: f ?? defaults.failAt, playersRoll: typeof p === 'boolean' ? p : defaults.playersRoll, reroll: field(enc.seq, 'rerollEachRound') === true };
  }

  function fromTable(settings: { readonly [key: string]: Json } | undefined, params: Json | undefined): Result<InForce> {
    const o = settings !== undefined && options.fromSettings !== undefined ? options.fromSettings(settings) : {};
    const ties = o.ties ?? defaults.ties;
    const failAt = o.failAtOrBelow ?? defaults.failAt;
    if (ties !== 'choice' && ties !== 'score') return errR('BAD_SETTING', `Edge Save ties must be "choice" or "score", not ${JSON.stringify(ties)}`, 'settings');
    if (!Number.isInteger(failAt) || failAt < 0 || failAt > 10) return errR('BAD_SETTING', `an Edge Save fails at or below a whole Score from 0 to 10, not ${String(failAt)}`, 'settings');
    // The builder's choice for this encounter wins over the table's setting.
    const asked = field(params, 'rerollEachRound');
    return okR({ ties, failAt, playersRoll: o.playersRoll ?? defaults.playersRoll, reroll: typeof asked === 'boolean' ? asked : o.rerollEachRound === true });
  }

  function rollSlot(c: Combatant, groups: readonly string[][], rng: Rng, failAt: number): PcSlot {
    const advantage = c.stats['sneaky'] === true ? 1 : 0;
    const rolls: Json[] = [];
    let last = 0;
    for (let g = 0; g < groups.length; g++) {
      const r = roll(rng, { modifier: edgeModifier(c), advantage });
      rolls.push({ group: g, score: r.score, detail: JSON.parse(JSON.stringify(r)) as Json, failed: r.score <= failAt });
      last = r.score;
      if (r.score <= failAt) return { slot: g + 1, score: r.score, rolls };
    }
    return { slot: 0, score: last, rolls };
  }

  return {
    id: 'edge-save',
    place(enc, c, input, rng): Result<Json> {
      if (c.kind === 'npc') {
        if (!enc.active) return okR({});
        const groups = groupsOf(enc);
        const g = num(field(input, 'group'));
        if (g === null || !Number.isInteger(g) || g < 0 || g >= groups.length) return errR('BAD_GROUP', `NPC "${c.id}" joining mid-encounter needs { group: 0..${groups.length - 1} }`, 'placement.group');
        return okR({ group: g });
      }
      if (!enc.active) return okR({});
      const s = rollSlot(c, groupsOf(enc), rng, inForce(enc).failAt);
      return okR({ slot: s.slot, score: s.score, rolls: s.rolls });
    },
    setup(enc, params, rng, settings) {
      const rules = fromTable(settings, params);
      if (!rules.ok) return rules;
      const { ties, failAt, playersRoll, reroll } = rules.value;
      const npcs = enc.roster.filter((id) => own(enc.combatants, id)?.kind === 'npc');
      const given = field(params, 'groups');
      let groups: string[][];
      if (given === undefined) groups = groupByCreatureType(enc);
      else {
        if (!Array.isArray(given) || !given.every((g) => Array.isArray(g) && g.length > 0 && g.every((x) => typeof x === 'string'))) {
          return errR('BAD_GROUPS', 'groups must be a list of non-empty lists of NPC ids', 'params.groups');
        }
        groups = given as string[][];
        const flat = groups.flat();
        if (new Set(flat).size !== flat.length) return errR('BAD_GROUPS', 'an NPC is in two groups', 'params.groups');
        for (const id of flat) if (own(enc.combatants, id)?.kind !== 'npc') return errR('BAD_GROUPS', `"${id}" is not an NPC in this encounter`, 'params.groups');
        for (const id of npcs) if (!flat.includes(id)) return errR('BAD_GROUPS', `NPC "${id}" is in no group`, 'params.groups');
      }
      const minGroups = Math.min(2, npcs.length);
      if (groups.length < minGroups || groups.length > 4) {
        return errR('GROUP_COUNT', `the turn order needs 2-4 NPC groups, got ${groups.length}; merge or split them with params.groups`, 'params.groups');
      }
      const placements: Record<string, Json> = {};
      groups.forEach((g, i) => g.forEach((id) => (placements[id] = { group: i })));
      for (const id of enc.roster) {
        const c = own(enc.combatants, id);
        if (c?.kind !== 'pc') continue;
        if (playersRoll) {
          placements[id] = { unrolled: true };
          continue;
        }
        const s = rollSlot(c, groups, rng, failAt);
        placements[id] = { slot: s.slot, score: s.score, rolls: s.rolls };
      }
      return okR({ state: { groups, ties, failAtOrBelow: failAt, playersRoll, ...(reroll ? { rerollEachRound: true } : {}) }, placements });
    },
    // Each PC rolls its Edge Saves again against the same groups (or is asked to, where players roll their own).
    reroll(enc, rng) {
      const st = inForce(enc);
      if (!st.reroll) return null;
      const groups = groupsOf(enc);
      const placements: Record<string, Json> = {};
      for (const id of enc.roster) {
        const c = own(enc.combatants, id);
        if (c?.kind !== 'pc') continue;
        if (st.playersRoll) placements[id] = { unrolled: true };
        else {
          const s = rollSlot(c, groups, rng, st.failAt);
          placements[id] = { slot: s.slot, score: s.score, rolls: s.rolls };
        }
      }
      return Object.keys(placements).length === 0 ? null : placements;
    },
    surprise: () => errR('NO_SURPRISE', 'The Kleptonomicon has no surprise round: Sneaky PCs get advantage on their Edge Saves instead'),
    next(view) {
      // The Initiative Phase first: PCs who have not rolled their Edge Saves yet.
      const unrolled = view.enc.roster.filter((id) => field(own(view.enc.combatants, id)?.placement, 'unrolled') === true);
      if (unrolled.length > 0) {
        return { kind: 'decision', decision: { prompt: 'Roll Edge Saves', chooser: { kind: 'players', side: 'pcs' }, options: unrolled, default: null, act: 'roll' } };
      }
      return nextFromTiers(view, tiersOf(view.enc));
    },
    ...(options.missedTurns === 'later' ? {} : { rank: (enc: EncounterState, id: string) => tierRank(tiersOf(enc), id) }),
    project(enc, shown) {
      // Groups with nobody the player can see vanish and the rest are renumbered, so neither
      // the state, the slots nor the PCs' Edge Save rolls count the hidden groups.
      const groups = groupsOf(enc);
      const members = (i: number): string[] => [...new Set([...(groups[i] ?? []), ...enc.roster.filter((id) => num(field(own(enc.combatants, id)?.placement, 'group')) === i)])];
      const index = new Map<number, number>();
      groups.forEach((_g, i) => {
        if (members(i).some(shown)) index.set(i, index.size);
      });
      const before = (g: number): number => [...index.keys()].filter((i) => i <= g).length;
      const placements: Record<string, Json> = {};
      for (const id of enc.roster) {
        if (!shown(id)) continue;
        const p = own(enc.combatants, id)?.placement;
        const group = num(field(p, 'group'));
        const slot = num(field(p, 'slot'));
        if (group !== null) placements[id] = { group: index.get(group) ?? 0 };
        else if (slot !== null) {
          const rolls = field(p, 'rolls');
          const last = Array.isArray(rolls) ? rolls[rolls.length - 1] : undefined;
          // The Score is the last roll's (the chain stops at a fail): against a group this viewer
          // cannot see it is withheld, or a fail would read as a pass "before the foes" (review 12 #5).
          const scoreShown = last !== undefined && index.has(num(field(last, 'group')) ?? -1);
          placements[id] = {
            slot: slot === 0 ? 0 : before(slot - 1),
            ...(scoreShown ? { score: num(field(p, 'score')) ?? 0 } : {}),
            // Each roll field by field (ADR 25), its `detail` too (ADR 33).
            rolls: Array.isArray(rolls)
              ? rolls
                  .filter((r) => index.has(num(field(r, 'group')) ?? -1))
                  .map((r) => ({ group: index.get(num(field(r, 'group'))!)!, score: num(field(r, 'score')) ?? 0, detail: shownTestRoll(field(r, 'detail')), failed: field(r, 'failed') === true }))
              : [],
          };
        } else if (p !== undefined) placements[id] = field(p, 'unrolled') === true ? { unrolled: true } : {};
      }
      const st = inForce(enc);
      const state: Json = {
        groups: groups.filter((_g, i) => index.has(i)).map((g) => g.filter(shown)),
        ties: st.ties,
        failAtOrBelow: st.failAt,
        playersRoll: field(enc.seq, 'playersRoll') === true,
        ...(st.reroll ? { rerollEachRound: true } : {}),
      };
      return { state, placements };
    },
  };

  function tiersOf(enc: EncounterState): Tier[] {
    const groups = groupsOf(enc);
    const { ties } = inForce(enc);
    const pcsIn = (slot: number): string[] => {
      const ids = enc.roster.filter((id) => own(enc.combatants, id)?.kind === 'pc' && num(field(own(enc.combatants, id)?.placement, 'slot')) === slot);
      const score = (id: string): number => num(field(own(enc.combatants, id)?.placement, 'score')) ?? 0;
      return ids.sort((a, b) => score(b) - score(a) || byJoin(enc)(a, b));
    };
    const pcTier = (slot: number): Tier => ({
      members: pcsIn(slot),
      chooser: ties === 'choice' ? { kind: 'players', side: 'pcs' } : null,
      label: slot === 0 ? 'PCs who passed every Edge Save' : `PCs after NPC group ${slot}`,
    });
    const tiers: Tier[] = [pcTier(0)];
    groups.forEach((g, i) => {
      const mids = enc.roster.filter((id) => num(field(own(enc.combatants, id)?.placement, 'group')) === i);
      const ordered = [...g.filter((id) => mids.includes(id)), ...mids.filter((id) => !g.includes(id)).sort(byJoin(enc))];
      tiers.push({ members: ordered, chooser: null, label: `NPC group ${i + 1}` });
      tiers.push(pcTier(i + 1));
    });
    return tiers;
  }
}
