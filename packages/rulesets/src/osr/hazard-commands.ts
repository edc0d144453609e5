// Commands for 001 "Morale", "Chases", "Resilience & Exhaustion",
// "Corruptions", "Retreat" and "Treasure".
import { applySpend, combatantNamed, controlsCombatant, EMPTY_ECONOMY, getEncounter, mintId, spendEvent, updateEncounter, type CommandHandler, type EncounterRules, type EngineEvent, type Env, type Json, type Payment, type World, own } from '@tablekeeper/engine';
import { isAbility, type Ability } from './checks.js';
import { CHASE_ABILITY, chaseDc, resilienceDc, type ChaseGround } from './exploration.js';
import { failDamage, proficiencyFor, readFailDamage, rollCheck } from './combat-commands.js';
import { fail, FORBIDDEN, j, okv, ownCharacter, readAbility, readAdvantageCounts, readBool, readCharacter, readCharacters, readNum, readOpt, readText, type R } from './shared.js';
import { mod } from './sheet.js';
import { getOsr, sheetOf, type Corruption, type CorruptionStage } from './state.js';

export const MORALE_DC = 11;

/** One morale roll: d20 + WIS mod + proficiency (if fitting) + the monster's morale bonus, DC 11 (001 "Morale Checks"). */
export function moraleEvent(world: World, env: Env, id: string, o: { proficient: boolean; advantage: number; disadvantage: number; group: readonly string[]; trigger: string }): EngineEvent {
  const s = sheetOf(world, id);
  const m = mod(s, 'wis') + (o.proficient ? proficiencyFor(world, id) : 0) + s.moraleBonus;
  const r = rollCheck(world, env, id, { modifier: m, dc: MORALE_DC, tags: ['morale'], advantage: o.advantage, disadvantage: o.disadvantage, label: 'morale', kind: 'morale' });
  return { type: 'osr.moraleRolled', character: id, group: [...o.group], trigger: o.trigger, roll: r.event['roll'], reasons: r.event['reasons'] ?? [], held: r.success };
}

function readStages(v: Json | undefined): R<CorruptionStage[]> {
  if (!Array.isArray(v) || v.length === 0 || v.length > 20) return fail('INVALID_VALUE', 'stages must list 1 to 20 stages', 'stages');
  const out: CorruptionStage[] = [];
  for (const [i, s] of v.entries()) {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return fail('INVALID_VALUE', `stages[${i}] must be an object`, 'stages');
    const hours = s['hours'];
    if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1 || hours > 24 * 7 * 8) return fail('INVALID_VALUE', `stages[${i}].hours must be 1 to ${24 * 7 * 8} (eight weeks)`, 'stages');
    const ability = s['ability'] ?? 'con';
    if (ability !== null && !isAbility(ability)) return fail('INVALID_VALUE', `stages[${i}].ability must be an ability or null`, 'stages');
    const dice = s['dice'] ?? 1;
    if (typeof dice !== 'number' || !Number.isInteger(dice) || dice < 0 || dice > 10) return fail('INVALID_VALUE', `stages[${i}].dice must be 0 to 10 d6`, 'stages');
    const note = s['note'] ?? '';
    if (typeof note !== 'string' || note.length > 200) return fail('INVALID_VALUE', `stages[${i}].note must be at most 200 characters`, 'stages');
    out.push({ hours, ability: ability as Ability | null, dice, exhaustion: s['exhaustion'] === true, note });
  }
  return okv(out);
}

export function hazardCommands(rules: EncounterRules): { [type: string]: CommandHandler } {
  return {
    // 001 "Morale": PCs always individually; monsters as a side, a group or one by one (one roll for a side or group).
    'osr.morale': {
      label: 'check morale',
      decide(world, c, env) {
        const who = readCharacters(world, c, 'characterIds', () => []);
        if (!who.ok) return who;
        if (who.value.length === 0) return fail('INVALID_VALUE', 'name who checks morale', 'characterIds');
        const how = readOpt(c, 'as', ['side', 'group', 'individual'] as const, 'individual');
        if (!how.ok) return how;
        const prof = readBool(c, 'proficient', false);
        if (!prof.ok) return prof;
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const trigger = readText(c, 'trigger', 100, 'the GM calls for it');
        if (!trigger.ok) return trigger;
        const st = getOsr(world);
        const living = who.value.filter((id) => !st.dead.includes(id));
        const pcs = living.filter((id) => own(world.characters, id)?.kind === 'pc');
        const npcs = living.filter((id) => own(world.characters, id)?.kind !== 'pc');
        const o = { proficient: prof.value, ...ac.value, trigger: trigger.value };
        const out: EngineEvent[] = pcs.map((id) => moraleEvent(world, env, id, { ...o, group: [id] }));
        // A side or group rolls once, with the first listed as its representative.
        if (how.value === 'individual') out.push(...npcs.map((id) => moraleEvent(world, env, id, { ...o, group: [id] })));
        else if (npcs.length > 0) out.push(moraleEvent(world, env, npcs[0]!, { ...o, group: npcs }));
        return okv(out);
      },
    },

    // 001 "Chases": STR (open), DEX (uneven) or CON (long); DC 11 vs a 30' quarry +-1 per 5'; each PC or the worst for the group.
    'osr.chase': {
      label: 'chase',
      decide(world, c, env) {
        const who = readCharacters(world, c, 'characterIds', () => []);
        if (!who.ok) return who;
        if (who.value.length === 0) return fail('INVALID_VALUE', 'name who runs', 'characterIds');
        const speed = readNum(c, 'speed', 0, 300, 30);
        if (!speed.ok) return speed;
        const ground = readOpt<ChaseGround>(c, 'ground', ['open', 'uneven', 'long'], 'open');
        if (!ground.ok) return ground;
        const ability = readAbility(c, 'ability', CHASE_ABILITY[ground.value]);
        if (!ability.ok) return ability;
        const direction = readOpt(c, 'direction', ['pursue', 'flee'] as const, 'pursue');
        if (!direction.ok) return direction;
        const together = readBool(c, 'together', false);
        if (!together.ok) return together;
        const adjust = readNum(c, 'dcAdjust', -10, 10, 0);
        if (!adjust.ok) return adjust;
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const dmg = readFailDamage(c);
        if (!dmg.ok) return dmg;
        const dc = chaseDc(speed.value, adjust.value);
        const modOf = (id: string): number => mod(sheetOf(world, id), ability.value);
        const rollers = together.value ? [who.value.reduce((worst, id) => (modOf(id) < modOf(worst) ? id : worst))] : who.value;
        const label = direction.value === 'pursue' ? 'chase' : 'flight';
        return okv(
          rollers.flatMap((id) => {
            const r = rollCheck(world, env, id, { modifier: modOf(id), dc, ...ac.value, label, kind: 'chase' });
            const chased: EngineEvent = { type: 'osr.chased', character: id, forGroup: together.value ? who.value : [id], direction: direction.value, ability: ability.value, dc, roll: r.event['roll'], reasons: r.event['reasons'] ?? [], success: r.success };
            // A chase that hurts on failure (a fall, a thicket of thorns): each roller takes it, doubled on a natural 1.
            return r.success || dmg.value === null ? [chased] : [chased, ...failDamage(world, env, id, dmg.value, r.natural, label)];
          }),
        );
      },
    },

    // 001 "Resilience & Exhaustion": past CON hours without food or rest, 1d20 + CON mod vs 10 + hours beyond.
    'osr.resilience': {
      label: 'check resilience',
      authorize: ownCharacter('characterId'),
      decide(world, c, env) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const st = getOsr(world);
        const hours = Math.floor((world.clock.seconds - (st.restedAt[id.value] ?? 0)) / 3600);
        const s = sheetOf(world, id.value);
        const due = resilienceDc(s.con, hours);
        if (due === null) return fail('NOT_DUE', `${own(world.characters, id.value)!.name} has been out ${hours} of ${s.con} hours of resilience`, 'characterId');
        const dmg = readFailDamage(c);
        if (!dmg.ok) return dmg;
        const r = rollCheck(world, env, id.value, { modifier: mod(s, 'con'), dc: due, label: 'resilience', kind: 'resilience' });
        if (r.success) return okv([r.event]);
        // 001 "Resilience & Exhaustion": repeated checks may also cost HP (the GM gives the dice); a natural 1 doubles it.
        const hurt = dmg.value === null ? [] : failDamage(world, env, id.value, dmg.value, r.natural, 'resilience');
        return okv([r.event, ...hurt, { type: 'osr.exhausted', id: id.value, reason: 'failed a resilience check' }]);
      },
    },
    // 001 "Resilience & Exhaustion": the GM may rule that hard going wears resilience down, and tells the player.
    'osr.strain': {
      label: 'wear down resilience',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const hours = readNum(c, 'hours', 1, 48);
        if (!hours.ok) return hours;
        const reason = readText(c, 'reason', 100, 'hard going');
        if (!reason.ok) return reason;
        return okv([{ type: 'osr.strained', id: id.value, hours: hours.value, reason: reason.value }]);
      },
    },
    'osr.exhaust': {
      label: 'exhaust',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const reason = readText(c, 'reason', 100, 'the GM rules so');
        if (!reason.ok) return reason;
        return okv([{ type: 'osr.exhausted', id: id.value, reason: reason.value }]);
      },
    },

    // 001 "Corruptions": a CON check (DC 11 or more) to resist; failed, the stages run on the clock.
    'osr.expose': {
      label: 'expose to a corruption',
      decide(world, c, env) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const name = readText(c, 'name', 60, 'corruption');
        if (!name.ok) return name;
        const dc = readNum(c, 'difficulty', 1, 40, 11);
        if (!dc.ok) return dc;
        const stages = readStages(c['stages']);
        if (!stages.ok) return stages;
        const ability = readAbility(c, 'ability', 'con');
        if (!ability.ok) return ability;
        if (Object.keys(getOsr(world).corruptions).length >= 100) return fail('LIMIT_EXCEEDED', 'at most 100 corruptions at once');
        const r = rollCheck(world, env, id.value, { modifier: mod(sheetOf(world, id.value), ability.value), dc: dc.value, label: `resist ${name.value}`, kind: 'corruption' });
        if (r.success) return okv([r.event]);
        const [cid] = mintId(world, 'corruption', env.rng);
        const first = stages.value[0]!;
        const corruption: Corruption = { id: cid, target: id.value, name: name.value, dc: dc.value, stages: stages.value, stage: 0, stageEndsAt: world.clock.seconds + first.hours * 3600 };
        const out: EngineEvent[] = [r.event, { type: 'osr.infected', corruption: j(corruption) }];
        if (first.exhaustion) out.push({ type: 'osr.exhausted', id: id.value, reason: name.value });
        return okv(out);
      },
    },
    'osr.cure': {
      label: 'cure a corruption',
      decide(world, c) {
        const id = c['id'];
        const k = typeof id === 'string' ? own(getOsr(world).corruptions, id) : undefined;
        if (k === undefined) return fail('NOT_FOUND', `no corruption ${JSON.stringify(id ?? null)}`, 'id');
        return okv([{ type: 'osr.corruptionEnded', id: k.id, target: k.target, reason: 'cured' }]);
      },
    },

    // 001 "Retreat": the whole turn; concentration ends; followers check morale at disadvantage.
    'osr.retreat': {
      label: 'retreat',
      authorize: (world, c, actor) => (controlsCombatant(world, actor, c['characterId']) ? null : FORBIDDEN),
      decide(world, c, env) {
        const enc = getEncounter(world);
        if (!enc.active) return fail('NO_ENCOUNTER', 'retreat happens in a fight');
        if (c['difficulty'] === undefined && c['damageOnFail'] !== undefined) return fail('INVALID_VALUE', 'damageOnFail needs the check\'s difficulty', 'damageOnFail');
        const cid = c['characterId'];
        const comb = typeof cid === 'string' ? combatantNamed(enc, cid) : undefined;
        if (comb === undefined) return fail('NOT_FOUND', `no combatant ${JSON.stringify(cid ?? null)}`, 'characterId');
        if (enc.current !== comb.id) return fail('NOT_YOUR_TURN', 'retreat is taken on your own turn', 'characterId');
        const econ = own(enc.economy, comb.id);
        if (econ !== undefined && Object.values(econ.spent).some((n) => n > 0)) return fail('TURN_STARTED', 'retreat takes the whole turn: it cannot follow another action', 'characterId');
        const out: EngineEvent[] = [];
        let w = world;
        for (const kind of ['active', 'movement', 'quick']) {
          const s = spendEvent(w, rules, comb.id, { kind });
          if (!s.ok) return s;
          out.push(s.value);
          w = applySpent(w, s.value);
        }
        for (const inst of Object.values(enc.conditions)) if (inst.defId === 'concentrating' && inst.target === comb.id) out.push({ type: 'condition.removed', id: inst.id, target: comb.id });
        out.push({ type: 'osr.retreatStarted', combatant: comb.id, character: comb.characterId });
        if (c['difficulty'] !== undefined) {
          const dc = readNum(c, 'difficulty', 1, 40);
          if (!dc.ok) return dc;
          const ability = readAbility(c, 'ability', 'dex');
          if (!ability.ok) return ability;
          const ac = readAdvantageCounts(c);
          if (!ac.ok) return ac;
          const m = comb.characterId === null ? 0 : mod(sheetOf(world, comb.characterId), ability.value);
          const dmg = readFailDamage(c);
          if (!dmg.ok) return dmg;
          const r = rollCheck(world, env, comb.characterId, { modifier: m, dc: dc.value, ...ac.value, label: 'retreat', kind: 'retreat' });
          out.push(r.event);
          // Breaking through can hurt on failure (the GM's dice); a natural 1 doubles it for a PC.
          if (!r.success && dmg.value !== null && comb.characterId !== null) out.push(...failDamage(world, env, comb.characterId, dmg.value, r.natural, 'retreat'));
          if (!r.success) out.push({ type: 'osr.retreatFailed', combatant: comb.id, reason: 'failed the check' });
        }
        if (comb.characterId !== null && own(world.characters, comb.characterId)?.kind === 'pc') {
          const st = getOsr(world);
          const followers = Object.values(world.characters).filter((x) => x.stats['follows'] === comb.characterId && !st.dead.includes(x.id));
          for (const f of followers) out.push(moraleEvent(world, env, f.id, { proficient: false, advantage: 0, disadvantage: 1, group: [f.id], trigger: 'their leader retreats' }));
        }
        return okv(out);
      },
    },
    'osr.escape': {
      label: 'escape',
      decide(world, c) {
        // Retreats are kept by combatant id; a character id names its combatant's retreat.
        const cid = c['characterId'];
        const retreating = getOsr(world).retreating;
        const r = typeof cid === 'string' ? (own(retreating, cid) ?? Object.values(retreating).find((x) => x.character === cid)) : undefined;
        if (r === undefined) return fail('NOT_RETREATING', 'that combatant is not retreating (or the retreat failed)', 'characterId');
        return okv([{ type: 'osr.escaped', combatant: r.combatant, character: r.character }, { type: 'encounter.combatantRemoved', id: r.combatant }]);
      },
    },

    // 001 "Treasure": gold recovered is XP; captured magic items give their fair value once; inherited gold gives none.
    'osr.treasure': {
      label: 'share treasure',
      decide(world, c) {
        const who = readCharacters(world, c, 'characterIds', () => []);
        if (!who.ok) return who;
        if (who.value.length === 0) return fail('INVALID_VALUE', 'name who shares it', 'characterIds');
        const gp = readNum(c, 'gp', 0, 10_000_000);
        if (!gp.ok) return gp;
        const earned = readBool(c, 'earned', true);
        if (!earned.ok) return earned;
        const each = Math.floor(gp.value / who.value.length);
        return okv([{ type: 'osr.treasureShared', characters: who.value, gp: gp.value, each, xpEach: earned.value ? each : 0, earned: earned.value }]);
      },
    },
    'osr.magicItem': {
      label: 'capture a magic item',
      decide(world, c) {
        const who = readCharacters(world, c, 'characterIds', () => []);
        if (!who.ok) return who;
        if (who.value.length === 0) return fail('INVALID_VALUE', 'name who captured it', 'characterIds');
        const item = readText(c, 'item', 100, '');
        if (!item.ok) return item;
        if (item.value === '') return fail('INVALID_VALUE', 'item must name the item', 'item');
        const value = readNum(c, 'value', 0, 10_000_000);
        if (!value.ok) return value;
        const counted = getOsr(world).magicCounted.includes(item.value);
        const each = counted ? 0 : Math.floor(value.value / who.value.length);
        return okv([{ type: 'osr.magicItemCaptured', item: item.value, characters: who.value, value: value.value, xpEach: each, alreadyCounted: counted }]);
      },
    },
    // An enemy's carried loot: 1d20 gp per HD (001 "Treasure").
    'osr.loot': {
      label: 'roll carried loot',
      decide(world, c, env) {
        let hd: number;
        let from: string | null = null;
        if (c['characterId'] !== undefined) {
          const id = readCharacter(world, c, 'characterId');
          if (!id.ok) return id;
          from = id.value;
          hd = Math.max(0, Math.min(40, Math.floor(sheetOf(world, id.value).hd)));
        } else {
          const n = readNum(c, 'hd', 0, 40);
          if (!n.ok) return n;
          hd = n.value;
        }
        const faces = Array.from({ length: hd }, () => env.rng.die(20));
        return okv([{ type: 'osr.lootRolled', character: from, hd, faces, gp: faces.reduce((a, b) => a + b, 0) }]);
      },
    },
    // Dropping load, e.g. after an arduous return (the GM picks the items).
    'osr.setLoad': {
      label: 'set load',
      authorize: ownCharacter('characterId'),
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const load = readNum(c, 'load', 0, 200);
        if (!load.ok) return load;
        return okv([{ type: 'osr.sheetSet', id: id.value, stats: { load: load.value } }]);
      },
    },
  };
}

/** The kernel's own payment logic applied to a copy, so several spends can be planned in one decide. */
function applySpent(world: World, e: EngineEvent): World {
  const id = String(e['combatant']);
  const pay = { paid: e['paid'] as unknown as Payment['paid'], extended: null, completed: null };
  return updateEncounter(world, (enc) => ({ ...enc, economy: { ...enc.economy, [id]: applySpend(own(enc.economy, id) ?? EMPTY_ECONOMY, pay, { cost: Number(e['cost']) }) } }));
}
