// Daggerheart has no initiative: a conflict is a scene in which the spotlight
// moves. After each turn the GM decides who holds it next (a PC, or one of
// their adversaries); nothing ends a round on its own. Optional action-token
// tracker: each PC starts with N tokens and pays one per spotlight, which goes
// to the GM's pool; an adversary's spotlight is paid from that pool; when
// neither side has a token left the round ends and the PCs' tokens refill.
// See docs/adr/0014-spotlight.md.
import { own } from '../../core/own.js';
import type { Json } from '../../core/types.js';
import { errR, okR } from '../state.js';
import type { EncounterState, Next, Sequencer } from '../types.js';
import { byJoin, field, num } from './common.js';

/** Action tokens in play: `perPc` 0 means the tracker is off. */
export interface SpotlightTokens {
  readonly perPc: number;
  /** Tokens each PC has spent this round. */
  readonly spent: { readonly [id: string]: number };
  /** Tokens the GM holds (paid by PCs' spotlights, spent on adversaries'). */
  readonly gm: number;
}

export const MAX_ACTION_TOKENS = 10;

export function spotlightTokens(enc: EncounterState): SpotlightTokens {
  const perPc = num(field(enc.seq, 'perPc')) ?? 0;
  const spentRaw = field(enc.seq, 'spent');
  const spent: Record<string, number> = {};
  if (spentRaw !== null && typeof spentRaw === 'object' && !Array.isArray(spentRaw)) {
    for (const [k, v] of Object.entries(spentRaw)) if (typeof v === 'number') spent[k] = v;
  }
  return { perPc, spent, gm: num(field(enc.seq, 'gm')) ?? 0 };
}

/** Tokens a PC has left this round (Infinity when the tracker is off). */
export function tokensLeft(enc: EncounterState, id: string): number {
  const t = spotlightTokens(enc);
  return t.perPc === 0 ? Number.POSITIVE_INFINITY : Math.max(0, t.perPc - (t.spent[id] ?? 0));
}

export interface SpotlightOptions {
  /** Reads the tracker's tokens per PC from the table settings (0 = off). */
  readonly tokensFrom?: (settings: { readonly [key: string]: Json }) => number;
}

/**
 * Who "Next turn" hands the spotlight to when the GM names nobody: the one who has
 * waited longest for it (never held it, or held it least recently), join order
 * breaking ties, so N moves the spotlight round the table instead of back to the
 * first PC every time (review 10). A hidden adversary is never the default: showing
 * it stays the GM's deliberate choice. null when only hidden ones may act.
 */
export function spotlightDefault(enc: EncounterState, options: readonly string[]): string | null {
  let best: string | null = null;
  let bestTurn = Number.POSITIVE_INFINITY;
  for (const id of options) {
    const c = own(enc.combatants, id);
    if (c === undefined || c.visibility === 'hidden') continue;
    const turn = own(enc.lastTurn, id) ?? -1;
    // options come in join order, so a strict < keeps the earlier joiner on a tie.
    if (turn < bestTurn) {
      best = id;
      bestTurn = turn;
    }
  }
  return best;
}

const asSeq = (t: SpotlightTokens): Json => ({ perPc: t.perPc, spent: { ...t.spent }, gm: t.gm });

export function spotlightSequencer(options: SpotlightOptions = {}): Sequencer {
  return {
    id: 'spotlight',
    place: () => okR({}),
    setup(_enc, _params, _rng, settings) {
      const perPc = settings !== undefined && options.tokensFrom !== undefined ? options.tokensFrom(settings) : 0;
      if (!Number.isInteger(perPc) || perPc < 0 || perPc > MAX_ACTION_TOKENS) return errR('BAD_SETTING', `action tokens per PC must be a whole number from 0 to ${MAX_ACTION_TOKENS}`, 'settings');
      return okR({ state: asSeq({ perPc, spent: {}, gm: 0 }), placements: {} });
    },
    surprise: () => errR('NO_SURPRISE', 'Daggerheart has no surprise round: the GM simply takes the spotlight (spending Fear)'),
    next(view): Next {
      const enc = view.enc;
      const t = spotlightTokens(enc);
      // Anyone able may take the spotlight again: a turn taken does not use up a round the way initiative does.
      const able = enc.roster.filter((id) => own(enc.combatants, id) !== undefined && view.canAct(id)).sort(byJoin(enc));
      const options = able.filter((id) => {
        if (t.perPc === 0) return true;
        return own(enc.combatants, id)?.kind === 'pc' ? tokensLeft(enc, id) > 0 : t.gm > 0;
      });
      if (options.length === 0) return { kind: 'roundOver' };
      return { kind: 'decision', decision: { prompt: 'Pass the spotlight', chooser: { kind: 'gm' }, options, default: spotlightDefault(enc, options) } };
    },
    onTurnStarted(enc, id) {
      const t = spotlightTokens(enc);
      if (t.perPc === 0) return enc.seq;
      if (own(enc.combatants, id)?.kind === 'pc') return asSeq({ ...t, spent: { ...t.spent, [id]: (t.spent[id] ?? 0) + 1 }, gm: t.gm + 1 });
      return asSeq({ ...t, gm: Math.max(0, t.gm - 1) });
    },
    onRoundStarted(enc) {
      const t = spotlightTokens(enc);
      return asSeq({ ...t, spent: {} });
    },
  };
}
