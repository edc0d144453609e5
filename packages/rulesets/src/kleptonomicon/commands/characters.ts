// Abilities, the sheet's Edge Save and sneakiness, experience, levels and
// resources (004 "Abilities", "Experience", "Resources").
import { clockAdvanced, err, getEncounter, handlerOf, ok, own, type CommandHandler, type EncounterKit, type EngineEvent, type Json, type World } from '@tablekeeper/engine';
import { abilityUse } from '../phases.js';
import { K, numberSetting } from '../settings.js';
import { getKlepto } from '../state.js';
import { abilitiesOf, blank, characterOfCombatant, controlsCharacter, controlsCombatant, FORBIDDEN, inEncounterPhase, nameOf, RECOVERS } from '../context.js';
import { awardSecondaryXpDeclaration, awardXpDeclaration, levelUpDeclaration, setResourceDeclaration, setSheetDeclaration, useAbilityDeclaration } from '../declarations.js';
import type { KleptoEvent } from '../events.js';

/** The character a command names must exist (the schema has checked it is an id). */
const noCharacter = (world: World, id: string, path = 'characterId') => (own(world.characters, id) === undefined ? err('NOT_FOUND', `no character ${JSON.stringify(id)}`, path) : null);

export function characterCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    'kleptonomicon.useAbility': handlerOf(useAbilityDeclaration, {
      label: 'use an ability',
      authorize: (world, p, actor) => ((p.combatantId !== undefined ? controlsCombatant(world, actor, p.combatantId) : controlsCharacter(world, actor, p.characterId)) ? null : FORBIDDEN),
      decide(world, p) {
        const st = getKlepto(world);
        const combatantId = p.combatantId ?? null;
        const enc = getEncounter(world);
        if (combatantId !== null && own(enc.combatants, combatantId) === undefined) return err('NOT_FOUND', `no combatant "${combatantId}"`, 'combatantId');
        const characterId = combatantId !== null ? characterOfCombatant(world, combatantId) : (p.characterId ?? null);
        if (combatantId === null && (characterId === null || own(world.characters, characterId) === undefined)) return err('NOT_FOUND', 'characterId (or combatantId in an Encounter) is required', 'characterId');
        if (st.phase === 'encounter' && st.encounterPhase === 'main' && combatantId === null) return err('INVALID_VALUE', 'in the Main phase an ability is used by a combatant (combatantId)', 'combatantId');
        const { abilityId, amount } = p;
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
        if (ability.recovery === 'healUp' && characterId !== null) {
          // Heal Up restores the sheet's Health too (004, Freeplay's return), the number damage takes down.
          const stats = own(world.characters, characterId)?.stats ?? {};
          const hp = stats['hp'];
          const max = stats['maxHp'];
          if (typeof hp === 'number' && typeof max === 'number' && hp < max) events.push({ type: 'kleptonomicon.sheetSet', characterId, stats: { hp: amount !== undefined ? Math.min(max, hp + amount) : max } } satisfies KleptoEvent);
        }
        if (ability.recovery !== undefined && characterId !== null) {
          const res = st.resources[characterId] ?? {};
          for (const key of RECOVERS[ability.recovery] ?? []) {
            const r = res[key];
            if (r === undefined) continue;
            const to = amount !== undefined ? Math.min(r.max, r.value + amount) : r.max;
            if (to !== r.value) events.push({ type: 'kleptonomicon.resourceSet', characterId, key, from: r.value, value: to, max: r.max, reason: ability.name } satisfies KleptoEvent);
          }
        }
        return ok(events);
      },
    }),
    // 004 "Turn Order": the Edge Save modifier and Sneaky live on the character's sheet (the GM sets them).
    'kleptonomicon.setSheet': handlerOf(setSheetDeclaration, {
      label: "set a character's Edge Save and Sneaky",
      decide(world, { characterId, edgeSave, sneaky }) {
        const missing = noCharacter(world, characterId);
        if (missing !== null) return missing;
        const stats: { [k: string]: Json } = {};
        if (edgeSave !== undefined) stats['edgeSave'] = edgeSave;
        if (sneaky !== undefined) stats['sneaky'] = sneaky;
        if (Object.keys(stats).length === 0) return err('INVALID_VALUE', 'give edgeSave, sneaky or both', 'edgeSave');
        return ok([{ type: 'kleptonomicon.sheetSet', characterId, stats } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.awardSecondaryXp': handlerOf(awardSecondaryXpDeclaration, {
      label: 'award XP for secondary goals',
      decide(world, { characterIds: ids }) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'reward');
        if (bad !== null) return { ok: false, error: bad };
        const events: EngineEvent[] = [];
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i]!;
          const missing = noCharacter(world, id, `characterIds[${i}]`);
          if (missing !== null) return missing;
          if (st.secondaryAwarded.includes(id)) return err('ALREADY_AWARDED', `${nameOf(world, id)} already has the second point for this Encounter`, `characterIds[${i}]`);
          events.push({ type: 'kleptonomicon.xpAwarded', characterId: id, amount: 1, reason: 'secondary goal' } satisfies KleptoEvent);
        }
        return ok(events);
      },
    }),
    'kleptonomicon.awardXp': handlerOf(awardXpDeclaration, {
      label: 'award experience',
      decide(world, { characterId: ch, amount = 1, reason }) {
        const missing = noCharacter(world, ch);
        if (missing !== null) return missing;
        if (amount === 0) return err('INVALID_VALUE', 'amount must not be 0', 'amount');
        if ((getKlepto(world).xp[ch] ?? 0) + amount < 0) return err('INVALID_VALUE', 'experience cannot go below 0', 'amount');
        const empty = reason === undefined ? null : blank(reason, 'reason');
        if (empty !== null) return { ok: false, error: empty };
        return ok([{ type: 'kleptonomicon.xpAwarded', characterId: ch, amount, reason: reason ?? 'GM award' } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.levelUp': handlerOf(levelUpDeclaration, {
      label: 'level up',
      authorize: (world, p, actor) => (controlsCharacter(world, actor, p.characterId) ? null : FORBIDDEN),
      decide(world, { characterId: ch, gmApproves }) {
        const missing = noCharacter(world, ch);
        if (missing !== null) return missing;
        const st = getKlepto(world);
        const need = numberSetting(world, K.xpPerLevel);
        const have = st.xp[ch] ?? 0;
        if (need === null) {
          // No number in the excerpt: the GM says when it is enough.
          return gmApproves === true ? ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: 0 } satisfies KleptoEvent]) : err('GM_DECIDES', 'the GM decides when a character has enough experience (set kleptonomicon.xpPerLevel to count it)', 'gmApproves');
        }
        if (have < need) return err('NOT_ENOUGH_XP', `${have} of ${need} Experience Points`, 'characterId');
        return ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: need } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.setResource': handlerOf(setResourceDeclaration, {
      label: 'set a resource',
      decide(world, { characterId: ch, key, max: maxSent, value: valueSent }) {
        const missing = noCharacter(world, ch);
        if (missing !== null) return missing;
        const was = own(getKlepto(world).resources[ch] ?? {}, key);
        const max = maxSent ?? was?.max ?? 0;
        const value = valueSent ?? max;
        // The value's upper bound is the maximum it is set beside (or keeps), which the schema cannot see.
        if (value > max) return err('INVALID_VALUE', `value must be an integer in [0, ${max}]`, 'value');
        return ok([{ type: 'kleptonomicon.resourceSet', characterId: ch, key, from: was?.value ?? null, value, max, reason: 'set' } satisfies KleptoEvent]);
      },
    }),
  };
}
