// Commands for 001 "Checks, Actions, & Combat" and "Attacks, Damage, & Injury":
// checks (and traps), attacks with crits, damage, healing, stabilizing with
// the injury table, rest, stealth.
import { clockAdvanced, combatantNamed, controlsCombatant, getEncounter, handlerOf, isFoeCharacter, spendEvent, stored, type CommandHandler, type EncounterRules, type EngineEvent, type Env, type EventOf, type Json, type World, own } from '@tablekeeper/engine';
import { resolveCheck, type Ability } from './checks.js';
import { ATTACK_ABILITY, damageTotal, injuryExtraDie, resolveInjury, restHealing } from './combat.js';
import { osrCommands } from './declarations.js';
import type { OsrEvent } from './events.js';
import type { CheckTag } from './exploration.js';
import { readDice, rollCheckDice, rollDice, specText, type DiceSpec } from './rolls.js';
import { osrSettings } from './settings.js';
import { conditionEffect, conditionsOn } from './conditions.js';
import { FORBIDDEN, advantageCounts, attackReach, checkAdvantage, isExhausted, isHidden, fail, hpEvents, isDead, mayActFor, needCharacter, needCharacters, noAcYet, okv, type R } from './shared.js';
import { carriedLoad, encumbrance, mod, proficiencyOf, readSheet, validateSheet } from './sheet.js';
import { getOsr, sheetOf } from './state.js';

/** The proficiency bonus the table's settings give this sheet. */
export function proficiencyFor(world: World, id: string): number {
  const s = sheetOf(world, id);
  if (s.proficiency !== null) return s.proficiency;
  return osrSettings(world).proficiencyByLevel ? proficiencyOf(s) : 0;
}

export interface RolledCheck {
  /** The check as the OSR reads it (a morale or chase event carries its roll and reasons). */
  readonly checked: EventOf<OsrEvent, 'osr.checked'>;
  /** The same check as the engine stores it. */
  readonly event: EngineEvent;
  readonly success: boolean;
  readonly natural: number;
  readonly shortfall: number;
}

/** Roll one check for a character: d20 + modifier vs DC with every automatic advantage source. */
export function rollCheck(
  world: World,
  env: Env,
  id: string | null,
  o: { modifier: number; dc: number; tags?: readonly CheckTag[]; advantage?: number; disadvantage?: number; label: string; kind?: string },
): RolledCheck {
  const adv = checkAdvantage(world, id, { ...(o.advantage !== undefined ? { advantage: o.advantage } : {}), ...(o.disadvantage !== undefined ? { disadvantage: o.disadvantage } : {}), tags: o.tags ?? [] });
  const a = adv.advantage;
  const dice = rollCheckDice(env.rng, a);
  const r = resolveCheck(dice, a, o.modifier, o.dc);
  const success = r.success && !adv.impossible;
  const checked = { type: 'osr.checked', characterId: id, label: o.label, kind: o.kind ?? 'check', roll: { ...r, success }, reasons: adv.reasons, impossible: adv.impossible } satisfies OsrEvent;
  return { success, natural: r.natural, shortfall: success ? 0 : Math.max(1, r.shortfall), checked, event: stored(checked) };
}

/** A check's modifier: the flat bonus, proficiency and the ability's modifier from the sheet. */
function modifierFor(world: World, p: { readonly bonus?: number | undefined; readonly proficient?: boolean | undefined; readonly ability?: Ability | undefined }, id: string): number {
  return (p.bonus ?? 0) + (p.proficient === true ? proficiencyFor(world, id) : 0) + (p.ability === undefined ? 0 : mod(sheetOf(world, id), p.ability));
}

/** 001 "Critical Failure": a natural 1 on a check whose failure damages a PC doubles what the PC suffers. */
export function naturalOneDoubles(world: World, id: string | null, natural: number): boolean {
  return natural === 1 && id !== null && own(world.characters, id)?.kind === 'pc';
}

/** Damage from a failed check (a trap, a hazard, a chase, a retreat): a natural 1 doubles it for a PC. */
export function failDamage(world: World, env: Env, id: string, spec: DiceSpec, natural: number, label: string): EngineEvent[] {
  const faces = rollDice(env.rng, spec);
  const doubled = naturalOneDoubles(world, id, natural);
  const total = damageTotal(faces, spec.bonus, doubled, osrSettings(world).critDoubles);
  const hp = readSheet(own(world.characters, id)?.stats).hp;
  return [
    { type: 'osr.damageRolled', targetId: id, dice: specText(spec), faces, bonus: spec.bonus, doubled, ...(doubled ? { doubledBy: 'natural 1' as const } : {}), total, source: label } satisfies OsrEvent,
    ...hpEvents(world, id, hp - total, label),
  ];
}

/** The optional `damageOnFail` dice of a check command (at most 100 dice of 1,000 sides). */
export function readFailDamage(damageOnFail: Json | undefined): R<DiceSpec | null> {
  if (damageOnFail === undefined) return okv(null);
  const d = readDice(damageOnFail, 'damageOnFail');
  return d.ok ? okv(d.value) : d;
}

const d = osrCommands;

/** A hide check's defaults (osr.hide): DEX against DC 11, rolled with stealth's tag so the light favours or hinders it (001 "Light"). */
export const HIDE_DC = 11;
export const HIDE_TAGS: readonly CheckTag[] = ['stealth'];

export function combatCommands(rules: EncounterRules): { [type: string]: CommandHandler } {
  return {
    'osr.setSheet': handlerOf(d.setSheet, {
      label: 'set a character sheet',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        const stats = p.sheet as { [k: string]: Json };
        // The schema bounds each field; the sheet as a whole (max HP against HP) is the rules' to judge.
        const bad = validateSheet({ ...world.characters[id.value]!.stats, ...stats });
        if (bad !== null) return { ok: false, error: bad };
        return okv([{ type: 'osr.sheetSet', characterId: id.value, stats } satisfies OsrEvent]);
      },
    }),

    // 001 "Saves & Checks", "Traps": d20 + modifier vs DC; an optional damage on failure (a trap).
    'osr.check': handlerOf(d.check, {
      label: 'roll a check',
      authorize: (world, p, actor) => mayActFor(world, actor, p.characterId),
      decide(world, p, env) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead make no checks', 'characterId');
        const dmg = readFailDamage(p.damageOnFail);
        if (!dmg.ok) return dmg;
        const label = p.label ?? 'check';
        const r = rollCheck(world, env, id.value, { modifier: modifierFor(world, p, id.value), dc: p.difficulty, tags: p.tags ?? [], ...advantageCounts(p.advantage), label });
        const out: EngineEvent[] = [r.event];
        if (!r.success && dmg.value !== null) out.push(...failDamage(world, env, id.value, dmg.value, r.natural, label));
        return okv(out);
      },
    }),

    // 001 "PC Attacks", "NPC Attacks", "Range & Attacks", "Critical Hits".
    'osr.attack': handlerOf(d.attack, {
      label: 'attack',
      authorize: (world, p, actor) => mayActFor(world, actor, p.attackerId),
      decide(world, p, env) {
        const att = needCharacter(world, p.attackerId, 'attackerId');
        if (!att.ok) return att;
        const noAc = noAcYet(world, p.targetId);
        if (noAc !== null) return noAc;
        const tgt = needCharacter(world, p.targetId, 'targetId');
        if (!tgt.ok) return tgt;
        if (isDead(world, att.value)) return fail('DEAD', 'the dead do not attack', 'attackerId');
        const st = getOsr(world);
        if (isExhausted(world, att.value) && osrSettings(world).exhaustedCannotFight) return fail('EXHAUSTED', 'an exhausted character cannot fight (001 "Exhaustion"; setting osr.exhaustedCannotFight)', 'attackerId');
        if (isHidden(world, tgt.value)) return fail('TARGET_HIDDEN', 'a character in stealth cannot be targeted directly (001 "Positioning")', 'targetId');
        const reach = attackReach(p);
        if (!reach.ok) return reach;
        const { kind, delivery, range, tags } = reach.value;
        const counts = advantageCounts(p.advantage);
        const dmgSpec = readDice(p.damage ?? '1d6', 'damage');
        if (!dmgSpec.ok) return dmgSpec;
        // 001 "Dealing Damage": weapons, spells and features alike list dice plus the ability modifier.
        const addMod = p.addModifierToDamage ?? true;
        const ability: Ability = ATTACK_ABILITY[kind];
        const sheet = sheetOf(world, att.value);
        const abilityMod = mod(sheet, ability);
        const modifier = abilityMod + (p.proficient === true ? proficiencyFor(world, att.value) : 0) + (p.bonus ?? 0);
        // A ranged attack in melee is at disadvantage (001 "Range & Attacks").
        const rangedInMelee = delivery === 'ranged' && range === 'close' ? 1 : 0;
        // A flanked target (the GM's condition, 001 "Positioning") gives the attack advantage.
        const flanked = conditionEffect(world, tgt.value, 'against.attack.advantage') > 0 ? 1 : 0;
        const adv = checkAdvantage(world, att.value, { advantage: counts.advantage + flanked, disadvantage: counts.disadvantage + rangedInMelee, tags });
        // The GM's own sources only: a shot in melee or a flank is named below, not as "imposed" or "granted" too.
        const granted = adv.reasons.filter((x) => !((x === 'advantage granted' && counts.advantage === 0) || (x === 'disadvantage imposed' && counts.disadvantage === 0)));
        const reasons = [...granted, ...(rangedInMelee ? ['ranged attack in melee'] : []), ...(flanked ? ['the target is flanked'] : [])];
        const targetAc = sheetOf(world, tgt.value).ac;
        const set = osrSettings(world);
        const dice = rollCheckDice(env.rng, adv.advantage);
        const r = resolveCheck(dice, adv.advantage, modifier, targetAc, { natural20Succeeds: set.natural20AlwaysHits, natural1Fails: set.natural1AlwaysMisses });
        const crit = r.natural === 20 && r.success;
        const events: EngineEvent[] = [];
        // An attack during the attacker's own turn spends their active action.
        const enc = getEncounter(world);
        const combatant = enc.active ? enc.roster.find((x) => own(enc.combatants, x)?.characterId === att.value) : undefined;
        if (combatant !== undefined && enc.current === combatant && p.spend !== false) {
          const s = spendEvent(world, rules, combatant, { kind: 'active' });
          if (!s.ok) return s;
          events.push(s.value);
        }
        const base = { type: 'osr.attacked', attackerId: att.value, targetId: tgt.value, kind, delivery, range, roll: r, reasons, hit: r.success, crit, ac: targetAc } satisfies OsrEvent;
        if (st.hidden.includes(att.value)) events.push({ type: 'osr.revealed', characterId: att.value, reason: 'attacked' } satisfies OsrEvent);
        // Stealth marked by the GM ends the same way (001 "Positioning": once they attack).
        for (const c of conditionsOn(world, att.value, 'stealth')) events.push({ type: 'condition.removed', id: c.id, target: c.target });
        if (!r.success) return okv([...events, stored(base)]);
        const dbonus = dmgSpec.value.bonus + (addMod ? abilityMod : 0);
        const faces = rollDice(env.rng, dmgSpec.value);
        const total = damageTotal(faces, dbonus, crit, set.critDoubles);
        events.push(stored({ ...base, damage: { dice: specText(dmgSpec.value), faces, bonus: dbonus, doubled: crit, total, ...(addMod ? { ability, abilityMod } : {}) } } satisfies OsrEvent));
        const hp = sheetOf(world, tgt.value).hp;
        events.push(...hpEvents(world, tgt.value, hp - total, crit ? 'critical hit' : 'hit'));
        const retreating = combatantOf(world, tgt.value);
        if (retreating !== undefined && own(st.retreating, retreating) !== undefined) events.push({ type: 'osr.retreatFailed', combatantId: retreating, reason: 'hit while retreating' } satisfies OsrEvent);
        return okv(events);
      },
    }),

    // Damage from anything else (a monster's listed damage, a fall): amount or dice, optionally doubled.
    'osr.damage': handlerOf(d.damage, {
      label: 'deal damage',
      decide(world, p, env) {
        const id = needCharacter(world, p.targetId, 'targetId');
        if (!id.ok) return id;
        const spec = readDice(p.amount, 'amount');
        if (!spec.ok) return spec;
        const doubled = p.doubled ?? false;
        const label = p.source ?? 'damage';
        const faces = rollDice(env.rng, spec.value);
        const total = damageTotal(faces, spec.value.bonus, doubled, osrSettings(world).critDoubles);
        return okv([{ type: 'osr.damageRolled', targetId: id.value, dice: specText(spec.value), faces, bonus: spec.value.bonus, doubled, total, source: label } satisfies OsrEvent, ...hpEvents(world, id.value, sheetOf(world, id.value).hp - total, label)]);
      },
    }),

    // 001 "Healing From Magic & Medicine": dice of HP, never above max; never for the dying (stabilize first) or the dead.
    'osr.heal': handlerOf(d.heal, {
      label: 'heal',
      decide(world, p, env) {
        const id = needCharacter(world, p.targetId, 'targetId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead cannot be healed', 'targetId');
        const spec = readDice(p.amount, 'amount');
        if (!spec.ok) return spec;
        const source = p.source ?? 'magic';
        const faces = rollDice(env.rng, spec.value);
        const total = Math.max(0, faces.reduce((a, b) => a + b, 0) + spec.value.bonus);
        const st = getOsr(world);
        const out: EngineEvent[] = [{ type: 'osr.healRolled', targetId: id.value, dice: specText(spec.value), faces, total, source } satisfies OsrEvent];
        // Healing an incapacitated character stabilizes them (001 "Stabilizing & Injuries"), then the injury roll decides.
        if (st.dying[id.value] !== undefined) return okv([...out, ...stabilizeEvents(world, env, id.value, null, 'healed')]);
        return okv([...out, ...hpEvents(world, id.value, sheetOf(world, id.value).hp + total, `${source} healing`)]);
      },
    }),

    // 001 "Stabilizing & Injuries": a check, a spell or healing stabilizes; then the injury table.
    'osr.stabilize': handlerOf(d.stabilize, {
      label: 'stabilize',
      // Without a helper only the GM stabilizes (a spell or other means off the table).
      authorize: (world, p, actor) => (p.helperId === undefined && actor.role === 'gm' ? null : mayActFor(world, actor, p.helperId)),
      decide(world, p, env) {
        const t = needCharacter(world, p.targetId, 'targetId');
        if (!t.ok) return t;
        if (getOsr(world).dying[t.value] === undefined) return fail('NOT_DYING', 'only an incapacitated, unstabilized character can be stabilized', 'targetId');
        const method = p.method ?? 'check';
        let by: string | null = null;
        if (p.helperId !== undefined) {
          const b = needCharacter(world, p.helperId, 'helperId');
          if (!b.ok) return b;
          by = b.value;
          const why = cannotStabilize(world, by, t.value);
          if (why !== null) return why;
        }
        if (method !== 'check') return okv(stabilizeEvents(world, env, t.value, by, method));
        const m = by === null ? (p.bonus ?? 0) : modifierFor(world, p, by);
        const r = rollCheck(world, env, by, { modifier: m, dc: p.difficulty ?? 10, ...advantageCounts(p.advantage), label: `stabilizing ${own(world.characters, t.value)?.name ?? 'someone'}`, kind: 'stabilize' });
        if (!r.success) return okv([r.event]);
        return okv([r.event, ...stabilizeEvents(world, env, t.value, by, 'check')]);
      },
    }),

    // 001 "Healing From Rest": nights of safe (level HP) or unsafe (1 HP) rest; safe rest with food ends exhaustion.
    'osr.rest': handlerOf(d.rest, {
      label: 'rest',
      decide(world, p) {
        const kind = p.kind ?? 'safe';
        const nights = p.nights ?? 1;
        const fed = p.fed ?? true;
        const st = getOsr(world);
        const who = needCharacters(world, p.characterIds, 'characterIds', () => Object.values(world.characters).filter((x) => x.kind === 'pc').map((x) => x.id));
        if (!who.ok) return who;
        const alive = who.value.filter((id) => !st.dead.includes(id) && st.dying[id] === undefined);
        const hours = osrSettings(world).restHoursPerNight;
        const out: EngineEvent[] = [];
        if (hours > 0) out.push(clockAdvanced(world, 'longRest', nights, nights * hours * 3600));
        const heals = alive.map((id) => {
          const s = sheetOf(world, id);
          return { characterId: id, from: s.hp, to: s.hp + restHealing(kind, s.level, nights, s.hp, s.maxHp) };
        });
        const recovered = kind === 'safe' && fed ? alive.filter((id) => st.exhausted.includes(id)) : [];
        out.push({ type: 'osr.rested', kind, nights, fed, characterIds: alive, heals, recovered } satisfies OsrEvent);
        return okv(out);
      },
    }),

    // 001 "Positioning": a successful stealth check means no one can target you until you attack.
    'osr.hide': handlerOf(d.hide, {
      label: 'hide',
      authorize: (world, p, actor) => mayActFor(world, actor, p.characterId),
      decide(world, p, env) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        const m = modifierFor(world, { ...p, ability: p.ability ?? 'dex' }, id.value);
        // 001 "Types of Actions": stealth is an active action; on the hider's own turn in a fight it spends it, as an attack does.
        const enc = getEncounter(world);
        const combatant = enc.active ? enc.roster.find((x) => own(enc.combatants, x)?.characterId === id.value) : undefined;
        const spent: EngineEvent[] = [];
        if (combatant !== undefined && enc.current === combatant) {
          const s = spendEvent(world, rules, combatant, { kind: 'active' });
          if (!s.ok) return s;
          spent.push(s.value);
        }
        const r = rollCheck(world, env, id.value, { modifier: m, dc: p.difficulty ?? HIDE_DC, tags: HIDE_TAGS, ...advantageCounts(p.advantage), label: 'stealth', kind: 'stealth' });
        return okv(r.success ? [...spent, r.event, { type: 'osr.hid', characterId: id.value } satisfies OsrEvent] : [...spent, r.event]);
      },
    }),
    'osr.reveal': handlerOf(d.reveal, {
      label: 'reveal',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        if (!getOsr(world).hidden.includes(id.value)) return fail('NOT_HIDDEN', 'that character is not in stealth', 'characterId');
        return okv([{ type: 'osr.revealed', characterId: id.value, reason: 'spotted' } satisfies OsrEvent]);
      },
    }),

    // 001 "Movement Actions": up to your speed per movement action, split across the turn;
    // half speed when swimming, crawling, climbing or in difficult terrain (each foot costs two).
    'osr.move': handlerOf(d.move, {
      label: 'move',
      authorize: (world, p, actor) => (controlsCombatant(world, actor, p.characterId) ? null : FORBIDDEN),
      decide(world, p) {
        const enc = getEncounter(world);
        if (!enc.active) return fail('NO_ENCOUNTER', 'movement actions are counted in a fight');
        const comb = combatantNamed(enc, p.characterId);
        if (comb === undefined) return fail('NOT_FOUND', `no combatant ${JSON.stringify(p.characterId)}`, 'characterId');
        if (enc.current !== comb.id) return fail('NOT_YOUR_TURN', 'you move on your own turn', 'characterId');
        const { feet } = p;
        const mode = p.mode ?? 'walk';
        let speed = typeof comb.stats['speed'] === 'number' ? comb.stats['speed'] : 30;
        if (comb.characterId !== null) {
          const s = sheetOf(world, comb.characterId);
          speed = isExhausted(world, comb.characterId) ? 0 : encumbrance(s.str, carriedLoad(s), s.speed).speed;
        }
        if (speed === 0) return fail('CANNOT_MOVE', 'at 0\' speed (completely encumbered or exhausted) they cannot move at all', 'characterId');
        const cost = mode === 'walk' ? feet : feet * 2;
        const prev = getOsr(world).moved[comb.id];
        const serial = own(enc.lastTurn, comb.id) ?? enc.turnSerial;
        let used = prev !== undefined && prev.serial === serial ? prev.used : 0;
        let budget = prev !== undefined && prev.serial === serial ? prev.budget : 0;
        const out: EngineEvent[] = [];
        let paidWith: string | null = null;
        // The first move of a turn spends the movement action; `another` spends one more (an active action traded down).
        if (budget === 0 || (p.another === true && used + cost > budget)) {
          const s = spendEvent(world, rules, comb.id, { kind: 'movement' });
          if (!s.ok) return s;
          const active = paysWithActive(s.value, 'move');
          if (active !== null && p.withActive !== true) return active;
          const pool = (s.value['paid'] as { pool: string }[] | undefined)?.[0]?.pool;
          if (pool !== undefined && pool !== 'movement') paidWith = pool;
          out.push(s.value);
          budget += speed;
        }
        if (used + cost > budget) return fail('TOO_FAR', `${feet}' ${mode === 'walk' ? '' : `${mode}ing `}costs ${cost}' of movement; ${budget - used}' left this turn`, 'feet');
        used += cost;
        out.push({ type: 'osr.moved', combatantId: comb.id, characterId: comb.characterId, feet, mode, cost, used, budget, ...(paidWith === null ? {} : { paidWith }) } satisfies OsrEvent);
        return okv(out);
      },
    }),

    // 001 "Quick Actions": one a turn, paid down from the movement or the active action (never silently: ADR 44).
    'osr.quick': handlerOf(d.quick, {
      label: 'take a quick action',
      authorize: (world, p, actor) => (controlsCombatant(world, actor, p.characterId) ? null : FORBIDDEN),
      decide(world, p) {
        const enc = getEncounter(world);
        if (!enc.active) return fail('NO_ENCOUNTER', 'quick actions are counted in a fight');
        const comb = combatantNamed(enc, p.characterId);
        if (comb === undefined) return fail('NOT_FOUND', `no combatant ${JSON.stringify(p.characterId)}`, 'characterId');
        if (enc.current !== comb.id) return fail('NOT_YOUR_TURN', 'a quick action is taken on your own turn', 'characterId');
        const s = spendEvent(world, rules, comb.id, { kind: 'quick', label: 'Quick action' });
        if (!s.ok) return s;
        const active = paysWithActive(s.value, 'quick action');
        if (active !== null && p.withActive !== true) return active;
        const pool = (s.value['paid'] as { pool: string }[] | undefined)?.[0]?.pool ?? 'quick';
        return okv([s.value, { type: 'osr.quickTaken', combatantId: comb.id, characterId: comb.characterId, what: p.what.trim(), paidWith: pool } satisfies OsrEvent]);
      },
    }),

    // 001 "Healing From Magic & Medicine": mundane care restores no HP but removes penalties (the injury's disadvantage).
    'osr.treat': handlerOf(d.treat, {
      label: 'treat wounds',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        if (!getOsr(world).shaken.includes(id.value)) return fail('NO_PENALTY', 'that character has no penalty mundane care removes', 'characterId');
        return okv([{ type: 'osr.treated', characterId: id.value } satisfies OsrEvent]);
      },
    }),

    // The GM names the body part an injury took (001 "Injury Table" 8-13, GM's choice).
    'osr.noteBodyPart': handlerOf(d.noteBodyPart, {
      label: 'name a lost body part',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        return okv([{ type: 'osr.bodyPartLost', characterId: id.value, part: p.part } satisfies OsrEvent]);
      },
    }),

    // 001 "Healing From Magic & Medicine": abilities heal with weeks of rest and care.
    'osr.restoreAbility': handlerOf(d.restoreAbility, {
      label: 'restore an ability',
      decide(world, p) {
        const id = needCharacter(world, p.characterId, 'characterId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead do not recover', 'characterId');
        const from = sheetOf(world, id.value)[p.ability];
        return okv([{ type: 'osr.abilityChanged', characterId: id.value, ability: p.ability, from, to: Math.min(30, from + p.amount), reason: 'rest and care' } satisfies OsrEvent]);
      },
    }),
  };
}

/**
 * 001 "Stabilizing & Injuries": an ally (PC or NPC) stabilizes. Two creatures of the last encounter are allies when
 * they stood on one side; otherwise the party (PCs and seated retainers) stands together, and so do the foes.
 */
export function areAllies(world: World, a: string, b: string): boolean {
  const enc = getEncounter(world);
  const sideOf = (id: string): string | undefined => {
    for (const x of enc.roster) {
      const c = own(enc.combatants, x);
      if (c?.characterId === id) return c.side;
    }
    return undefined;
  };
  const sa = sideOf(a);
  const sb = sideOf(b);
  if (sa !== undefined && sb !== undefined) return sa === sb;
  return isFoeCharacter(world, a) === isFoeCharacter(world, b);
}

/** Why `helper` cannot stabilize `target` (001: an ally who can act: at 0 HP nobody acts), or null when they can. */
export function cannotStabilize(world: World, helper: string, target: string): ReturnType<typeof fail> | null {
  const name = (id: string): string => own(world.characters, id)?.name ?? 'someone';
  if (helper === target) return fail('INVALID_VALUE', `${name(target)} cannot stabilize themself: an ally must`, 'helperId');
  if (isDead(world, helper)) return fail('HELPER_DOWN', `${name(helper)} is dead and cannot stabilize ${name(target)}`, 'helperId');
  if (sheetOf(world, helper).hp <= 0) return fail('HELPER_DOWN', `${name(helper)} is at 0 HP and unable to act: someone else must stabilize ${name(target)}`, 'helperId');
  if (!areAllies(world, helper, target)) return fail('NOT_AN_ALLY', `${name(helper)} is not ${name(target)}'s ally (001: an ally stabilizes the dying)`, 'helperId');
  return null;
}

function combatantOf(world: World, characterId: string): string | undefined {
  const enc = getEncounter(world);
  return enc.roster.find((x) => own(enc.combatants, x)?.characterId === characterId);
}

/** Stabilized: roll the injury table (and its d6 / d8) and apply the row. */
export function stabilizeEvents(world: World, env: Env, target: string, by: string | null, method: string): EngineEvent[] {
  const d20 = env.rng.die(20);
  const die = injuryExtraDie(d20);
  const extra = die === null ? null : env.rng.die(die);
  const s = sheetOf(world, target);
  const set = osrSettings(world);
  const out = resolveInjury(d20, extra, s, s.maxHp, { standingHeal: set.standingHeal, deathAtZeroAbility: set.deathAtZeroAbility });
  const events: EngineEvent[] = [
    { type: 'osr.stabilized', targetId: target, helperId: by, method } satisfies OsrEvent,
    { type: 'osr.injuryRolled', characterId: target, d20, extra, row: out.row.kind, dead: out.dead, hp: out.hp, abilityLoss: out.abilityLoss } satisfies OsrEvent,
  ];
  if (out.abilityLoss !== null) events.push({ type: 'osr.abilityChanged', characterId: target, ability: out.abilityLoss.ability, from: out.abilityLoss.from, to: out.abilityLoss.to, reason: 'injury' } satisfies OsrEvent);
  if (out.dead) events.push({ type: 'osr.died', characterId: target, reason: out.row.kind === 'dead' ? 'injury: a false hope' : 'injury: an ability fell to 0' } satisfies OsrEvent);
  else events.push({ type: 'osr.hpChanged', characterId: target, from: s.hp, to: out.hp, reason: 'stabilized' } satisfies OsrEvent);
  return events;
}

/** A refusal when a spend would take the active action (the others are spent) and the asker did not agree to it. */
function paysWithActive(spent: EngineEvent, what: string): ReturnType<typeof fail> | null {
  const paid = spent['paid'];
  const pools = Array.isArray(paid) ? paid.map((x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? x['pool'] : null)) : [];
  if (!pools.includes('active')) return null;
  return fail('PAYS_WITH_ACTIVE', `this ${what} would use up the active action (the others are spent this turn): tick "Pay with the active action" to do it anyway`, 'withActive');
}
