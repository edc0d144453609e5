// Follow-up events: experience after an Encounter, and Slowed twice over
// interrupting movement.
import { reactionOf, type ConditionEvent, type EventOf } from '@tablekeeper/engine';
import { getEncounter, own, type Reaction } from '@tablekeeper/engine';
import { interruption } from './context.js';
import type { KleptoEvent } from './events.js';

export const kleptoReactions: Reaction[] = [
  // One point of experience per Encounter for each PC who took part.
  (world, e) => {
    if (e.type !== 'encounter.ended') return [];
    const enc = getEncounter(world);
    const pcs = [...new Set(enc.roster.map((id) => own(enc.combatants, id)).filter((c) => c?.kind === 'pc' && c.characterId !== null && own(world.characters, c.characterId) !== undefined).map((c) => c!.characterId!))];
    return pcs.map((characterId) => ({ type: 'kleptonomicon.xpAwarded', characterId, amount: 1, reason: 'encounter' } satisfies KleptoEvent));
  },
  // Two stacks of Slowed interrupt the active movement style.
  reactionOf<EventOf<ConditionEvent, 'condition.applied' | 'condition.stacked'>>(['condition.applied', 'condition.stacked'], (world, e) => {
    const target = e.target;
    if (typeof target !== 'string') return [];
    const inst = Object.values(getEncounter(world).conditions).find((c) => c.target === target && c.defId === 'slowed');
    if (inst === undefined || inst.stacks < 2) return [];
    const before = e.type === 'condition.stacked' ? e.from : 0;
    if (before >= 2) return [];
    return [interruption(world, target, 'two stacks of Slowed', false)];
  }),
];
