// Commands for 001 "Checks, Actions, & Combat" and "Attacks, Damage, & Injury":
// checks (and traps), attacks with crits, damage, healing, stabilizing with
// the injury table, rest, stealth.
import { clockAdvanced, combatantNamed, controlsCombatant, getEncounter, spendEvent, type CommandHandler, type EncounterRules, type EngineEvent, type World, own } from '@tablekeeper/engine';
import { resolveCheck, type Ability } from './checks.js';
import { ATTACK_ABILITY, damageTotal, injuryExtraDie, isAttackKind, resolveInjury, restHealing, type AttackKind } from './combat.js';
import type { CheckTag } from './exploration.js';
import { readDice, rollCheckDice, rollDice, specText, type DiceSpec } from './rolls.js';
import { osrSettings } from './settings.js';
import {
  FORBIDDEN,
  checkAdvantage,
  fail,
  hpEvents,
  isDead,
  j,
  okv,
  ownCharacter,
  readAbility,
  readAdvantageCounts,
  readBool,
  readCharacter,
  readCharacters,
  readNum,
  readOpt,
  readTags,
  readText,
  type R,
} from './shared.js';
import { encumbrance, mod, proficiencyOf, readSheet, validateSheet } from './sheet.js';
import { getOsr, sheetOf } from './state.js';
import type { Env, Command } from '@tablekeeper/engine';

/** The proficiency bonus the table's settings give this sheet. */
export function proficiencyFor(world: World, id: string): number {
  const s = sheetOf(world, id);
  if (s.proficiency !== null) return s.proficiency;
  return osrSettings(world).proficiencyByLevel ? proficiencyOf(s) : 0;
}

export interface RolledCheck {
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
  return {
    success,
    natural: r.natural,
    shortfall: success ? 0 : Math.max(1, r.shortfall),
    event: { type: 'osr.checked', character: id, label: o.label, kind: o.kind ?? 'check', roll: j({ ...r, success }), reasons: adv.reasons, impossible: adv.impossible },
  };
}

function modifierFor(world: World, c: Command, id: string): R<number> {
  const bonus = readNum(c, 'bonus', -30, 30, 0);
  if (!bonus.ok) return bonus;
  const prof = readBool(c, 'proficient', false);
  if (!prof.ok) return prof;
  let m = bonus.value + (prof.value ? proficiencyFor(world, id) : 0);
  if (c['ability'] !== undefined) {
    const ab = readAbility(c, 'ability');
    if (!ab.ok) return ab;
    m += mod(sheetOf(world, id), ab.value);
  }
  return okv(m);
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
    { type: 'osr.damageRolled', target: id, dice: specText(spec), faces, bonus: spec.bonus, doubled, ...(doubled ? { doubledBy: 'natural 1' } : {}), total, source: label },
    ...hpEvents(world, id, hp - total, label),
  ];
}

/** The optional `damageOnFail` dice of a check command (at most 100 dice of 1,000 sides). */
export function readFailDamage(c: Command): R<DiceSpec | null> {
  if (c['damageOnFail'] === undefined) return okv(null);
  const d = readDice(c['damageOnFail'], 'damageOnFail');
  return d.ok ? okv(d.value) : d;
}

export function combatCommands(rules: EncounterRules): { [type: string]: CommandHandler } {
  return {
    'osr.setSheet': {
      label: 'set a character sheet',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const stats = c['sheet'];
        if (typeof stats !== 'object' || stats === null || Array.isArray(stats)) return fail('INVALID_VALUE', 'sheet must be an object', 'sheet');
        const merged = { ...world.characters[id.value]!.stats, ...stats };
        const bad = validateSheet(merged);
        if (bad !== null) return { ok: false, error: bad };
        return okv([{ type: 'osr.sheetSet', id: id.value, stats }]);
      },
    },

    // 001 "Saves & Checks", "Traps": d20 + modifier vs DC; an optional damage on failure (a trap).
    'osr.check': {
      label: 'roll a check',
      authorize: ownCharacter('characterId'),
      decide(world, c, env) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead make no checks', 'characterId');
        const dc = readNum(c, 'difficulty', 1, 40);
        if (!dc.ok) return dc;
        const m = modifierFor(world, c, id.value);
        if (!m.ok) return m;
        const tags = readTags(c);
        if (!tags.ok) return tags;
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const label = readText(c, 'label', 100, 'check');
        if (!label.ok) return label;
        const dmg = readFailDamage(c);
        if (!dmg.ok) return dmg;
        const r = rollCheck(world, env, id.value, { modifier: m.value, dc: dc.value, tags: tags.value, ...ac.value, label: label.value });
        const out = [r.event];
        if (!r.success && dmg.value !== null) out.push(...failDamage(world, env, id.value, dmg.value, r.natural, label.value));
        return okv(out);
      },
    },

    // 001 "PC Attacks", "NPC Attacks", "Range & Attacks", "Critical Hits".
    'osr.attack': {
      label: 'attack',
      authorize: ownCharacter('attackerId'),
      decide(world, c, env) {
        const att = readCharacter(world, c, 'attackerId');
        if (!att.ok) return att;
        const tgt = readCharacter(world, c, 'targetId');
        if (!tgt.ok) return tgt;
        if (isDead(world, att.value)) return fail('DEAD', 'the dead do not attack', 'attackerId');
        const st = getOsr(world);
        if (st.exhausted.includes(att.value) && osrSettings(world).exhaustedCannotFight) return fail('EXHAUSTED', 'an exhausted character cannot fight (001 "Exhaustion"; setting osr.exhaustedCannotFight)', 'attackerId');
        if (st.hidden.includes(tgt.value)) return fail('TARGET_HIDDEN', 'a character in stealth cannot be targeted directly (001 "Positioning")', 'targetId');
        const kindV = c['kind'] ?? 'melee';
        if (!isAttackKind(kindV)) return fail('INVALID_VALUE', 'kind must be melee, ranged, arcane or divine', 'kind');
        const kind: AttackKind = kindV;
        const delivery = readOpt(c, 'delivery', ['melee', 'ranged'] as const, kind === 'melee' ? 'melee' : 'ranged');
        if (!delivery.ok) return delivery;
        const range = readOpt(c, 'range', ['close', 'ranged', 'far'] as const, delivery.value === 'melee' ? 'close' : 'ranged');
        if (!range.ok) return range;
        if (range.value === 'far') return fail('OUT_OF_RANGE', 'far is beyond weapons and spells (001 "Positioning")', 'range');
        if (delivery.value === 'melee' && range.value !== 'close') return fail('OUT_OF_RANGE', 'a melee attack needs close range (5-10 feet)', 'range');
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const dmgSpec = readDice(c['damage'] ?? '1d6', 'damage');
        if (!dmgSpec.ok) return dmgSpec;
        const bonus = readNum(c, 'bonus', -30, 30, 0);
        if (!bonus.ok) return bonus;
        const prof = readBool(c, 'proficient', false);
        if (!prof.ok) return prof;
        const addMod = readBool(c, 'addModifierToDamage', kind === 'melee' || kind === 'ranged');
        if (!addMod.ok) return addMod;
        const longRange = readBool(c, 'longRange', false);
        if (!longRange.ok) return longRange;
        const ability: Ability = ATTACK_ABILITY[kind];
        const sheet = sheetOf(world, att.value);
        const abilityMod = mod(sheet, ability);
        const modifier = abilityMod + (prof.value ? proficiencyFor(world, att.value) : 0) + bonus.value;
        const tags: CheckTag[] = ['attack'];
        if (delivery.value === 'ranged') tags.push('ranged-attack');
        if (longRange.value) tags.push('long-range-attack');
        // A ranged attack in melee is at disadvantage (001 "Range & Attacks").
        const rangedInMelee = delivery.value === 'ranged' && range.value === 'close' ? 1 : 0;
        const adv = checkAdvantage(world, att.value, { advantage: ac.value.advantage, disadvantage: ac.value.disadvantage + rangedInMelee, tags });
        const reasons = rangedInMelee ? [...adv.reasons, 'ranged attack in melee'] : adv.reasons;
        const targetAc = sheetOf(world, tgt.value).ac;
        const set = osrSettings(world);
        const dice = rollCheckDice(env.rng, adv.advantage);
        const r = resolveCheck(dice, adv.advantage, modifier, targetAc, { natural20Succeeds: set.natural20AlwaysHits, natural1Fails: set.natural1AlwaysMisses });
        const crit = r.natural === 20 && r.success;
        const events: EngineEvent[] = [];
        // An attack during the attacker's own turn spends their active action.
        const enc = getEncounter(world);
        const combatant = enc.active ? enc.roster.find((x) => own(enc.combatants, x)?.characterId === att.value) : undefined;
        if (combatant !== undefined && enc.current === combatant && c['spend'] !== false) {
          const s = spendEvent(world, rules, combatant, { kind: 'active' });
          if (!s.ok) return s;
          events.push(s.value);
        }
        const base: EngineEvent = { type: 'osr.attacked', attacker: att.value, target: tgt.value, kind, delivery: delivery.value, range: range.value, roll: j(r), reasons, hit: r.success, crit, ac: targetAc };
        if (st.hidden.includes(att.value)) events.push({ type: 'osr.revealed', id: att.value, reason: 'attacked' });
        if (!r.success) return okv([...events, base]);
        const dbonus = dmgSpec.value.bonus + (addMod.value ? abilityMod : 0);
        const faces = rollDice(env.rng, dmgSpec.value);
        const total = damageTotal(faces, dbonus, crit, set.critDoubles);
        events.push({ ...base, damage: j({ dice: specText(dmgSpec.value), faces, bonus: dbonus, doubled: crit, total }) });
        const hp = sheetOf(world, tgt.value).hp;
        events.push(...hpEvents(world, tgt.value, hp - total, crit ? 'critical hit' : 'hit'));
        if (st.retreating[combatantOf(world, tgt.value) ?? ''] !== undefined) events.push({ type: 'osr.retreatFailed', combatant: combatantOf(world, tgt.value), reason: 'hit while retreating' });
        return okv(events);
      },
    },

    // Damage from anything else (a monster's listed damage, a fall): amount or dice, optionally doubled.
    'osr.damage': {
      label: 'deal damage',
      decide(world, c, env) {
        const id = readCharacter(world, c, 'targetId');
        if (!id.ok) return id;
        const spec = readDice(c['amount'], 'amount');
        if (!spec.ok) return spec;
        const doubled = readBool(c, 'doubled', false);
        if (!doubled.ok) return doubled;
        const label = readText(c, 'source', 100, 'damage');
        if (!label.ok) return label;
        const faces = rollDice(env.rng, spec.value);
        const total = damageTotal(faces, spec.value.bonus, doubled.value, osrSettings(world).critDoubles);
        return okv([{ type: 'osr.damageRolled', target: id.value, dice: specText(spec.value), faces, bonus: spec.value.bonus, doubled: doubled.value, total, source: label.value }, ...hpEvents(world, id.value, sheetOf(world, id.value).hp - total, label.value)]);
      },
    },

    // 001 "Healing From Magic & Medicine": dice of HP, never above max; never for the dying (stabilize first) or the dead.
    'osr.heal': {
      label: 'heal',
      decide(world, c, env) {
        const id = readCharacter(world, c, 'targetId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead cannot be healed', 'targetId');
        const spec = readDice(c['amount'], 'amount');
        if (!spec.ok) return spec;
        const source = readOpt(c, 'source', ['magic', 'medicine'] as const, 'magic');
        if (!source.ok) return source;
        const faces = rollDice(env.rng, spec.value);
        const total = Math.max(0, faces.reduce((a, b) => a + b, 0) + spec.value.bonus);
        const st = getOsr(world);
        const out: EngineEvent[] = [{ type: 'osr.healRolled', target: id.value, dice: specText(spec.value), faces, total, source: source.value }];
        // Healing an incapacitated character stabilizes them (001 "Stabilizing & Injuries"), then the injury roll decides.
        if (st.dying[id.value] !== undefined) return okv([...out, ...stabilizeEvents(world, env, id.value, null, 'healed')]);
        return okv([...out, ...hpEvents(world, id.value, sheetOf(world, id.value).hp + total, `${source.value} healing`)]);
      },
    },

    // 001 "Stabilizing & Injuries": a check, a spell or healing stabilizes; then the injury table.
    'osr.stabilize': {
      label: 'stabilize',
      authorize: (world, c, actor) => (c['helperId'] === undefined ? (actor.role === 'gm' ? null : ownCharacter('helperId')(world, c, actor)) : ownCharacter('helperId')(world, c, actor)),
      decide(world, c, env) {
        const t = readCharacter(world, c, 'targetId');
        if (!t.ok) return t;
        if (getOsr(world).dying[t.value] === undefined) return fail('NOT_DYING', 'only an incapacitated, unstabilized character can be stabilized', 'targetId');
        const method = readOpt(c, 'method', ['check', 'spell', 'other'] as const, 'check');
        if (!method.ok) return method;
        let by: string | null = null;
        if (c['helperId'] !== undefined) {
          const b = readCharacter(world, c, 'helperId');
          if (!b.ok) return b;
          by = b.value;
        }
        if (method.value !== 'check') return okv(stabilizeEvents(world, env, t.value, by, method.value));
        const dc = readNum(c, 'difficulty', 1, 40, 10);
        if (!dc.ok) return dc;
        const m = by === null ? readNum(c, 'bonus', -30, 30, 0) : modifierFor(world, c, by);
        if (!m.ok) return m;
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const r = rollCheck(world, env, by, { modifier: m.value, dc: dc.value, ...ac.value, label: `stabilizing ${own(world.characters, t.value)?.name ?? 'someone'}`, kind: 'stabilize' });
        if (!r.success) return okv([r.event]);
        return okv([r.event, ...stabilizeEvents(world, env, t.value, by, 'check')]);
      },
    },

    // 001 "Healing From Rest": nights of safe (level HP) or unsafe (1 HP) rest; safe rest with food ends exhaustion.
    'osr.rest': {
      label: 'rest',
      decide(world, c) {
        const kind = readOpt(c, 'kind', ['safe', 'unsafe'] as const, 'safe');
        if (!kind.ok) return kind;
        const nights = readNum(c, 'nights', 1, 60, 1);
        if (!nights.ok) return nights;
        const fed = readBool(c, 'fed', true);
        if (!fed.ok) return fed;
        const st = getOsr(world);
        const who = readCharacters(world, c, 'characterIds', () => Object.values(world.characters).filter((x) => x.kind === 'pc').map((x) => x.id));
        if (!who.ok) return who;
        const alive = who.value.filter((id) => !st.dead.includes(id) && st.dying[id] === undefined);
        const hours = osrSettings(world).restHoursPerNight;
        const out: EngineEvent[] = [];
        if (hours > 0) out.push(clockAdvanced(world, 'longRest', nights.value, nights.value * hours * 3600));
        const heals = alive.map((id) => {
          const s = sheetOf(world, id);
          return { id, from: s.hp, to: s.hp + restHealing(kind.value, s.level, nights.value, s.hp, s.maxHp) };
        });
        const recovered = kind.value === 'safe' && fed.value ? alive.filter((id) => st.exhausted.includes(id)) : [];
        out.push({ type: 'osr.rested', kind: kind.value, nights: nights.value, fed: fed.value, characters: alive, heals: j(heals), recovered });
        return okv(out);
      },
    },

    // 001 "Positioning": a successful stealth check means no one can target you until you attack.
    'osr.hide': {
      label: 'hide',
      authorize: ownCharacter('characterId'),
      decide(world, c, env) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const dc = readNum(c, 'difficulty', 1, 40, 11);
        if (!dc.ok) return dc;
        const m = modifierFor(world, { ...c, ability: c['ability'] ?? 'dex' }, id.value);
        if (!m.ok) return m;
        const ac = readAdvantageCounts(c);
        if (!ac.ok) return ac;
        const r = rollCheck(world, env, id.value, { modifier: m.value, dc: dc.value, tags: ['stealth'], ...ac.value, label: 'stealth', kind: 'stealth' });
        return okv(r.success ? [r.event, { type: 'osr.hid', id: id.value }] : [r.event]);
      },
    },
    'osr.reveal': {
      label: 'reveal',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        if (!getOsr(world).hidden.includes(id.value)) return fail('NOT_HIDDEN', 'that character is not in stealth', 'characterId');
        return okv([{ type: 'osr.revealed', id: id.value, reason: 'spotted' }]);
      },
    },

    // 001 "Movement Actions": up to your speed per movement action, split across the turn;
    // half speed when swimming, crawling, climbing or in difficult terrain (each foot costs two).
    'osr.move': {
      label: 'move',
      authorize: (world, c, actor) => (controlsCombatant(world, actor, c['characterId']) ? null : FORBIDDEN),
      decide(world, c) {
        const enc = getEncounter(world);
        if (!enc.active) return fail('NO_ENCOUNTER', 'movement actions are counted in a fight');
        const cid = c['characterId'];
        const comb = typeof cid === 'string' ? combatantNamed(enc, cid) : undefined;
        if (comb === undefined) return fail('NOT_FOUND', `no combatant ${JSON.stringify(cid ?? null)}`, 'characterId');
        if (enc.current !== comb.id) return fail('NOT_YOUR_TURN', 'you move on your own turn', 'characterId');
        const feet = readNum(c, 'feet', 1, 300);
        if (!feet.ok) return feet;
        const mode = readOpt(c, 'mode', ['walk', 'swim', 'crawl', 'climb', 'difficult'] as const, 'walk');
        if (!mode.ok) return mode;
        const another = readBool(c, 'another', false);
        if (!another.ok) return another;
        let speed = typeof comb.stats['speed'] === 'number' ? comb.stats['speed'] : 30;
        if (comb.characterId !== null) {
          const s = sheetOf(world, comb.characterId);
          speed = getOsr(world).exhausted.includes(comb.characterId) ? 0 : encumbrance(s.str, s.load, s.speed).speed;
        }
        if (speed === 0) return fail('CANNOT_MOVE', 'at 0\' speed (completely encumbered or exhausted) they cannot move at all', 'characterId');
        const cost = mode.value === 'walk' ? feet.value : feet.value * 2;
        const prev = getOsr(world).moved[comb.id];
        const serial = own(enc.lastTurn, comb.id) ?? enc.turnSerial;
        let used = prev !== undefined && prev.serial === serial ? prev.used : 0;
        let budget = prev !== undefined && prev.serial === serial ? prev.budget : 0;
        const out: EngineEvent[] = [];
        // The first move of a turn spends the movement action; `another` spends one more (an active action traded down).
        if (budget === 0 || (another.value && used + cost > budget)) {
          const s = spendEvent(world, rules, comb.id, { kind: 'movement' });
          if (!s.ok) return s;
          out.push(s.value);
          budget += speed;
        }
        if (used + cost > budget) return fail('TOO_FAR', `${feet.value}' ${mode.value === 'walk' ? '' : `${mode.value}ing `}costs ${cost}' of movement; ${budget - used}' left this turn`, 'feet');
        used += cost;
        out.push({ type: 'osr.moved', combatant: comb.id, character: comb.characterId, feet: feet.value, mode: mode.value, cost, used, budget });
        return okv(out);
      },
    },

    // 001 "Healing From Magic & Medicine": mundane care restores no HP but removes penalties (the injury's disadvantage).
    'osr.treat': {
      label: 'treat wounds',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        if (!getOsr(world).shaken.includes(id.value)) return fail('NO_PENALTY', 'that character has no penalty mundane care removes', 'characterId');
        return okv([{ type: 'osr.treated', id: id.value }]);
      },
    },

    // The GM names the body part an injury took (001 "Injury Table" 8-13, GM's choice).
    'osr.noteBodyPart': {
      label: 'name a lost body part',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        const part = readText(c, 'part', 60, '');
        if (!part.ok) return part;
        if (part.value === '') return fail('INVALID_VALUE', 'part must name the body part', 'part');
        return okv([{ type: 'osr.bodyPartLost', id: id.value, part: part.value }]);
      },
    },

    // 001 "Healing From Magic & Medicine": abilities heal with weeks of rest and care.
    'osr.restoreAbility': {
      label: 'restore an ability',
      decide(world, c) {
        const id = readCharacter(world, c, 'characterId');
        if (!id.ok) return id;
        if (isDead(world, id.value)) return fail('DEAD', 'the dead do not recover', 'characterId');
        const ab = readAbility(c, 'ability');
        if (!ab.ok) return ab;
        const n = readNum(c, 'amount', 1, 30);
        if (!n.ok) return n;
        const from = sheetOf(world, id.value)[ab.value];
        return okv([{ type: 'osr.abilityChanged', id: id.value, ability: ab.value, from, to: Math.min(30, from + n.value), reason: 'rest and care' }]);
      },
    },
  };
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
    { type: 'osr.stabilized', id: target, by, method },
    { type: 'osr.injuryRolled', id: target, d20, extra, row: out.row.kind, dead: out.dead, hp: out.hp, abilityLoss: j(out.abilityLoss) },
  ];
  if (out.abilityLoss !== null) events.push({ type: 'osr.abilityChanged', id: target, ability: out.abilityLoss.ability, from: out.abilityLoss.from, to: out.abilityLoss.to, reason: 'injury' });
  if (out.dead) events.push({ type: 'osr.died', id: target, reason: out.row.kind === 'dead' ? 'injury: a false hope' : 'injury: an ability fell to 0' });
  else events.push({ type: 'osr.hpChanged', id: target, from: s.hp, to: out.hp, reason: 'stabilized' });
  return events;
}
