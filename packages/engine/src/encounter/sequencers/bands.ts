// 002 (The 36th Way, "Initiative Bands"): five bands played fastest first;
// in each band the PCs go in an order they choose, then the enemies (GM's
// order). Delay moves an actor to a later band for the rest of the encounter;
// a readied action triggered in the same round moves the actor to the
// trigger's band. Surprise ("Surprise and Ambushes"): two characters chosen by
// the ambushing side act in a surprise round.
import { own } from '../../core/own.js';
import { errR, okR } from '../state.js';
import type { EncounterState, Sequencer } from '../types.js';
import { byJoin, field, nextFromTiers, sideSurprise, tierRank, type Tier } from './common.js';

export const BANDS = ['very-fast', 'fast', 'medium', 'slow', 'very-slow'] as const;
export type Band = (typeof BANDS)[number];

export function isBand(x: unknown): x is Band {
  return typeof x === 'string' && (BANDS as readonly string[]).includes(x);
}

export function bandOf(enc: EncounterState, id: string): Band {
  const b = field(own(enc.combatants, id)?.placement, 'band');
  return isBand(b) ? b : 'medium';
}

/** The tiers of a round: per band, PCs (players choose) then NPCs (GM's order). */
export function bandTiers(enc: EncounterState): Tier[] {
  const tiers: Tier[] = [];
  const ids = [...enc.roster].sort(byJoin(enc));
  for (const band of BANDS) {
    const inBand = ids.filter((id) => bandOf(enc, id) === band);
    const pcs = inBand.filter((id) => own(enc.combatants, id)?.kind === 'pc');
    const npcs = inBand.filter((id) => own(enc.combatants, id)?.kind === 'npc');
    tiers.push({ members: pcs, chooser: { kind: 'players', side: own(enc.combatants, pcs[0] ?? '')?.side ?? 'pcs' }, label: `PCs in band ${band}` });
    tiers.push({ members: npcs, chooser: { kind: 'gm' }, label: `Enemies in band ${band}` });
  }
  return tiers;
}

export interface BandsOptions {
  /** A turn passed while unable is 'lost' (default) or taken 'later' in the round once able. */
  readonly missedTurns?: 'lost' | 'later';
}

export function bandsSequencer(options: BandsOptions = {}): Sequencer {
  return {
    id: 'bands',
    place(_enc, c, input) {
      const b = field(input, 'band') ?? c.stats['band'];
      if (!isBand(b)) return errR('BAD_BAND', `combatant "${c.id}" needs a band, one of ${BANDS.join(', ')}`, 'placement.band');
      return okR({ band: b });
    },
    setup: () => okR({ state: null, placements: {} }),
    surprise(enc, params) {
      const all = sideSurprise(enc, params);
      if (!all.ok) return all;
      const actors = params.actors ?? [];
      if (actors.length < 1 || actors.length > 2) return errR('SURPRISE_ACTORS', 'the ambushing side chooses one or two characters for the surprise round', 'surprise.actors');
      for (const a of actors) {
        if (own(enc.combatants, a)?.side !== params.side) return errR('SURPRISE_ACTORS', `"${a}" is not on the ambushing side "${params.side}"`, 'surprise.actors');
      }
      return okR([...new Set(actors)]);
    },
    next: (view) => nextFromTiers(view, bandTiers(view.enc)),
    ...(options.missedTurns === 'later' ? {} : { rank: (enc: EncounterState, id: string) => tierRank(bandTiers(enc), id) }),
    delay(enc, id, to) {
      const target = field(to, 'band');
      const now = bandOf(enc, id);
      if (!isBand(target)) return errR('BAD_DELAY', `delay needs { band: one of ${BANDS.join(', ')} }`, 'to.band');
      if (BANDS.indexOf(target) <= BANDS.indexOf(now)) return errR('DELAY_NOT_SLOWER', `delay must go to a band slower than ${now}`, 'to.band');
      return okR({ band: target });
    },
    reorder(enc, id, before) {
      // 002: inside a band the PCs choose their order as the round goes, and the GM the enemies'; a manual move changes the band.
      const others = [...enc.roster].filter((x) => x !== id);
      const target = before ?? others.sort((a, b) => BANDS.indexOf(bandOf(enc, a)) - BANDS.indexOf(bandOf(enc, b))).at(-1);
      if (target === undefined) return okR({});
      if (own(enc.combatants, target) === undefined) return errR('NOT_FOUND', `before: no combatant ${JSON.stringify(target)} in the order`, 'before');
      const band = bandOf(enc, target);
      if (band === bandOf(enc, id)) return errR('SAME_BAND', `both are in the ${band} band, where the order is chosen as the round goes (002 "Initiative Bands"): move to another band instead`, 'before');
      return okR({ [id]: { band } });
    },
    readyTriggered(enc, id, before) {
      const c = own(enc.combatants, id);
      if (c?.readied === null || c === undefined) return null;
      // Same round: the band becomes the trigger's. Next round: unchanged (002 "Readying an Action").
      return c.readied.round === enc.round ? { band: bandOf(enc, before) } : null;
    },
  };
}
