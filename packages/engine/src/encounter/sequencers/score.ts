// 001 (OSR): initiative by DEX score, higher first, the same every round.
// Ties (our decision, docs/encounters.md): PCs before NPCs, then join order.
// Delay (001 "Initiative"): move to a lower score for the rest of the
// encounter, after everyone already at that score. Ambush: a surprise round in
// which only the ambushing side (and the unsurprisable) act.
import { own } from '../../core/own.js';
import type { Json } from '../../core/types.js';
import { errR, okR } from '../state.js';
import type { EncounterState, Sequencer } from '../types.js';
import { field, nextFromTiers, num, sideSurprise, type Tier } from './common.js';

interface ScorePlacement { readonly score: number; readonly tie: number }

function placementOf(enc: EncounterState, id: string): ScorePlacement {
  const p = own(enc.combatants, id)?.placement;
  return { score: num(field(p, 'score')) ?? 0, tie: num(field(p, 'tie')) ?? 0 };
}

/** Where a combatant sits among equal scores: its group's first member's join (a group acts together, ADR 73), else its own. */
function seatOf(enc: EncounterState, id: string): number {
  const c = own(enc.combatants, id);
  return num(field(c?.placement, 'lead')) ?? c?.joined ?? 0;
}

/** Fixed order for a round: score desc, tie rank asc, group, join order. */
export function scoreOrder(enc: EncounterState): string[] {
  return [...enc.roster].sort((a, b) => {
    const pa = placementOf(enc, a);
    const pb = placementOf(enc, b);
    if (pa.score !== pb.score) return pb.score - pa.score;
    if (pa.tie !== pb.tie) return pa.tie - pb.tie;
    const sa = seatOf(enc, a);
    const sb = seatOf(enc, b);
    if (sa !== sb) return sa - sb;
    return (own(enc.combatants, a)?.joined ?? 0) - (own(enc.combatants, b)?.joined ?? 0);
  });
}

/** A foe's type for group initiative: its creatureType, else its name without the count ("Goblin 3" is a Goblin). */
export function foeType(c: { readonly name: string; readonly stats: { readonly [k: string]: Json } }): string {
  const t = c.stats['creatureType'];
  return typeof t === 'string' && t.trim() !== '' ? t.trim() : c.name.replace(/\s+\d+$/, '').trim();
}

/**
 * Group initiative (ADR 73): the foes of one type (or all foes) share one score, their slowest member's, the
 * place every faster member could reach by delaying (001 "Initiative"), and act one after another. PCs keep their own.
 */
export function groupPlacements(enc: EncounterState, by: 'type' | 'side'): { [id: string]: Json } {
  const groups = new Map<string, string[]>();
  for (const id of enc.roster) {
    const c = own(enc.combatants, id);
    if (c === undefined || c.kind !== 'npc') continue;
    const key = by === 'side' ? `side:${c.side}` : `type:${foeType(c)}`;
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  const out: { [id: string]: Json } = {};
  for (const ids of groups.values()) {
    const score = Math.min(...ids.map((id) => placementOf(enc, id).score));
    const lead = Math.min(...ids.map((id) => own(enc.combatants, id)?.joined ?? 0));
    for (const id of ids) out[id] = { score, tie: placementOf(enc, id).tie, lead };
  }
  return out;
}

export interface ScoreOptions {
  /** Stat read when no score is given (default 'dex'). */
  readonly stat?: string;
  /** Equal scores: 'pcs-first' (default), 'npcs-first', or 'join-order'. */
  readonly ties?: 'pcs-first' | 'npcs-first' | 'join-order';
  /** A turn passed while unable is 'lost' (default) or taken 'later' in the round once able. */
  readonly missedTurns?: 'lost' | 'later';
}

export function scoreSequencer(options: ScoreOptions = {}): Sequencer {
  const stat = options.stat ?? 'dex';
  const ties = options.ties ?? 'pcs-first';
  const tieRank = (kind: 'pc' | 'npc'): number => (ties === 'join-order' ? 0 : (kind === 'pc') === (ties === 'pcs-first') ? 0 : 1);
  return {
    id: 'score',
    place(_enc, c, input) {
      const given = num(field(input, 'score')) ?? num(c.stats[stat]);
      if (given === null) return errR('NO_SCORE', `combatant "${c.id}" needs an initiative score (placement.score) or a "${stat}" score on its character's sheet or its own stats`, 'placement.score');
      if (!Number.isInteger(given) || given < -1000 || given > 1000) return errR('BAD_SCORE', `score must be an integer in [-1000, 1000], got ${given}`, 'placement.score');
      return okR({ score: given, tie: tieRank(c.kind) });
    },
    setup(enc, params) {
      const by = field(params, 'groupInitiative');
      if (by !== 'type' && by !== 'side') return okR({ state: null, placements: {} });
      return okR({ state: { groupInitiative: by }, placements: groupPlacements(enc, by) });
    },
    groupInitiative: true,
    // Players read the order of the combatants they see (dense, so no gap counts a hidden one) and the party's
    // scores and tie ranks (a PC's, a seat's retainer's: the engine's foe rule, ADR 45, ADR 53); never a foe's
    // score, which is a number of its own (001: its DEX; ADR 33), nor anything else (ADR 25).
    project(enc, shown, friend) {
      const placements: Record<string, Json> = {};
      let order = 0;
      for (const id of scoreOrder(enc)) {
        if (!shown(id)) continue;
        placements[id] = friend(id) ? { ...placementOf(enc, id), order } : { order };
        order++;
      }
      for (const id of Object.keys(enc.combatants)) if (shown(id) && !Object.hasOwn(placements, id)) placements[id] = friend(id) ? { ...placementOf(enc, id) } : {};
      return { state: null, placements };
    },
    surprise: sideSurprise,
    next(view) {
      const tiers: Tier[] = scoreOrder(view.enc).map((id) => ({ members: [id], chooser: null, label: id }));
      return nextFromTiers(view, tiers);
    },
    ...(options.missedTurns === 'later' ? {} : { rank: (enc: EncounterState, id: string) => scoreOrder(enc).indexOf(id) }),
    reorder(enc, id, before) {
      const order = scoreOrder(enc).filter((x) => x !== id);
      const at = before === null ? order.length : order.indexOf(before);
      if (at < 0) return errR('NOT_FOUND', `before: no combatant ${JSON.stringify(before)} in the order`, 'before');
      // It takes the score of whoever it now goes before (or after, when last); everyone at that score is renumbered in the new order.
      const next = order[at] ?? order[at - 1];
      if (next === undefined) return okR({});
      const score = placementOf(enc, next).score;
      const line = [...order.slice(0, at), id, ...order.slice(at)];
      const out: { [id: string]: Json } = {};
      let tie = 0;
      for (const x of line) {
        if (x !== id && placementOf(enc, x).score !== score) continue;
        const p = { score, tie: tie++ };
        const was = placementOf(enc, x);
        if (was.score !== p.score || was.tie !== p.tie) out[x] = p;
      }
      return okR(out);
    },
    delay(enc, id, to) {
      const target = num(field(to, 'score'));
      const now = placementOf(enc, id);
      if (target === null || !Number.isInteger(target)) return errR('BAD_DELAY', 'delay needs { score: integer }', 'to.score');
      if (target >= now.score) return errR('DELAY_NOT_SLOWER', `delay must go to a score below ${now.score}, got ${target}`, 'to.score');
      // After everyone already at that score: a tie rank beyond any existing one.
      const maxTie = Math.max(1, ...enc.roster.map((r) => placementOf(enc, r)).filter((p) => p.score === target).map((p) => p.tie));
      return okR({ score: target, tie: maxTie + 1 } as Json);
    },
  };
}
