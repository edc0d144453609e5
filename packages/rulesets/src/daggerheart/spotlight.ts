// The spotlight at the table (ADR 14): the GM passes it to a PC or an
// adversary, or takes it out of turn by spending Fear. Both are one
// transaction: the current holder's turn ends (with every end-of-turn
// reaction of the encounter kernel) and the new holder's begins, so the
// shared log and undo apply as for any turn order.
import { err, getEncounter, ok, readInt, type CommandHandler, type EngineEvent, type EventAudience, type World } from '@tablekeeper/engine';
import { daggerheartKit } from './encounter.js';
import { daggerheartSettings } from './settings.js';
import { getDaggerheart, readLabel } from './state.js';

function readHolder(world: World, id: unknown) {
  const enc = getEncounter(world);
  if (!enc.active) return err('NO_ENCOUNTER', 'no encounter is running: start one to pass the spotlight');
  const c = typeof id === 'string' ? enc.combatants[id] : undefined;
  if (c === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(id ?? null).slice(0, 40)} in this encounter`, 'combatantId');
  if (!daggerheartKit.canAct(world, c.id)) return err('DH_CANNOT_ACT', `${c.name} cannot take the spotlight now`, 'combatantId');
  return ok(c);
}

/** The current holder's turn ends (if any), then `id`'s begins. */
function handOver(world: World, id: string): EngineEvent[] {
  const enc = getEncounter(world);
  const out: EngineEvent[] = [];
  if (enc.current !== null) out.push({ type: 'encounter.turnEnded', id: enc.current, round: enc.round });
  out.push({ type: 'daggerheart.spotlightPassed', combatantId: id }, { type: 'encounter.turnStarted', id, round: enc.round });
  return out;
}

export const spotlightCommands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.passSpotlight': {
    label: 'pass the spotlight',
    decide(world, c) {
      const holder = readHolder(world, c['combatantId']);
      if (!holder.ok) return holder;
      // With the action tracker on, the sequencer decides who can still pay for the spotlight.
      const next = daggerheartKit.peekNext(world);
      const offered = next.kind === 'decision' ? next.decision.options : next.kind === 'actor' ? [next.id] : [];
      if (!offered.includes(holder.value.id)) return err('DH_NO_TOKEN', `${holder.value.name} has no action token left this round`, 'combatantId');
      return ok(handOver(world, holder.value.id));
    },
  },
  'daggerheart.takeSpotlight': {
    label: 'take the spotlight with Fear',
    decide(world, c) {
      const holder = readHolder(world, c['combatantId']);
      if (!holder.ok) return holder;
      if (holder.value.kind !== 'npc') return err('DH_NOT_AN_ADVERSARY', `the GM takes the spotlight with an adversary, not with ${holder.value.name}`, 'combatantId');
      const reason = readLabel(c, 'reason');
      if (!reason.ok) return reason;
      const amount = readInt(c, 'amount', { min: 0, max: 12, fallback: daggerheartSettings(world).spotlightFearCost });
      if (!amount.ok) return amount;
      const from = getDaggerheart(world).fear;
      if (from < amount.value) return err('DH_NOT_ENOUGH_FEAR', `the GM has ${from} Fear; taking the spotlight costs ${amount.value}`, 'amount');
      const spent: EngineEvent[] = amount.value === 0 ? [] : [{ type: 'daggerheart.fearSpent', amount: amount.value, from, to: from - amount.value, reason: reason.value === '' ? 'to take the spotlight' : reason.value }];
      return ok([...spent, ...handOver(world, holder.value.id)]);
    },
  },
};

export const SPOTLIGHT_AUDIENCE: { readonly [type: string]: EventAudience } = {
  // Who holds the spotlight is as public as the holder (the kernel hides a hidden combatant's turn).
  'daggerheart.spotlightPassed': (w, e) => {
    const c = getEncounter(w).combatants[String(e['combatantId'])];
    return c === undefined || c.visibility !== 'visible' ? { kind: 'gm' } : { kind: 'all' };
  },
};
