// Commands for 001 "Morale", "Chases", "Resilience & Exhaustion",
// "Corruptions", "Retreat" and "Treasure".
import { applySpend, combatantNamed, controlsCombatant, EMPTY_ECONOMY, getEncounter, handlerOf, memberOf, mintId, spendEvent, stored, updateEncounter, type CommandHandler, type EncounterEvent, type EncounterRules, type EngineEvent, type Env, type World, own } from '@tablekeeper/engine';
import { osrCommands } from './declarations.js';
import { infectionOf, type OsrEvent } from './events.js';
import { CHASE_ABILITY, chaseDc, chaseRoller, convertCoins, CP_PER, resilienceDc } from './exploration.js';
import { failDamage, proficiencyFor, readFailDamage, rollCheck } from './combat-commands.js';
import { advantageCounts, fail, FORBIDDEN, mayActFor, needCharacter, needCharacters, okv } from './shared.js';
import { mod } from './sheet.js';
import { getOsr, sheetOf, type Corruption, type CorruptionStage } from './state.js';

export const MORALE_DC = 11;

/** One morale roll: d20 + WIS mod + proficiency (if fitting) + the monster's morale bonus, DC 11 (001 "Morale Checks"). */
export function moraleEvent(world: World, env: Env, id: string, o: { proficient: boolean; advantage: number; disadvantage: number; group: readonly string[]; trigger: string; side?: string; why?: string }): EngineEvent {
  const s = sheetOf(world, id);
  const m = mod(s, 'wis') + (o.proficient ? proficiencyFor(world, id) : 0) + s.moraleBonus;
  const r = rollCheck(world, env, id, { modifier: m, dc: MORALE_DC, tags: ['morale'], advantage: o.advantage, disadvantage: o.disadvantage, label: 'morale', kind: 'morale' });
  return stored({ type: 'osr.moraleRolled', characterId: id, group: [...o.group], trigger: o.trigger, roll: r.checked.roll, reasons: r.checked.reasons, held: r.success, ...(o.side === undefined ? {} : { side: o.side }), ...(o.why === undefined || o.why.trim() === '' ? {} : { why: o.why.trim() }) } satisfies OsrEvent);
}

/** The fight side a character is on (its combatant's), for a morale check rolled as a side; undefined outside a fight. */
function sideOf(world: World, id: string): string | undefined {
  const enc = getEncounter(world);
  if (!enc.active) return undefined;
  return Object.values(enc.combatants).find((c) => c.characterId === id)?.side;
}

const d = osrCommands;

export function hazardCommands(rules: EncounterRules): { [type: string]: CommandHandler } {
  return {
    // 001 "Morale": PCs always individually; monsters as a side, a group or one by one (one roll for a side or group).
    'osr.morale': handlerOf(d.morale, {
      label: 'check morale',
      decide(world, p, env) {
        const who = needCharacters(world, p.characterIds, 'characterIds', () => []);
        if (!who.ok) return who;
        const how = p.as ?? 'individual';
        const st = getOsr(world);
        const living = who.value.filter((id) => !st.dead.includes(id));
        const pcs = living.filter((id) => own(world.characters, id)?.kind === 'pc');
        const npcs = living.filter((id) => own(world.characters, id)?.kind !== 'pc');
        const o = { proficient: p.proficient ?? false, ...advantageCounts(p.advantage), trigger: p.trigger ?? 'the GM calls for it', ...(p.advantageWhy !== undefined && (p.advantage ?? 0) !== 0 ? { why: p.advantageWhy } : {}) };
        const out: EngineEvent[] = pcs.map((id) => moraleEvent(world, env, id, { ...o, group: [id] }));
        // A side or group rolls once, with the first listed as its representative.
        if (how === 'individual') out.push(...npcs.map((id) => moraleEvent(world, env, id, { ...o, group: [id] })));
        else if (npcs.length > 0) {
          const side = how === 'side' ? sideOf(world, npcs[0]!) : undefined;
          out.push(moraleEvent(world, env, npcs[0]!, { ...o, group: npcs, ...(side === undefined ? {} : { side }) }));
        }
        return okv(out);
      },
    }),

    // 001 "Chases": STR (open), DEX (uneven) or CON (long); DC 11 vs a 30' quarry +-1 per 5'; each PC or the worst for the group.
    'osr.chase': handlerOf(d.chase, {
      label: 'chase',
      decide(world, p, env) {
        const who = needCharacters(world, p.characterIds, 'characterIds', () => []);
        if (!who.ok) return who;
        const ground = p.ground ?? 'open';
        const ability = p.ability ?? CHASE_ABILITY[ground];
        const direction = p.direction ?? 'pursue';
        const together = p.together ?? false;
        const dmg = readFailDamage(p.damageOnFail);
        if (!dmg.ok) return dmg;
        const dc = chaseDc(p.speed ?? 30, p.dcAdjust ?? 0);
        const modOf = (id: string): number => mod(sheetOf(world, id), ability);
        const rollers = together ? [chaseRoller(who.value, modOf)] : who.value;
        const label = direction === 'pursue' ? 'chase' : 'flight';
        return okv(
          rollers.flatMap((id) => {
            const r = rollCheck(world, env, id, { modifier: modOf(id), dc, ...advantageCounts(p.advantage), label, kind: 'chase' });
            const chased = { type: 'osr.chased', characterId: id, forGroup: together ? who.value : [id], direction, ability, dc, roll: r.checked.roll, reasons: r.checked.reasons, success: r.success } satisfies OsrEvent;
            // A chase that hurts on failure (a fall, a thicket of thorns): each who failed takes it, doubled on a natural 1.
            // A group's one roll fails for every member of it, so each of them takes it (ADR 90).
            const hurt = dmg.value;
            return r.success || hurt === null ? [stored(chased)] : [stored(chased), ...chased.forGroup.flatMap((x) => failDamage(world, env, x, hurt, r.natural, label))];
          }),
        );
      },
    }),

    // 001 "Resilience & Exhaustion": past CON hours without food or rest, 1d20 + CON mod vs 10 + hours beyond.
    'osr.resilience': handlerOf(d.resilience, {
      label: 'check resilience',
      authorize: (world, p, actor) => mayActFor(world, actor, p.characterId),
      decide(world, p, env) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        const st = getOsr(world);
        const hours = Math.floor((world.clock.seconds - (st.restedAt[id.value] ?? 0)) / 3600);
        const s = sheetOf(world, id.value);
        const due = resilienceDc(s.con, hours);
        if (due === null) return fail('NOT_DUE', `${own(world.characters, id.value)!.name} has been out ${hours} of ${s.con} hours of resilience`, 'characterId');
        const dmg = readFailDamage(p.damageOnFail);
        if (!dmg.ok) return dmg;
        const r = rollCheck(world, env, id.value, { modifier: mod(s, 'con'), dc: due, label: 'resilience', kind: 'resilience' });
        if (r.success) return okv([r.event]);
        // 001 "Resilience & Exhaustion": repeated checks may also cost HP (the GM gives the dice); a natural 1 doubles it.
        const hurt = dmg.value === null ? [] : failDamage(world, env, id.value, dmg.value, r.natural, 'resilience');
        return okv([r.event, ...hurt, { type: 'osr.exhausted', characterId: id.value, reason: 'failed a resilience check' } satisfies OsrEvent]);
      },
    }),
    // 001 "Resilience & Exhaustion": the GM may rule that hard going wears resilience down, and tells the player.
    'osr.strain': handlerOf(d.strain, {
      label: 'wear down resilience',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        return okv([{ type: 'osr.strained', characterId: id.value, hours: p.hours, reason: p.reason ?? 'hard going' } satisfies OsrEvent]);
      },
    }),
    'osr.exhaust': handlerOf(d.exhaust, {
      label: 'exhaust',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        return okv([{ type: 'osr.exhausted', characterId: id.value, reason: p.reason ?? 'the GM rules so' } satisfies OsrEvent]);
      },
    }),

    // 001 "Corruptions": a CON check (DC 11 or more) to resist; failed, the stages run on the clock.
    'osr.expose': handlerOf(d.expose, {
      label: 'expose to a corruption',
      decide(world, p, env) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        const name = p.name ?? 'corruption';
        const dc = p.difficulty ?? 11;
        // A stage damages CON by 1d6 unless it says otherwise (null: no ability damage).
        const stages: CorruptionStage[] = p.stages.map((g) => ({ hours: g.hours, ability: g.ability === undefined ? 'con' : g.ability, dice: g.dice ?? 1, exhaustion: g.exhaustion === true, note: g.note ?? '' }));
        if (Object.keys(getOsr(world).corruptions).length >= 100) return fail('LIMIT_EXCEEDED', 'at most 100 corruptions at once');
        const r = rollCheck(world, env, id.value, { modifier: mod(sheetOf(world, id.value), p.ability ?? 'con'), dc, label: `resist ${name}`, kind: 'corruption' });
        if (r.success) return okv([r.event]);
        const [cid] = mintId(world, 'corruption', env.rng);
        const first = stages[0]!;
        const corruption: Corruption = { id: cid, target: id.value, name, dc, stages, stage: 0, stageEndsAt: world.clock.seconds + first.hours * 3600 };
        const out: EngineEvent[] = [r.event, stored({ type: 'osr.infected', corruption: infectionOf(corruption) } satisfies OsrEvent)];
        if (first.exhaustion) out.push({ type: 'osr.exhausted', characterId: id.value, reason: name } satisfies OsrEvent);
        return okv(out);
      },
    }),
    'osr.cure': handlerOf(d.cure, {
      label: 'cure a corruption',
      decide(world, p) {
        const k = own(getOsr(world).corruptions, p.corruptionId);
        if (k === undefined) return fail('NOT_FOUND', `no corruption ${JSON.stringify(p.corruptionId)}`, 'corruptionId');
        return okv([{ type: 'osr.corruptionEnded', corruptionId: k.id, characterId: k.target, reason: 'cured' } satisfies OsrEvent]);
      },
    }),

    // 001 "Retreat": the whole turn; concentration ends; followers check morale at disadvantage.
    'osr.retreat': handlerOf(d.retreat, {
      label: 'retreat',
      authorize: (world, p, actor) => (controlsCombatant(world, actor, p.characterId) ? null : FORBIDDEN),
      decide(world, p, env) {
        const enc = getEncounter(world);
        if (!enc.active) return fail('NO_ENCOUNTER', 'retreat happens in a fight');
        if (p.difficulty === undefined && p.damageOnFail !== undefined) return fail('INVALID_VALUE', 'damageOnFail needs the check\'s difficulty', 'damageOnFail');
        const comb = combatantNamed(enc, p.characterId);
        if (comb === undefined) return fail('NOT_FOUND', `no combatant ${JSON.stringify(p.characterId)}`, 'characterId');
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
        out.push({ type: 'osr.retreatStarted', combatantId: comb.id, characterId: comb.characterId } satisfies OsrEvent);
        if (p.difficulty !== undefined) {
          const m = comb.characterId === null ? 0 : mod(sheetOf(world, comb.characterId), p.ability ?? 'dex');
          const dmg = readFailDamage(p.damageOnFail);
          if (!dmg.ok) return dmg;
          const r = rollCheck(world, env, comb.characterId, { modifier: m, dc: p.difficulty, ...advantageCounts(p.advantage), label: 'retreat', kind: 'retreat' });
          out.push(r.event);
          // Breaking through can hurt on failure (the GM's dice); a natural 1 doubles it for a PC.
          if (!r.success && dmg.value !== null && comb.characterId !== null) out.push(...failDamage(world, env, comb.characterId, dmg.value, r.natural, 'retreat'));
          if (!r.success) out.push({ type: 'osr.retreatFailed', combatantId: comb.id, reason: 'failed the check' } satisfies OsrEvent);
        }
        if (comb.characterId !== null && own(world.characters, comb.characterId)?.kind === 'pc') {
          const st = getOsr(world);
          const followers = Object.values(world.characters).filter((x) => x.stats['follows'] === comb.characterId && !st.dead.includes(x.id));
          for (const f of followers) out.push(moraleEvent(world, env, f.id, { proficient: false, advantage: 0, disadvantage: 1, group: [f.id], trigger: 'their leader retreats' }));
        }
        return okv(out);
      },
    }),
    'osr.escape': handlerOf(d.escape, {
      label: 'escape',
      decide(world, p) {
        // Retreats are kept by combatant id; a character id names its combatant's retreat.
        const retreating = getOsr(world).retreating;
        const r = own(retreating, p.characterId) ?? Object.values(retreating).find((x) => x.character === p.characterId);
        if (r === undefined) return fail('NOT_RETREATING', 'that combatant is not retreating (or the retreat failed)', 'characterId');
        return okv([{ type: 'osr.escaped', combatantId: r.combatant, characterId: r.character } satisfies OsrEvent, { type: 'encounter.combatantRemoved', id: r.combatant }]);
      },
    }),

    // 001 "Treasure": gold recovered is XP; captured magic items give their fair value once; inherited gold gives none.
    'osr.treasure': handlerOf(d.treasure, {
      label: 'share treasure',
      decide(world, p) {
        const who = needCharacters(world, p.characterIds, 'characterIds', () => []);
        if (!who.ok) return who;
        const earned = p.earned ?? true;
        const each = Math.floor(p.gp / who.value.length);
        return okv([{ type: 'osr.treasureShared', characterIds: who.value, gp: p.gp, each, xpEach: earned ? each : 0, earned, ...(p.intoPurses === true ? { pursed: true } : {}) } satisfies OsrEvent]);
      },
    }),
    // 001 "Treasure": 10 cp = 1 sp, 10 sp = 1 gp; only whole coins change hands.
    'osr.convertCoins': handlerOf(d.convertCoins, {
      label: 'change coins',
      authorize: (world, p, actor) => mayActFor(world, actor, p.characterId),
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        const name = own(world.characters, id.value)!.name;
        if (p.from === p.to) return fail('INVALID_VALUE', 'pick two different coins to change between', 'to');
        const held = sheetOf(world, id.value)[p.from];
        if (p.amount > held) return fail('NOT_ENOUGH', `${name}'s purse holds ${held} ${p.from}, not ${p.amount}`, 'amount');
        const into = convertCoins(p.amount, p.from, p.to);
        if (!Number.isInteger(into)) return fail('INVALID_VALUE', `${p.amount} ${p.from} is not a whole number of ${p.to} (${CP_PER[p.to] / CP_PER[p.from]} ${p.from} make 1 ${p.to})`, 'amount');
        return okv([{ type: 'osr.coinsConverted', characterId: id.value, amount: p.amount, from: p.from, to: p.to, into } satisfies OsrEvent]);
      },
    }),
    'osr.magicItem': handlerOf(d.magicItem, {
      label: 'capture a magic item',
      decide(world, p) {
        const who = needCharacters(world, p.characterIds, 'characterIds', () => []);
        if (!who.ok) return who;
        const counted = getOsr(world).magicCounted.includes(p.item);
        const each = counted ? 0 : Math.floor(p.value / who.value.length);
        return okv([{ type: 'osr.magicItemCaptured', item: p.item, characterIds: who.value, value: p.value, xpEach: each, alreadyCounted: counted } satisfies OsrEvent]);
      },
    }),
    // An enemy's carried loot: 1d20 gp per HD (001 "Treasure").
    'osr.loot': handlerOf(d.loot, {
      label: 'roll carried loot',
      decide(world, p, env) {
        let hd: number;
        let from: string | null = null;
        if (p.characterId !== undefined) {
          const id = needCharacter(world, p.characterId, 'characterId');
          if (!id.ok) return id;
          from = id.value;
          hd = Math.max(0, Math.min(40, Math.floor(sheetOf(world, id.value).hd)));
        } else {
          if (p.hd === undefined) return fail('INVALID_VALUE', 'give the enemy (characterId) or its hit dice (hd, 0 to 40)', 'hd');
          hd = p.hd;
        }
        const faces = Array.from({ length: hd }, () => env.rng.die(20));
        return okv([{ type: 'osr.lootRolled', characterId: from, hd, faces, gp: faces.reduce((a, b) => a + b, 0) } satisfies OsrEvent]);
      },
    }),
    // Dropping load, e.g. after an arduous return (the GM picks the items).
    'osr.setLoad': handlerOf(d.setLoad, {
      label: 'set load',
      authorize: (world, p, actor) => mayActFor(world, actor, p.characterId),
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        return okv([{ type: 'osr.sheetSet', characterId: id.value, stats: { load: p.load } } satisfies OsrEvent]);
      },
    }),
  };
}

/** The kernel's own payment logic applied to a copy, so several spends can be planned in one decide. */
function applySpent(world: World, event: EngineEvent): World {
  const spent = memberOf<EncounterEvent, 'economy.spent'>(event, 'economy.spent');
  if (spent === undefined) return world;
  const id = spent.combatant;
  const pay = { paid: spent.paid, extended: null, completed: null };
  return updateEncounter(world, (enc) => ({ ...enc, economy: { ...enc.economy, [id]: applySpend(own(enc.economy, id) ?? EMPTY_ECONOMY, pay, { cost: spent.cost }) } }));
}
