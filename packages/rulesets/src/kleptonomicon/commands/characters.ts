// Abilities, the sheet's Edge Save and sneakiness, experience, levels and
// resources (004 "Abilities", "Experience", "Resources").
import { clockAdvanced, err, getEncounter, ok, own, type CommandHandler, type EncounterKit, type EngineEvent, type Json } from '@tablekeeper/engine';
import { abilityUse } from '../phases.js';
import { K, numberSetting } from '../settings.js';
import { EDGE_SAVE_LIMIT } from '../sheet.js';
import { getKlepto } from '../state.js';
import { abilitiesOf, byCharacter, byCombatant, characterOfCombatant, inEncounterPhase, int, nameOf, RECOVERS, text } from '../context.js';
import type { KleptoEvent } from '../events.js';

export function characterCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    'kleptonomicon.useAbility': {
      label: 'use an ability',
      authorize: (world, c, actor) => (typeof c['combatantId'] === 'string' ? byCombatant()(world, c, actor) : byCharacter()(world, c, actor)),
      decide(world, c) {
        const st = getKlepto(world);
        const combatantId = typeof c['combatantId'] === 'string' ? c['combatantId'] : null;
        const enc = getEncounter(world);
        if (combatantId !== null && own(enc.combatants, combatantId) === undefined) return err('NOT_FOUND', `no combatant "${combatantId}"`, 'combatantId');
        const characterId = combatantId !== null ? characterOfCombatant(world, combatantId) : typeof c['characterId'] === 'string' ? c['characterId'] : null;
        if (combatantId === null && (characterId === null || own(world.characters, characterId) === undefined)) return err('NOT_FOUND', 'characterId (or combatantId in an Encounter) is required', 'characterId');
        if (st.phase === 'encounter' && st.encounterPhase === 'main' && combatantId === null) return err('INVALID_VALUE', 'in the Main phase an ability is used by a combatant (combatantId)', 'combatantId');
        const abilityId = c['abilityId'];
        const ability = abilitiesOf(world, characterId, combatantId).find((a) => a.id === abilityId);
        if (ability === undefined) return err('NOT_FOUND', `no ability ${JSON.stringify(abilityId)} on this sheet`, 'abilityId');
        const use = abilityUse(ability, { phase: st.phase, encounterPhase: st.encounterPhase, ownTurn: combatantId !== null && enc.current === combatantId });
        if (!use.ok) return { ok: false, error: use.error };
        const announced = st.phase === 'encounter';
        const events: EngineEvent[] = [{ type: 'kleptonomicon.abilityUsed', combatant: combatantId, characterId, abilityId: ability.id, name: ability.name, time: ability.time, cost: use.cost, announced } satisfies KleptoEvent];
        if (use.cost === 'beat') {
          const spend = kit.spend(world, combatantId!, { kind: ability.time === 'beatReaction' ? 'reaction' : 'ability', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${nameOf(world, combatantId!)} has no Beat left this round`, 'combatantId');
          events.push(spend.value);
        }
        if (use.cost === 'clock') events.push(clockAdvanced(world, 'time', 1, Math.max(60, Math.min(ability.seconds ?? 60, 366 * 24 * 3600))));
        if (ability.recovery !== undefined && characterId !== null) {
          const amount = c['amount'];
          if (amount !== undefined && (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 10_000)) return err('INVALID_VALUE', 'amount must be a positive integer (omit it to restore fully)', 'amount');
          const res = st.resources[characterId] ?? {};
          for (const key of RECOVERS[ability.recovery] ?? []) {
            const r = res[key];
            if (r === undefined) continue;
            const to = typeof amount === 'number' ? Math.min(r.max, r.value + amount) : r.max;
            if (to !== r.value) events.push({ type: 'kleptonomicon.resourceSet', characterId, key, from: r.value, value: to, max: r.max, reason: ability.name } satisfies KleptoEvent);
          }
        }
        return ok(events);
      },
    },
    // 004 "Turn Order": the Edge Save modifier and Sneaky live on the character's sheet (the GM sets them).
    'kleptonomicon.setSheet': {
      label: "set a character's Edge Save and Sneaky",
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch ?? null)}`, 'characterId');
        const stats: { [k: string]: Json } = {};
        if (c['edgeSave'] !== undefined) {
          const e = int(c, 'edgeSave', 0, -EDGE_SAVE_LIMIT, EDGE_SAVE_LIMIT);
          if (!e.ok) return e;
          stats['edgeSave'] = e.value;
        }
        if (c['sneaky'] !== undefined) {
          if (typeof c['sneaky'] !== 'boolean') return err('INVALID_VALUE', 'sneaky must be true or false', 'sneaky');
          stats['sneaky'] = c['sneaky'];
        }
        if (Object.keys(stats).length === 0) return err('INVALID_VALUE', 'give edgeSave, sneaky or both', 'edgeSave');
        return ok([{ type: 'kleptonomicon.sheetSet', characterId: ch, stats } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.awardSecondaryXp': {
      label: 'award XP for secondary goals',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'reward');
        if (bad !== null) return { ok: false, error: bad };
        const ids = c['characterIds'];
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 50) return err('INVALID_VALUE', 'characterIds must be a list of 1-50 characters', 'characterIds');
        const events: EngineEvent[] = [];
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i];
          if (typeof id !== 'string' || own(world.characters, id) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(id)}`, `characterIds[${i}]`);
          if (st.secondaryAwarded.includes(id)) return err('ALREADY_AWARDED', `${nameOf(world, id)} already has the second point for this Encounter`, `characterIds[${i}]`);
          events.push({ type: 'kleptonomicon.xpAwarded', characterId: id, amount: 1, reason: 'secondary goal' } satisfies KleptoEvent);
        }
        return ok(events);
      },
    },
    'kleptonomicon.awardXp': {
      label: 'award experience',
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const n = int(c, 'amount', 1, -100, 100);
        if (!n.ok) return n;
        if (n.value === 0) return err('INVALID_VALUE', 'amount must not be 0', 'amount');
        if ((getKlepto(world).xp[ch] ?? 0) + n.value < 0) return err('INVALID_VALUE', 'experience cannot go below 0', 'amount');
        const reason = text(c, 'reason', false);
        if (!reason.ok) return reason;
        return ok([{ type: 'kleptonomicon.xpAwarded', characterId: ch, amount: n.value, reason: reason.value ?? 'GM award' } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.levelUp': {
      label: 'level up',
      authorize: byCharacter(),
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const st = getKlepto(world);
        const need = numberSetting(world, K.xpPerLevel);
        const have = st.xp[ch] ?? 0;
        if (need === null) {
          // No number in the excerpt: the GM says when it is enough.
          return c['gmApproves'] === true && own(world.characters, ch) !== undefined ? ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: 0 } satisfies KleptoEvent]) : err('GM_DECIDES', 'the GM decides when a character has enough experience (set kleptonomicon.xpPerLevel to count it)', 'gmApproves');
        }
        if (have < need) return err('NOT_ENOUGH_XP', `${have} of ${need} Experience Points`, 'characterId');
        return ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: need } satisfies KleptoEvent]);
      },
    },
    'kleptonomicon.setResource': {
      label: 'set a resource',
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const key = c['key'];
        if (typeof key !== 'string' || !/^[a-zA-Z][a-zA-Z0-9]{0,31}$/.test(key)) return err('INVALID_VALUE', 'key must be a short name such as health, vitality, shield or dodges', 'key');
        const max = int(c, 'max', getKlepto(world).resources[ch]?.[key]?.max ?? 0, 0, 100_000);
        if (!max.ok) return max;
        const value = int(c, 'value', max.value, 0, max.value);
        if (!value.ok) return value;
        return ok([{ type: 'kleptonomicon.resourceSet', characterId: ch, key, from: getKlepto(world).resources[ch]?.[key]?.value ?? null, value: value.value, max: max.value, reason: 'set' } satisfies KleptoEvent]);
      },
    },
  };
}
