// Attack resolution through the engine (002 "Attacks", "Basic Attacks",
// "Damage", "Resistance and Weakness", "Coup de Grace", "Opportunity
// Attacks", Confused / Invisible / Grabbed / Hampered): plans every die and
// every HP change of one attack command as events.
import { asJson, stored, type EventOf } from '@tablekeeper/engine';
import type { EngineEvent, Json, Rng, World } from '@tablekeeper/engine';
import { getEncounter, economyRemaining, mintId, parseDuration, own } from '@tablekeeper/engine';
import { cannotUse, type AbilityEntry, type AttackReach } from './abilities.js';
import { resolveAttack, type Defense } from './attack.js';
import { attackAdvantage, cannotAct, escalationOf, hasCondition, inEncounter, needSheet, saveAdvantage, type Kit } from './context.js';
import { confusedSelfDamage, critThreshold, finalDamage, isWeakTo, parseMode, resistThreshold, rollDamage, type DamageDice, type RollMode } from './damage.js';
import { takeDamage } from './health.js';
import { engagedEnemies, inReach, rangeBetween } from './positioning.js';
import { errR, okR, type R } from './result.js';
import { roll3d6 } from './roll.js';
import { numSetting, setting } from './settings.js';
import { defenseOf, getTsw, volitionOf, type Range, type Sheet } from './state.js';
import type { AttackPayload } from './declarations.js';
import type { TswEvent } from './events.js';

export const MAX_TARGETS = 20;

/** The damage event for `amount` points to `target`, with the HP outcome computed now and recorded. */
type Damaged = EventOf<TswEvent, '36th-way.damaged'>;

/** The fields a damage event carries besides the hit itself: who dealt it, why, and the roll. */
type DamageExtra = Partial<Pick<Damaged, 'sourceId' | 'reason' | 'base' | 'resisted' | 'resistAt' | 'types' | 'roll' | 'condition'>>;

export function damageEvent(world: World, target: Sheet, amount: number, extra: DamageExtra, crit = false): Damaged {
  const out = takeDamage(world, target, amount, crit);
  return {
    type: '36th-way.damaged',
    targetId: target.id,
    amount: Math.max(0, amount),
    crit,
    hpFrom: target.hp,
    hpTo: out.hp,
    dying: out.dying,
    dead: out.dead,
    unconscious: out.unconscious,
    ...extra,
  } satisfies TswEvent;
}

/** Apply a 36th-way.damaged event to a working copy of a sheet (so several hits in one command chain). */
export function sheetAfterDamage(s: Sheet, e: Damaged): Sheet {
  return { ...s, hp: e.hpTo, dying: e.dying ?? null, dead: e.dead === true, unconscious: e.unconscious === true };
}

type AttackKind = 'ability' | 'basic-melee' | 'basic-ranged' | 'opportunity';

interface Plan {
  readonly kind: AttackKind;
  readonly ability: AbilityEntry | null;
  readonly defense: Defense;
  readonly hit: DamageDice | null;
  readonly miss: DamageDice | null;
  readonly types: readonly string[];
  readonly mode: RollMode;
  readonly ranged: boolean;
  /** The ability's own attack bonus (0 otherwise). */
  readonly extraBonus: number;
  readonly rollAllFirst: boolean;
  /** The ability's bonus is a stat block's whole modifier (no Level or Volition added). */
  readonly wholeBonus: boolean;
}

/** Declared dice with the text's usual values for what is left out (no dice, d6, no bonus). */
const diceOf = (d: AttackPayload['damage'] & object): DamageDice => ({ count: d.count ?? 0, sides: d.sides ?? 6, bonus: d.bonus ?? 0 });

/** A stat block's first basic melee attack, which its opportunity attacks use (ADR 40); none: the basic melee attack. */
export function opportunityAttackOf(s: Sheet): AbilityEntry['attack'] {
  return Object.values(s.abilities).find((x) => x.attack?.wholeBonus === true && x.basic && !x.types.includes('ranged'))?.attack;
}

function planOf(world: World, s: Sheet, c: AttackPayload): R<Plan> {
  const { basic, opportunity: opp, ability: abilityId } = c;
  const defense: Defense = c.defense ?? 'ac';
  let types: string[] = c.types === undefined ? ['weapon'] : [...new Set(c.types)];
  // "Hit: X x Level + Volition", "Miss: none or Level" (002 "Basic Attacks").
  const basicDice = (stance: 'melee' | 'ranged'): { hit: DamageDice; miss: DamageDice | null } => ({
    hit: { count: s.level, sides: s.stanceDice[stance], bonus: volitionOf(s) },
    miss: s.basicMiss === 'level' ? { count: 0, sides: 1, bonus: s.level } : null,
  });
  let kind: AttackKind;
  let ability: AbilityEntry | null = null;
  let hit: DamageDice | null = null;
  let miss: DamageDice | null = null;
  let ranged = false;
  // A foe whose stat block gives its melee attack makes its opportunity attacks with it (its first listed attack, 002 "Hampered"; ADR 40).
  let fromBlock: AbilityEntry['attack'] = undefined;
  if (typeof opp === 'string') {
    kind = 'opportunity';
    fromBlock = opportunityAttackOf(s);
    if (fromBlock === undefined) ({ hit, miss } = basicDice('melee'));
    else {
      hit = fromBlock.hit;
      miss = fromBlock.miss === 'level' ? { count: 0, sides: 1, bonus: s.level } : fromBlock.miss === 'dice' ? fromBlock.missDice : null;
      if (c.types === undefined) types = [...fromBlock.types];
    }
  } else if (basic === 'melee' || basic === 'ranged') {
    kind = basic === 'melee' ? 'basic-melee' : 'basic-ranged';
    // 002 "Basic Melee/Ranged Attack": a basic attack always goes against AC (review 11: PD let a miss hit).
    if (c.defense !== undefined && c.defense !== 'ac') return errR('INVALID_VALUE', `a basic ${basic} attack goes against AC, not ${c.defense.toUpperCase()}: only an ability that names another defence attacks it`, 'defense');
    if (s.stance !== basic) return errR('WRONG_STANCE', `a basic ${basic} attack needs the ${basic} stance (${s.name} is in the ${s.stance} stance; switching is a quick action)`, 'basic');
    ({ hit, miss } = basicDice(basic));
    ranged = basic === 'ranged';
  } else if (typeof abilityId === 'string') {
    kind = 'ability';
    ability = s.abilities[abilityId] ?? null;
    if (ability === null) return errR('NOT_FOUND', `${s.name} has no ability "${abilityId}"`, 'ability');
    ranged = ability.types.includes('ranged');
    const atk = ability.attack;
    if (atk !== undefined) {
      // The entry says which defense it attacks (002 "Attacks": "as specified in the attack").
      if (c.defense !== undefined && c.defense !== atk.defense) return errR('INVALID_VALUE', `${ability.name} attacks ${atk.defense.toUpperCase()}, not ${c.defense.toUpperCase()}`, 'defense');
      if (c.types === undefined) types = [...atk.types];
      if (atk.asBasic) ({ hit, miss } = basicDice(ranged ? 'ranged' : 'melee'));
      else {
        hit = atk.hit;
        miss = atk.miss === 'level' ? { count: 0, sides: 1, bonus: s.level } : atk.miss === 'dice' ? atk.missDice : null;
      }
    }
  } else {
    return errR('INVALID_VALUE', 'an attack needs basic: "melee" | "ranged", ability: <id>, or opportunity: <provocation id>', 'ability');
  }
  // Explicit dice override the basic ones ("as a Basic Melee Attack" abilities leave them out).
  if (c.damage !== undefined) hit = diceOf(c.damage);
  const m = c.missDamage;
  if (m !== undefined) miss = m === 'none' || m === null ? null : m === 'level' ? { count: 0, sides: 1, bonus: s.level } : diceOf(m);
  if (kind === 'ability' && ability !== null && ability.basic && hit === null) {
    const b = basicDice(ranged ? 'ranged' : 'melee');
    hit = b.hit;
    miss = c.missDamage === undefined ? b.miss : miss;
  }
  // The schema knows the mode's shape; how many dice it may average or multiply depends on the dice.
  const mode = parseMode(c.mode, hit ?? { count: 0, sides: 6, bonus: 0 }, 'mode');
  if (!mode.ok) return mode;
  const atk = ability?.attack ?? fromBlock;
  return okR({ kind, ability, defense: atk?.defense ?? defense, hit, miss, types, mode: mode.value, ranged, extraBonus: atk?.bonus ?? 0, rollAllFirst: atk?.rollAllFirst === true, wholeBonus: atk?.wholeBonus === true });
}

/**
 * Decide a 36th-way.attack command: validation, action spending, one 3d6 per
 * target (optionally every attack roll before any damage), damage with crits,
 * resistance, weakness, vulnerability, Confused self-damage.
 */
export function decideAttack(kit: Kit, world: World, c: AttackPayload, rng: Rng): R<EngineEvent[]> {
  const att = needSheet(world, c.attackerId, 'attackerId');
  if (!att.ok) return att;
  const a = att.value;
  const unable = cannotAct(a, 'attackerId');
  if (unable !== null) return unable;
  const tl = c.targetIds;
  const targets: Sheet[] = [];
  for (let i = 0; i < tl.length; i++) {
    const t = needSheet(world, tl[i], `targetIds.${i}`);
    if (!t.ok) return t;
    if (t.value.id === a.id) return errR('BAD_TARGET', 'an attack cannot target the attacker', `targetIds.${i}`);
    if (targets.some((x) => x.id === t.value.id)) return errR('BAD_TARGET', `"${t.value.id}" is listed twice (one roll per target)`, `targetIds.${i}`);
    targets.push(t.value);
  }
  const bonus = c.bonus ?? 0;
  const situational = c.advantage ?? 0;
  const plan = planOf(world, a, c);
  if (!plan.ok) return plan;
  const onHit = c.onHit ?? [];
  for (let i = 0; i < onHit.length; i++) {
    const h = onHit[i]!;
    // The kit's conditions (and a duration's words) are the rules', not the schema's.
    if (!kit.rules.conditions.some((d) => d.id === h.condition)) return errR('INVALID_VALUE', `onHit[${i}].condition must be one of ${kit.rules.conditions.map((d) => d.id).join(', ')}`, `onHit[${i}].condition`);
    const d = parseDuration(h.duration);
    if (!d.ok) return errR(d.error.code, `onHit[${i}]: ${d.error.message}`, `onHit[${i}].duration`);
  }
  const p = plan.value;
  const enc = getEncounter(world);
  const fighting = inEncounter(world, a.id);
  const st = getTsw(world);
  const events: EngineEvent[] = [];
  const enforce = setting<boolean>(world, '36th-way.enforcePositions');
  const grabbed = hasCondition(world, a.id, 'grabbed');
  const coup = c.coupDeGrace === true;
  if (coup && p.kind === 'opportunity') return errR('INVALID_VALUE', 'a coup de grace is a standard-action attack, not an opportunity attack', 'coupDeGrace');

  // --- what kind of attack, and may it be made now
  if (p.kind === 'opportunity') {
    const prov = st.provocations.find((x) => x.id === c.opportunity);
    if (prov === undefined) return errR('NO_PROVOCATION', `no open provocation "${String(c.opportunity)}"`, 'opportunity');
    if (!prov.against.includes(a.id)) return errR('NOT_PROVOKED', `${a.name} is not entitled to an opportunity attack from that provocation`, 'opportunity');
    if (targets.length !== 1 || targets[0]!.id !== prov.by) return errR('BAD_TARGET', `an opportunity attack targets the one who provoked (${prov.by})`, 'targetIds');
    if (a.stance !== 'melee') return errR('WRONG_STANCE', 'opportunity attacks need the melee stance', 'attackerId');
    if (grabbed) return errR('GRABBED', `${a.name} is Grabbed and cannot make opportunity attacks`, 'attackerId');
    events.push({ type: '36th-way.opportunityTaken', provocationId: prov.id, attackerId: a.id, targetId: prov.by } satisfies TswEvent);
  }
  if (p.ranged && grabbed) return errR('GRABBED', `${a.name} is Grabbed and cannot use ranged attacks or spells`, 'attackerId');
  if (hasCondition(world, a.id, 'hampered') && p.kind === 'ability' && p.ability !== null && !p.ability.basic) {
    return errR('HAMPERED', `${a.name} is Hampered: only basic attacks and opportunity attacks`, 'ability');
  }
  if (p.ability !== null) {
    const why = cannotUse(p.ability, { escalation: escalationOf(kit, world, a), use: a.uses[p.ability.id], resources: a.resources, hampered: false });
    if (why !== null) return errR(why.code, why.message, 'ability');
  }
  const atk = p.ability?.attack;
  if (atk !== undefined && targets.length > atk.targets) return errR('BAD_TARGET', `${p.ability!.name} attacks at most ${atk.targets} target${atk.targets === 1 ? '' : 's'}`, 'targetIds');
  if (coup) {
    const t = targets[0]!;
    if (targets.length !== 1) return errR('COUP_DE_GRACE', 'a coup de grace targets only one enemy', 'targetIds');
    if (!hasCondition(world, t.id, 'helpless')) return errR('COUP_DE_GRACE', `${t.name} is not Helpless`, 'targetIds');
    if (rangeBetween(st, a.id, t.id) !== 'engaged') return errR('COUP_DE_GRACE', `${t.name} is not engaged with ${a.name}`, 'targetIds');
  }
  if (fighting && enforce) {
    for (const t of targets) {
      const r = rangeBetween(st, a.id, t.id);
      // (An opportunity attack's provocation already shows the two were engaged when it was provoked.)
      if (p.kind === 'basic-melee' && r !== 'engaged') return errR('OUT_OF_REACH', `${t.name} is not engaged with ${a.name} (basic melee attacks need an engaged target): ${reachAdvice('basic-melee', a)}`, 'targetIds');
      if (p.kind === 'basic-ranged' && !inReach(r, a.rangedReach)) return errR('OUT_OF_REACH', `${t.name} is ${r}: beyond the ranged stance's reach (${a.rangedReach}): ${reachAdvice('basic-ranged', a)}`, 'targetIds');
      if (atk !== undefined && !abilityReaches(atk.reach, a, r)) return errR('OUT_OF_REACH', `${t.name} is ${r}: beyond ${p.ability!.name}'s reach (${reachLabel(atk.reach, a)}): ${reachAdvice(atk.reach, a)}`, 'targetIds');
    }
  }

  // --- the action economy (only inside an encounter)
  if (fighting) {
    const kinds = coup ? ['standard', 'move', 'quick'] : p.kind === 'opportunity' ? ['free'] : [p.ability?.action ?? 'standard'];
    if (coup) {
      const e = kit.economy(world, a.id);
      for (const pool of kinds) {
        if (economyRemaining(kit.rules.economy, e, pool) < 1) return errR('COUP_DE_GRACE', `a coup de grace spends the standard, move and quick actions; no ${pool} action left`, 'attackerId');
      }
    }
    let w = world;
    for (const kind of kinds) {
      const s = kit.spend(w, a.id, coup ? { kind, label: 'coup de grace' } : { kind });
      if (!s.ok) return s;
      events.push(s.value);
      w = kit.module.reducers?.['economy.spent']?.(w, s.value) ?? w;
    }
  }
  if (p.ability !== null) events.push(abilityUsedEvent(a, p.ability));

  // --- provoking: abilities with Provokes, ranged attacks while engaged
  // Every engaged enemy may answer, the targets included.
  const engagedFoes = fighting ? engagedEnemies(world, a.id) : [];
  if (fighting && engagedFoes.length > 0 && (p.ability?.provokes === true || p.ranged)) {
    events.push(provokedEvent(world, a.id, engagedFoes, p.ability?.provokes === true ? `used ${p.ability.name}` : 'made a ranged attack while engaged', rng));
  }

  // --- one roll per target
  const working = new Map<string, Sheet>();
  const current = (id: string): Sheet => working.get(id) ?? own(getTsw(world).sheets, id)!;
  const rolls: { target: Sheet; ev: EngineEvent; natural: number; hit: boolean; crit: boolean; critFail: boolean; noEffect: boolean; critAt: number }[] = [];
  const escalation = escalationOf(kit, world, a);
  const confused = hasCondition(world, a.id, 'confused');
  const damageEvents = (r: (typeof rolls)[number]): EngineEvent[] => {
    const out: EngineEvent[] = [];
    if (r.noEffect || r.critFail) return out;
    const dice = r.hit ? p.hit : p.miss;
    if (dice === null) {
      // Confused, non-damaging attack: an 11+ save or take damage equal to tier.
      if (confused && p.hit === null) out.push(...confusedSave(kit, world, current(a.id), rng, 'made an attack that deals no damage'));
      return out;
    }
    const roll = rollDamage(dice, r.hit ? p.mode : { kind: 'all' }, rng);
    const t = current(r.target.id);
    const resistAt = resistThreshold(t.resist, p.types, world);
    const resisted = resistAt !== null && r.natural < resistAt;
    const amount = finalDamage(world, { base: roll.total, crit: r.crit, resisted });
    const ev = damageEvent(world, t, amount, { sourceId: a.id, reason: r.hit ? 'hit' : 'miss', base: roll.total, resisted, resistAt, types: [...p.types], roll: asJson(roll) }, r.crit);
    working.set(t.id, sheetAfterDamage(t, ev));
    out.push(stored(ev));
    if (confused) {
      const self = confusedSelfDamage(world, r.natural, roll.total);
      if (self > 0) {
        const me = current(a.id);
        const sev = damageEvent(world, me, self, { sourceId: a.id, reason: 'confused', base: roll.total, resisted: false, resistAt: null, types: [...p.types], roll: null });
        working.set(me.id, sheetAfterDamage(me, sev));
        out.push(stored(sev));
      }
    }
    return out;
  };
  // Conditions a hit inflicts ("Hit: ... and the target is Dazed (save ends)"), applied after that target's damage.
  let applied = 0;
  const hitEffects = (r: (typeof rolls)[number]): R<EngineEvent[]> => {
    if (!r.hit || !fighting) return okR([]);
    const out: EngineEvent[] = [];
    for (const h of onHit) {
      const e = kit.applyCondition(world, { target: r.target.id, condition: h.condition, duration: h.duration, source: a.id, ...(h.params !== undefined ? { params: h.params } : {}) }, rng, applied++);
      if (!e.ok) return errR(e.error.code, `onHit: ${e.error.message}`, 'onHit');
      out.push(e.value);
    }
    return okR(out);
  };
  const later: EngineEvent[] = [];
  const rollAllFirst = c.rollAllFirst === true || p.rollAllFirst;
  for (const t of targets) {
    let invisibleSave: Json = null;
    let noEffect = false;
    if (hasCondition(world, t.id, 'invisible')) {
      const save = roll3d6(rng, world, saveAdvantage(kit, world, a.id));
      const target = numSetting(world, '36th-way.invisibleSaveTarget');
      noEffect = save.natural < target;
      invisibleSave = { roll: asJson(save), target, success: !noEffect };
    }
    const net = attackAdvantage(kit, world, a.id, t.id) + situational;
    const roll = roll3d6(rng, world, net);
    const vulnerable = fighting && kit.netEffect(world, t.id, 'against.crit.range') > 0;
    const weak = isWeakTo(t.weak, p.types);
    const critAt = critThreshold(world, weak, vulnerable);
    // A stat block's "+7" already holds what Level and Volition stand for (002 "Attacks" for monsters).
    const volition = p.wholeBonus ? 0 : volitionOf(a);
    const level = p.wholeBonus ? 0 : a.level;
    const total = level + volition + escalation + bonus + p.extraBonus;
    const res = resolveAttack(world, { natural: roll.natural, bonus: total, defense: defenseOf(t, p.defense), critAt, autoCrit: coup });
    const ev: EngineEvent = {
      type: '36th-way.attackRolled',
      attackerId: a.id,
      targetId: t.id,
      kind: p.kind,
      ability: p.ability?.id ?? null,
      defense: p.defense,
      defenseValue: defenseOf(t, p.defense),
      roll: asJson(roll),
      parts: { level, volition, escalation, bonus: bonus + p.extraBonus },
      total: res.total,
      critAt,
      weak,
      vulnerable,
      hit: noEffect ? false : res.hit,
      crit: noEffect ? false : res.crit,
      critFail: noEffect ? false : res.critFail,
      coupDeGrace: coup,
      invisibleSave,
      noEffect,
    } satisfies TswEvent;
    const r = { target: t, ev, natural: roll.natural, hit: !noEffect && res.hit, crit: !noEffect && res.crit, critFail: !noEffect && res.critFail, noEffect, critAt };
    rolls.push(r);
    events.push(ev);
    if (rollAllFirst) continue;
    events.push(...damageEvents(r));
    const fx = hitEffects(r);
    if (!fx.ok) return fx;
    events.push(...fx.value);
  }
  if (rollAllFirst) {
    for (const r of rolls) {
      later.push(...damageEvents(r));
      const fx = hitEffects(r);
      if (!fx.ok) return fx;
      later.push(...fx.value);
    }
  }
  events.push(...later);
  if (rolls.some((r) => r.hit) && fighting) events.push({ type: '36th-way.hitRecorded', attackerId: a.id, targetIds: rolls.filter((r) => r.hit).map((r) => r.target.id), round: enc.round } satisfies TswEvent);
  return okR(events);
}

/** May an ability with this reach target someone at range `r`? ("Nearby" abilities also reach engaged characters; "stance" follows the stance.) */
export function abilityReaches(reach: AttackReach, s: Sheet, r: Range): boolean {
  if (reach === 'far') return true;
  if (reach === 'nearby') return r !== 'far';
  if (reach === 'engaged') return r === 'engaged';
  return s.stance === 'melee' ? r === 'engaged' : inReach(r, s.rangedReach);
}

/** What to do to bring a target within this reach, in words (review 9: a refusal said why, never what to do). */
export function reachAdvice(reach: AttackReach | 'basic-melee' | 'basic-ranged', s: Sheet): string {
  const melee = reach === 'engaged' || reach === 'basic-melee' || (reach === 'stance' && s.stance === 'melee');
  return melee ? 'move to engage it first' : 'move nearer first';
}

export function reachLabel(reach: AttackReach, s: Sheet): string {
  if (reach === 'stance') return s.stance === 'melee' ? 'engaged, melee stance' : `up to ${s.rangedReach}, ranged stance`;
  return reach === 'far' ? 'any range' : reach === 'nearby' ? 'nearby or engaged' : 'engaged';
}

export function abilityUsedEvent(s: Sheet, a: AbilityEntry): EngineEvent {
  return { type: '36th-way.abilityUsed', characterId: s.id, ability: a.id, name: a.name, expends: a.frequency.kind !== 'at-will', power: asJson(a.power), sustain: a.sustain } satisfies TswEvent;
}

export function provokedEvent(world: World, by: string, against: readonly string[], reason: string, rng: Rng): EngineEvent {
  const st = getTsw(world);
  // Only enemies in a melee stance may take the opportunity attack.
  const eligible = against.filter((x) => own(st.sheets, x)?.stance === 'melee' && !hasCondition(world, x, 'grabbed'));
  // A random id (ADR 18): a provocation by a hidden foe is not guessable from a visible one's; stored `prov<n>` ids still replay.
  const [id] = mintId(world, 'prov', rng);
  return { type: '36th-way.provoked', provocationId: id, characterId: by, against: eligible, reason, round: getEncounter(world).round } satisfies TswEvent;
}

/** 002 Confused: using a non-attack ability (or a non-damaging attack) needs an 11+ save, or you take damage equal to your tier. */
export function confusedSave(kit: Kit, world: World, s: Sheet, rng: Rng, what: string): EngineEvent[] {
  const save = roll3d6(rng, world, saveAdvantage(kit, world, s.id));
  const target = numSetting(world, '36th-way.confusedSaveTarget');
  const ok = save.natural >= target;
  const out: EngineEvent[] = [{ type: '36th-way.confusedSaveRolled', characterId: s.id, what, roll: asJson(save), target, success: ok } satisfies TswEvent];
  if (!ok) out.push(stored(damageEvent(world, s, s.tier, { sourceId: s.id, reason: 'confused', base: s.tier, resisted: false, resistAt: null, types: [], roll: null })));
  return out;
}
