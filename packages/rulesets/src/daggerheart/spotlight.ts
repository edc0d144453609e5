// The spotlight at the table (ADR 14): the GM passes it to a PC or an
// adversary, or takes it out of turn by spending Fear. Both are one
// transaction: the current holder's turn ends (with every end-of-turn
// reaction of the encounter kernel) and the new holder's begins, so the
// shared log and undo apply as for any turn order.
import { appendLog, err, getEncounter, handlerOf, ok, own, reducersOf, sameAudience, type Audience, type CommandHandler, type EngineEvent, type EventAudience, type EventOf, type Evolve, type Reducer, type World } from '@tablekeeper/engine';
import { daggerheartKit } from './encounter.js';
import { daggerheartSettings } from './settings.js';
import { passSpotlight, takeSpotlight } from './declarations.js';
import type { RollEvent, SpotlightEvent } from './events.js';
import { getDaggerheart } from './state.js';

function readHolder(world: World, id: string) {
  const enc = getEncounter(world);
  if (!enc.active) return err('NO_ENCOUNTER', 'no encounter is running: start one to pass the spotlight');
  const c = own(enc.combatants, id);
  if (c === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(id).slice(0, 40)} in this encounter`, 'combatantId');
  if (!daggerheartKit.canAct(world, c.id)) return err('DH_CANNOT_ACT', `${c.name} cannot take the spotlight now`, 'combatantId');
  return ok(c);
}

/** The current holder's turn ends (if any), then `id`'s begins. */
function handOver(world: World, id: string): EngineEvent[] {
  const enc = getEncounter(world);
  const out: EngineEvent[] = [];
  if (enc.current !== null) out.push({ type: 'encounter.turnEnded', id: enc.current, round: enc.round });
  out.push({ type: 'daggerheart.spotlightPassed', combatantId: id } satisfies SpotlightEvent, { type: 'encounter.turnStarted', id, round: enc.round });
  return out;
}

export const spotlightCommands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.passSpotlight': handlerOf(passSpotlight, {
    label: 'pass the spotlight',
    decide(world, p) {
      const holder = readHolder(world, p.combatantId);
      if (!holder.ok) return holder;
      // With the action tracker on, the sequencer decides who can still pay for the spotlight.
      const next = daggerheartKit.peekNext(world);
      const offered = next.kind === 'decision' ? next.decision.options : next.kind === 'actor' ? [next.id] : [];
      if (!offered.includes(holder.value.id)) return err('DH_NO_TOKEN', `${holder.value.name} has no action token left this round`, 'combatantId');
      return ok(handOver(world, holder.value.id));
    },
  }),
  'daggerheart.takeSpotlight': handlerOf(takeSpotlight, {
    label: 'take the spotlight with Fear',
    decide(world, p) {
      const holder = readHolder(world, p.combatantId);
      if (!holder.ok) return holder;
      if (holder.value.kind !== 'npc') return err('DH_NOT_AN_ADVERSARY', `the GM takes the spotlight with an adversary, not with ${holder.value.name}`, 'combatantId');
      const reason = (p.reason ?? '').trim();
      const amount = p.amount ?? daggerheartSettings(world).spotlightFearCost;
      const from = getDaggerheart(world).fear;
      if (from < amount) return err('DH_NOT_ENOUGH_FEAR', `the GM has ${from} Fear; taking the spotlight costs ${amount}`, 'amount');
      const spent: EngineEvent[] = amount === 0 ? [] : [{ type: 'daggerheart.fearSpent', amount, from, to: from - amount, reason: reason === '' ? 'to take the spotlight' : reason } satisfies RollEvent];
      return ok([...spent, ...handOver(world, holder.value.id)]);
    },
  }),
};

/** Who holds the spotlight is as public as the holder (the kernel hides a hidden combatant's turn). */
const holderAudience = (w: World, e: SpotlightEvent): Audience => {
  const c = own(getEncounter(w).combatants, e.combatantId);
  return c === undefined || c.visibility !== 'visible' ? { kind: 'gm' } : { kind: 'all' };
};

export const SPOTLIGHT_AUDIENCE: { readonly [type: string]: EventAudience } = sameAudience<SpotlightEvent>(['daggerheart.spotlightPassed', 'daggerheart.spotlightToGm'], holderAudience);

const spotlightEvolve: Evolve<EventOf<SpotlightEvent, 'daggerheart.spotlightToGm'>> = {
  'daggerheart.spotlightToGm': (w, e) => {
    const c = own(getEncounter(w).combatants, e.combatantId);
    if (c === undefined) return w;
    const audience = c.visibility === 'visible' ? ({ kind: 'all' } as const) : ({ kind: 'gm' } as const);
    return appendLog(w, { audience, kind: 'daggerheart.spotlight', text: `${c.name} rolled with Fear: the spotlight swings to the GM.` });
  },
};
export const spotlightReducers: Record<string, Reducer> = reducersOf(spotlightEvolve);
