// The 'teams' Module: sheets, attacks and the target's reaction, defence
// tests, damage, staying conscious, death, killing strike, and the Actions /
// Free Actions tables on the kernel's economy (003 "Actions in Combat").
import type { TeamsEvent } from './reducers.js';
import type { CommandHandler, EngineEvent, Env, Json, Module, PayloadOf, Projector, Reaction, Result, RuleError, Viewer, World } from '@tablekeeper/engine';
import { eventViewsOf, foeBasis, foeKeys, FOES_ID, getEncounter, handlerOf, pickKeys, playerTurnSerial, TEAMS_ACTIONS, teamsActionRequest, own } from '@tablekeeper/engine';
import * as D from './declarations.js';
import { damageCategory } from './damage.js';
import { asJson, Draft } from './draft.js';
import { COMBAT_SKILL, dealDamage, defenceBonus, effectiveReduction, intercept, isError, makeAttack, ordinaryTest, payReaction, resolveHit, sheetOf, type Defence } from './combat.js';
import { isFoe, TEAMS_EVENT_VIEW, TEAMS_REDUCERS, statusWords } from './reducers.js';
import { TEAMS_FOE_FIELDS } from './sheet-model.js';
import { rollJson } from './roll.js';
import { kit } from './rules.js';
import { boolSetting, killingStrikeRefuses, numSetting } from './settings.js';
import { LIMITS, parseSheet, type Item, type Sheet, type Weapon } from './sheet.js';
import { teamsQueries } from './queries.js';
import { attackFrom, creatureKey, MAX_ID, testFrom } from './input.js';
import { audienceOf, controlsCreature, getTeams, setTeams, TEAMS_ID, type PendingAttack, type TeamsState } from './state.js';

const MAX_DIFFICULTY = 1000;

const fail = (code: string, message: string, path?: string): Result<EngineEvent[]> => ({ ok: false, error: path === undefined ? { code, message } : { code, message, path } });
const okEvents = (d: Draft): Result<EngineEvent[]> => ({ ok: true, value: d.done() });

const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };
/** The GM, or the player of the creature a payload names (the declaration has parsed it: always an id). */
const controlling = (world: World, actor: Viewer, creatureId: string): RuleError | null => (controlsCreature(world, actor, creatureKey(world, creatureId)) ? null : FORBIDDEN);
/** For commands about a pending attack: whoever controls the attack's current target. */
const byTargetOf = (world: World, { attackId }: { readonly attackId: string }, actor: Viewer): RuleError | null => {
  const p = own(getTeams(world).pending, attackId);
  if (p === undefined) return actor.role === 'gm' ? null : FORBIDDEN;
  return controlsCreature(world, actor, p.target) ? null : FORBIDDEN;
};
const err = (e: RuleError): Result<EngineEvent[]> => ({ ok: false, error: e });

type TestPayload = Parameters<typeof testFrom>[0];

function defenceFrom(p: { readonly reaction?: 'none' | 'block' | 'parry' | 'dodge' | undefined; readonly item?: string | undefined; readonly test?: TestPayload | undefined }): Defence | RuleError {
  const r = p.reaction ?? 'none';
  if (r === 'none') return { kind: 'none' };
  if (r === 'block' || r === 'parry') return p.item === undefined ? { code: 'INVALID_VALUE', message: `item must be an id of 1-${MAX_ID} characters`, path: 'item' } : { kind: r, item: p.item };
  return p.test === undefined ? NO_TEST : { kind: 'dodge', test: testFrom(p.test) };
}
const NO_TEST: RuleError = { code: 'INVALID_VALUE', message: 'test must be { attribute, skill, proficiency?, bonus? }', path: 'test' };

/** Pay one action for `who`: a Command grant from the current actor, or their own economy. */
function payAction(d: Draft, who: string, commanded: boolean | undefined, extra: { [k: string]: Json } = {}): RuleError | null {
  const enc = getEncounter(d.world);
  if (!enc.active || own(enc.combatants, who) === undefined) return null;
  if (commanded === true) {
    const g = getTeams(d.world).commanded[who];
    if (g === undefined || g.by !== enc.current || g.serial !== enc.turnSerial) return { code: 'NOT_COMMANDED', message: `${who} has no Command to act on this turn`, path: 'commanded' };
    if (extra['cost'] !== undefined && extra['cost'] !== 1) return { code: 'NOT_COMMANDED', message: 'a Command grants one action', path: 'commanded' };
    d.emit({ type: 'teams.commandUsed', ally: who, by: g.by });
    return null;
  }
  const spent = kit.spend(d.world, who, { kind: 'action', ...extra });
  if (!spent.ok) return spent.error;
  d.emit(spent.value);
  return null;
}

// ---------------------------------------------------------------- commands

const commands: { [type: string]: CommandHandler } = {
  // Deprecated aliases of character.sheet.set/remove (ADR 39): the same events and, so undo and history read alike, the same labels.
  'teams.setSheet': handlerOf(D.setSheet, {
    label: 'set a character sheet',
    decide(world, p) {
      const who = creatureKey(world, p.characterId);
      const sheet = parseSheet(asJson(p.sheet), { metal: numSetting(world, 'teams.metalDurability'), other: numSetting(world, 'teams.otherDurability') }, numSetting(world, 'teams.deathDifficulty'));
      // One error dialect, as character.sheet.set answers: a malformed sheet is INVALID_VALUE.
      if (!sheet.ok) return sheet.error.code === 'BAD_SHEET' ? { ok: false, error: { ...sheet.error, code: 'INVALID_VALUE' } } : sheet;
      const events: EngineEvent[] = [{ type: 'teams.sheetSet', id: who, sheet: asJson(sheet.value) }];
      const enc = getEncounter(world);
      if (enc.active && own(enc.combatants, who) !== undefined) events.push({ type: 'encounter.incapacitatedSet', id: who, value: !sheet.value.conscious || sheet.value.dead });
      return { ok: true, value: events };
    },
  }),
  'teams.removeSheet': handlerOf(D.removeSheet, {
    label: 'remove a sheet',
    decide(world, p) {
      const who = creatureKey(world, p.characterId);
      if (own(getTeams(world).sheets, who) === undefined) return fail('NOT_FOUND', `no sheet for "${who}"`, 'characterId');
      return { ok: true, value: [{ type: 'teams.sheetRemoved', id: who }] };
    },
  }),
  /** GM sets a track (recovery, rests and healing are outside the excerpt). */
  'teams.setTrack': handlerOf(D.setTrack, {
    decide(world, { characterId, field, value }) {
      const who = creatureKey(world, characterId);
      const sh = sheetOf(world, who, 'characterId');
      if (isError(sh)) return err(sh);
      const max: { readonly [k in typeof field]: number } = { endurance: sh.maxEndurance, health: sh.maxHealth, stamina: sh.maxStamina, focus: sh.maxFocus, deathDifficulty: MAX_DIFFICULTY };
      const min = field === 'deathDifficulty' ? 1 : 0;
      if (value < min || value > max[field]) return fail('INVALID_VALUE', `value must be an integer in [${min}, ${max[field]}]`, 'value');
      return { ok: true, value: [{ type: 'teams.restored', id: who, field, from: sh[field], to: value }] };
    },
  }),
  'teams.attack': handlerOf(D.attack, {
    authorize: (world, p, actor) => controlling(world, actor, p.attackerId),
    decide(world, p, env) {
      const a = attackFrom(world, p);
      const d = new Draft(world, env.rng);
      const att = sheetOf(world, a.attacker, 'attackerId');
      if (isError(att)) return err(att);
      if (!att.conscious || att.dead) return fail('UNABLE', `${att.name} cannot attack while ${att.dead ? 'dead' : 'unconscious'}`, 'attackerId');
      // A readied attack is taken as the reaction it was declared as.
      const paid = p.readied === true ? readiedTaken(d, a.attacker, p.beforeId) : payAction(d, a.attacker, p.commanded);
      if (paid !== null) return err(paid);
      const r = makeAttack(d, a);
      return r === null ? okEvents(d) : err(r);
    },
  }),
  'teams.defend': handlerOf(D.defend, {
    authorize: byTargetOf,
    decide(world, p, env) {
      const pending = own(getTeams(world).pending, p.attackId);
      if (pending === undefined) return fail('NO_PENDING_ATTACK', `no attack "${p.attackId}" is waiting for a reaction`, 'attackId');
      const def = defenceFrom(p);
      if (isError(def)) return err(def);
      const d = new Draft(world, env.rng);
      const r = resolveHit(d, pending, def);
      return r === null ? okEvents(d) : err(r);
    },
  }),
  'teams.intercept': handlerOf(D.intercept, {
    authorize: (world, p, actor) => controlling(world, actor, p.interceptorId),
    decide(world, p, env) {
      const pending = own(getTeams(world).pending, p.attackId);
      if (pending === undefined) return fail('NO_PENDING_ATTACK', `no attack "${p.attackId}" is waiting for a reaction`, 'attackId');
      if (pending.intercepted !== null) return fail('ALREADY_INTERCEPTED', 'this attack was already intercepted', 'attackId');
      const d = new Draft(world, env.rng);
      const r = intercept(d, pending, creatureKey(world, p.interceptorId));
      return r === null ? okEvents(d) : err(r);
    },
  }),
  'teams.stayConscious': handlerOf(D.stayConscious, {
    authorize: (world, p, actor) => controlling(world, actor, p.characterId),
    decide(world, p, env) {
      const who = creatureKey(world, p.characterId);
      const risk = getTeams(world).atRisk[who];
      if (risk === undefined) return fail('NOT_AT_RISK', `${who} does not need to fortify to stay conscious`, 'characterId');
      const d = new Draft(world, env.rng);
      if (p.fortify !== true) {
        d.emit({ type: 'teams.fellUnconscious', id: who, reason: 'chose not to fortify' });
        d.incapacitate(who, true);
        return okEvents(d);
      }
      if (p.test === undefined) return err(NO_TEST);
      const sh = own(getTeams(world).sheets, who)!;
      const paid = payReaction(d, who, 'stamina', 'fortify', false);
      if (paid !== null) return err(paid);
      const roll = ordinaryTest(d, sh, testFrom(p.test), 0, defenceBonus(world, who));
      if (isError(roll)) return err(roll);
      const success = roll.total >= risk.difficulty;
      d.emit({ type: 'teams.fortified', id: who, roll: rollJson(roll), difficulty: risk.difficulty, success });
      if (!success) {
        d.emit({ type: 'teams.fellUnconscious', id: who, reason: 'failed to fortify' });
        d.incapacitate(who, true);
      }
      return okEvents(d);
    },
  }),
  /** A defence test against an effect (fortify: physical, resist: mental, dodge: anything to avoid) at a difficulty the GM names. */
  'teams.react': handlerOf(D.react, {
    authorize: (world, p, actor) => controlling(world, actor, p.characterId),
    decide(world, { characterId, reaction, difficulty, test }, env) {
      const who = creatureKey(world, characterId);
      const sh = sheetOf(world, who, 'characterId');
      if (isError(sh)) return err(sh);
      const d = new Draft(world, env.rng);
      const paid = payReaction(d, who, reaction === 'resist' ? 'focus' : 'stamina', reaction, false);
      if (paid !== null) return err(paid);
      const roll = ordinaryTest(d, sh, testFrom(test), 0, defenceBonus(world, who));
      if (isError(roll)) return err(roll);
      d.emit({ type: 'teams.tested', id: who, label: reaction, roll: rollJson(roll), difficulty, success: roll.total >= difficulty });
      return okEvents(d);
    },
  }),
  /** Damage from any source (a trap, a fall): reduced by the matching deflection unless `reduce: false`. */
  'teams.damage': handlerOf(D.damage, {
    decide(world, p, env) {
      const who = creatureKey(world, p.targetId);
      const sh = sheetOf(world, who, 'targetId');
      if (isError(sh)) return err(sh);
      const type = p.damageType ?? null;
      const cat = damageCategory(type);
      if (cat === null) return fail('INVALID_VALUE', `unknown damage type "${String(type)}"`, 'damageType');
      const d = new Draft(world, env.rng);
      const dealt = p.reduce === false || cat === 'typeless' ? p.amount : Math.max(1, p.amount - effectiveReduction(world, who, sh, cat, null));
      dealDamage(d, who, dealt, type, p.nonlethal === true, null, p.amount);
      return okEvents(d);
    },
  }),
  'teams.act': handlerOf(D.act, {
    authorize: (world, p, actor) => controlling(world, actor, p.characterId),
    decide: act,
  }),
  'teams.killingStrike': handlerOf(D.killingStrike, {
    authorize: (world, p, actor) => controlling(world, actor, p.attackerId),
    decide: killingStrike,
  }),
  /** A readied (non-attack) action is taken: it uses the reaction. */
  'teams.triggerReady': handlerOf(D.triggerReady, {
    authorize: (world, p, actor) => controlling(world, actor, p.characterId),
    decide(world, p, env) {
      const who = creatureKey(world, p.characterId);
      // A readied attack is rolled as the attack (teams.attack with readied), never taken with no roll.
      if (own(getEncounter(world).combatants, who)?.readied?.action === 'Attack') return fail('READIED_ATTACK', 'a readied attack is taken by rolling the attack itself (Attack, as the reaction), not here', 'characterId');
      const d = new Draft(world, env.rng);
      const r = readiedTaken(d, who, p.beforeId);
      return r === null ? okEvents(d) : err(r);
    },
  }),
};

/** The readied action is taken: spend the reaction and clear it (003 "Ready an Action"); `beforeId` names whose turn it interrupts. */
function readiedTaken(d: Draft, who: string, beforeId: string | undefined): RuleError | null {
  const enc = getEncounter(d.world);
  const comb = own(enc.combatants, who);
  if (!enc.active || comb === undefined) return { code: 'NO_ENCOUNTER', message: 'readied actions exist only in an encounter' };
  if (comb.readied === null) return { code: 'NOT_READIED', message: `${who} has no readied action`, path: 'readied' };
  const before = beforeId === undefined ? undefined : creatureKey(d.world, beforeId);
  const spent = kit.spend(d.world, who, { kind: 'reaction' });
  if (!spent.ok) return spent.error;
  d.emit(spent.value);
  d.emit({ type: 'encounter.readyTaken', id: who, before: before ?? enc.current ?? who, action: comb.readied.action, placement: null, forNextTurn: false });
  return null;
}

// ---------------------------------------------------------------- the action table

function act(world: World, c: PayloadOf<typeof D.act>, env: Env): Result<EngineEvent[]> {
  const who = creatureKey(world, c.characterId);
  const enc = getEncounter(world);
  if (!enc.active || own(enc.combatants, who) === undefined) return fail('NO_ENCOUNTER', `${who} is not in a running encounter`, 'characterId');
  const name = c.action;
  const row = TEAMS_ACTIONS.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (row === undefined) return fail('UNKNOWN_ACTION', `action must be one of ${TEAMS_ACTIONS.filter((r) => r.kind !== 'reaction' && r.name !== 'Attack').map((r) => r.name).join(', ')}`, 'action');
  if (row.name === 'Attack') return fail('USE_ATTACK', 'attacks are made with teams.attack', 'action');
  if (row.kind === 'reaction') return fail('USE_REACTION', 'reactions are taken with teams.defend, teams.intercept, teams.react or teams.stayConscious', 'action');
  const sh = own(getTeams(world).sheets, who);
  if (sh !== undefined && (!sh.conscious || sh.dead)) return fail('UNABLE', `${sh.name} cannot act while ${sh.dead ? 'dead' : 'unconscious'}`, 'characterId');
  const target = c.targetId === undefined ? undefined : creatureKey(world, c.targetId);
  const d = new Draft(world, env.rng);

  // Preconditions and resource costs checked before paying the action.
  const cost = numSetting(world, 'teams.reactionCost');
  if (row.name === 'Command') {
    if (target === undefined || own(enc.combatants, target) === undefined || target === who) return fail('BAD_TARGET', 'Command needs an ally in the encounter (not yourself)', 'targetId');
    if (own(enc.combatants, target)!.side !== own(enc.combatants, who)!.side) return fail('BAD_TARGET', 'Command gives an action to an ally on your team', 'targetId');
  }
  if (row.name === 'Resuscitate') {
    if (target === undefined) return fail('BAD_TARGET', 'Resuscitate needs a target', 'targetId');
    const t = sheetOf(world, target, 'targetId');
    if (isError(t)) return err(t);
    if (t.dead) return fail('DEAD', `${t.name} is dead`, 'targetId');
    if (t.conscious) return fail('CONSCIOUS', `${t.name} is conscious already`, 'targetId');
  }
  const items = c.items;
  if (row.name === 'Brandish') {
    if (sh === undefined) return fail('NOT_FOUND', `no sheet for "${who}"`, 'characterId');
    // 003 "Brandish" sets no number of items in hand: any of the character's items, as the sheet's Wielded takes them.
    if (items === undefined || items.length > LIMITS.items || !items.every((i) => own(sh.items, i) !== undefined)) {
      return fail('INVALID_VALUE', `items must list ${sh.name}'s items (at most ${LIMITS.items}, as the sheet's Wielded)`, 'items');
    }
  }
  if (row.name === 'Drop Item' && (c.item === undefined || sh === undefined || !sh.wielded.includes(c.item))) return fail('INVALID_VALUE', 'item must be a wielded item id', 'item');
  if (row.name === 'Stand Up' && !Object.values(enc.conditions).some((i) => i.target === who && i.defId === 'prone')) return fail('NOT_PRONE', `${who} is not prone`, 'action');

  // Pay: a Command grant (one single action that does not end the turn), or the economy.
  const req = teamsActionRequest(row.name, enc.current === who, target)!;
  if (c.commanded === true && (row.cost !== 1 || row.kind !== 'action' || row.endsTurn === true || row.name === 'Command')) {
    return fail('NOT_COMMANDED', 'a Command grants one single action that does not end a turn (and cannot pass the command on)', 'commanded');
  }
  const paid = payAction(d, who, c.commanded, { kind: req.kind, cost: req.cost, ...(req.tag !== undefined ? { tag: req.tag, limit: 'turn' } : {}), ...(req.label !== undefined ? { label: req.label } : {}), ...(req.requires !== undefined ? { requires: req.requires } : {}) });
  if (paid !== null) return err(paid);
  const spent = d.events.find((e) => e.type === 'economy.spent');
  const ext = spent?.['extended'];
  // An action longer than what is left: only the time is spent now; the effect comes when it completes.
  if (ext !== null && ext !== undefined && typeof ext === 'object' && !Array.isArray(ext)) {
    d.emit({ type: 'teams.acted', id: who, action: row.name, extended: true, remaining: Number(ext['remaining']), ...(target !== undefined ? { target } : {}) });
    return okEvents(d);
  }
  if (row.name === 'Sprint' || row.name === 'Command') {
    const resource = row.name === 'Sprint' ? 'stamina' : 'focus';
    const need = row.name === 'Sprint' ? cost : numSetting(world, 'teams.commandFocus');
    if (sh === undefined) return fail('NOT_FOUND', `no sheet for "${who}"`, 'characterId');
    const have = sh[resource];
    if (have < need) return fail(resource === 'focus' ? 'NO_FOCUS' : 'NO_STAMINA', `${row.name} needs ${need} ${resource} (${sh.name} has ${have})`, resource);
    if (need > 0) d.emit({ type: 'teams.resourceSpent', id: who, resource, n: need, from: have, to: have - need, for: row.name });
  }
  d.emit({ type: 'teams.acted', id: who, action: row.name, extended: false, ...(target !== undefined ? { target } : {}) });
  const applyCond = (condition: string, duration: Json): RuleError | null => {
    const ev = kit.applyCondition(d.world, { target: who, condition, duration, source: who }, d.rng);
    if (!ev.ok) return ev.error;
    d.emit(ev.value);
    return null;
  };
  const untilNextTurn = { kind: 'turnStart', of: who };
  let problem: RuleError | null = null;
  switch (row.name) {
    case 'Guard':
      problem = applyCond('guarding', untilNextTurn);
      break;
    case 'Seek Cover':
      problem = applyCond('in-cover', untilNextTurn);
      break;
    case 'Drop Prone':
      problem = applyCond('prone', { kind: 'indefinite' });
      break;
    case 'Stand Up':
      for (const inst of Object.values(getEncounter(d.world).conditions)) if (inst.target === who && inst.defId === 'prone') d.emit({ type: 'condition.removed', id: inst.id, target: who });
      break;
    case 'Wait':
      d.emit({ type: 'economy.granted', combatant: who, pool: 'reaction', n: 1 });
      break;
    case 'Ready an Action': {
      const action = c.readiedAction;
      const trigger = c.trigger;
      if (action === undefined || action.length === 0) return fail('INVALID_VALUE', 'readiedAction must name the action (1-80 characters)', 'readiedAction');
      if (trigger === undefined || trigger.length === 0) return fail('INVALID_VALUE', 'trigger must describe the trigger (1-200 characters)', 'trigger');
      d.emit({ type: 'encounter.readied', id: who, action, trigger, round: enc.round });
      break;
    }
    case 'Command':
      d.emit({ type: 'teams.commanded', by: who, ally: String(target) });
      break;
    case 'Brandish':
      d.emit({ type: 'teams.brandished', id: who, items: asJson(items) });
      break;
    case 'Drop Item':
      d.emit({ type: 'teams.dropped', id: who, item: String(c.item) });
      break;
    case 'Resuscitate': {
      // Go prone, then test to bring them round.
      problem = applyCond('prone', { kind: 'indefinite' });
      if (problem !== null) break;
      problem = testAction(d, who, c, (roll, difficulty, success) => {
        d.emit({ type: 'teams.revived', by: who, target: String(target), roll, difficulty, success });
        if (success) d.incapacitate(String(target), false);
      }, numSetting(world, 'teams.resuscitateDifficulty'));
      break;
    }
    case 'Short Task':
      if (c.test !== undefined) {
        problem = testAction(d, who, c, (roll, difficulty, success) => {
          d.emit({ type: 'teams.tested', id: who, label: c.label === undefined ? 'short task' : c.label.slice(0, 80), roll, difficulty, success });
        }, null);
      }
      break;
    default:
      break;
  }
  if (problem !== null) return err(problem);
  if (row.endsTurn === true && getEncounter(d.world).current === who) {
    const e2 = getEncounter(d.world);
    d.later({ type: 'encounter.turnEnded', id: who, round: e2.round });
  }
  return okEvents(d);
}

function testAction(d: Draft, who: string, c: { readonly test?: TestPayload | undefined; readonly difficulty?: number | undefined }, then: (roll: Json, difficulty: number, success: boolean) => void, dflt: number | null): RuleError | null {
  const sh = own(getTeams(d.world).sheets, who);
  if (sh === undefined) return { code: 'NOT_FOUND', message: `no sheet for "${who}"`, path: 'characterId' };
  if (c.test === undefined) return NO_TEST;
  const difficulty = c.difficulty ?? dflt;
  if (difficulty === null) return { code: 'INVALID_VALUE', message: `difficulty must be an integer in [0, ${MAX_DIFFICULTY}]`, path: 'difficulty' };
  const roll = ordinaryTest(d, sh, testFrom(c.test), 0, 0);
  if (isError(roll)) return roll;
  then(rollJson(roll), difficulty, roll.total >= difficulty);
  return null;
}

// ---------------------------------------------------------------- killing strike

function killingStrike(world: World, p: PayloadOf<typeof D.killingStrike>, env: Env): Result<EngineEvent[]> {
  const a = attackFrom(world, p);
  const att = sheetOf(world, a.attacker, 'attackerId');
  if (isError(att)) return err(att);
  const tgt = sheetOf(world, a.target, 'targetId');
  if (isError(tgt)) return err(tgt);
  if (!att.conscious || att.dead) return fail('UNABLE', `${att.name} cannot act`, 'attackerId');
  if (tgt.dead) return fail('DEAD', `${tgt.name} is already dead`, 'targetId');
  if (tgt.conscious) return fail('CONSCIOUS', `a killing strike needs an unconscious target; ${tgt.name} is conscious`, 'targetId');
  const item = own(att.items, a.weapon);
  if (item === undefined || item.weapon === null) return fail('NOT_A_WEAPON', `${att.name} has no weapon "${a.weapon}"`, 'weapon');
  const refused = killingStrikeRefuses(world, item.weapon.nonlethal);
  if (refused !== null) return fail(refused === 'nonlethal' ? 'NONLETHAL' : 'LETHAL', refused === 'nonlethal' ? `${item.name} is nonlethal, and this table's rules allow only lethal weapons for a killing strike` : `${item.name} is not nonlethal, and this table's rules allow only nonlethal weapons for a killing strike`, 'weapon');
  const attribute = (a.attribute ?? item.weapon.attributes[0]!).toLowerCase();
  if (!item.weapon.attributes.includes(attribute)) return fail('BAD_ATTRIBUTE', `${item.name} uses ${item.weapon.attributes.join(' or ')}`, 'attribute');
  const d = new Draft(world, env.rng);
  const enc = getEncounter(world);
  if (enc.active && own(enc.combatants, a.attacker) !== undefined) {
    const spent = kit.spend(d.world, a.attacker, { kind: 'action', cost: numSetting(world, 'teams.killingStrikeActions'), label: 'Killing Strike' });
    if (!spent.ok) return spent;
    d.emit(spent.value);
    const ext = spent.value['extended'];
    if (ext !== null && ext !== undefined) {
      d.emit({ type: 'teams.acted', id: a.attacker, action: 'Killing Strike', extended: true, remaining: Number((ext as { remaining: number }).remaining), target: a.target });
      return okEvents(d);
    }
  }
  // A test with advantage: the weapon's attribute die and the combat skill against the constitution.
  const roll = ordinaryTest(d, att, { attribute, skill: COMBAT_SKILL }, 1, 0);
  if (isError(roll)) return err(roll);
  const difficulty = tgt.constitution;
  if (roll.total >= difficulty) {
    d.emit({ type: 'teams.killed', attacker: a.attacker, target: a.target, roll: rollJson(roll), difficulty });
    d.incapacitate(a.target, true);
    return okEvents(d);
  }
  d.emit({ type: 'teams.killingStrikeFailed', attacker: a.attacker, target: a.target, roll: rollJson(roll), difficulty });
  const r = makeAttack(d, { ...a, sneak: true, flank: false, nearby: [] });
  return r === null ? okEvents(d) : err(r);
}

// ---------------------------------------------------------------- views and audiences

/**
 * Default-deny (ADR 10): players see a sheet only when its audience is known
 * to include them: from its combatant (hidden: nothing; veiled or secret: name
 * and status words), else from its character, else from the sheet's own
 * secret flag. A combatant that left while hidden stays hidden (hiddenGone).
 * Per-combatant bookkeeping shows only for combatants in the player's roster.
 */
/** Who a player is shown, judged on the unprojected world (this projector may run before the kernel's, by module order). */
function teamsAudience(source: World) {
  const full = getEncounter(source);
  const gone = new Set(full.hiddenGone ?? []);
  const combatant = (x: string) => (Object.hasOwn(full.combatants, x) && full.roster.includes(x) ? own(full.combatants, x)! : undefined);
  const inView = (x: string): boolean => {
    const c = combatant(x);
    return c !== undefined && c.visibility !== 'hidden';
  };
  const tierOf = (k: string, sh: { readonly secret?: boolean; readonly characterId: string | null }): 'none' | 'status' | 'full' => {
    const c = combatant(k);
    if (c !== undefined) return c.visibility === 'hidden' ? 'none' : c.visibility === 'visible' && sh.secret !== true ? 'full' : 'status';
    if (gone.has(k) || Object.hasOwn(full.combatants, k)) return 'none';
    // Out of any fight: the sheet's character (by key or by its characterId) decides; an unowned sheet is the GM's.
    const chId = Object.hasOwn(source.characters, k) ? k : sh.characterId;
    const ch = chId !== null && Object.hasOwn(source.characters, chId) ? own(source.characters, chId)! : undefined;
    return ch === undefined || ch.visibility === 'hidden' ? 'none' : ch.visibility === 'visible' && sh.secret !== true ? 'full' : 'status';
  };
  return { full, combatant, inView, tierOf };
}

/**
 * A fortify-or-fall choice reaches the players who read its creature's sheet: in a fight the combatant's
 * visibility decides, between fights the character's (ADR 112); a choice with no sheet is the GM's.
 */
function atRiskInView(st: TeamsState, tierOf: ReturnType<typeof teamsAudience>['tierOf']): (k: string) => boolean {
  return (k) => {
    const sh = own(st.sheets, k);
    return sh !== undefined && tierOf(k, sh) !== 'none';
  };
}

/** A numbers table (attribute dice, skills, proficiencies) as players read it: its numbers only. */
const numbers = (m: { readonly [k: string]: number }): { [k: string]: number } => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number'));

const shownWeapon = (w: Weapon): Weapon => ({
  attributes: w.attributes.filter((a) => typeof a === 'string'),
  proficiencies: w.proficiencies.filter((a) => typeof a === 'string'),
  damage: w.damage,
  criticalDamage: w.criticalDamage,
  criticalThreshold: w.criticalThreshold,
  damageType: w.damageType,
  delivery: w.delivery,
  nonlethal: w.nonlethal,
});

const shownItem = (i: Item): Item => ({
  name: i.name,
  metal: i.metal,
  durability: i.durability,
  maxDurability: i.maxDurability,
  block: i.block,
  parry: i.parry,
  weapon: i.weapon === null ? null : shownWeapon(i.weapon),
});

/** A sheet shown in full, field by field (ADR 25): a field this list does not name stays with the GM. */
function shownSheet(sh: Sheet): Sheet {
  const items: { [id: string]: Item } = {};
  for (const [id, item] of Object.entries(sh.items)) if (item !== null && typeof item === 'object') items[id] = shownItem(item);
  return {
    name: sh.name,
    characterId: sh.characterId,
    attributes: numbers(sh.attributes),
    skills: numbers(sh.skills),
    proficiencies: numbers(sh.proficiencies),
    evasion: sh.evasion,
    deflection: { physical: sh.deflection.physical, elemental: sh.deflection.elemental },
    size: sh.size,
    luck: sh.luck,
    constitution: sh.constitution,
    endurance: sh.endurance,
    maxEndurance: sh.maxEndurance,
    health: sh.health,
    maxHealth: sh.maxHealth,
    stamina: sh.stamina,
    maxStamina: sh.maxStamina,
    focus: sh.focus,
    maxFocus: sh.maxFocus,
    items,
    wielded: sh.wielded.filter((w) => typeof w === 'string'),
    secret: sh.secret,
    conscious: sh.conscious,
    dead: sh.dead,
    deathDifficulty: sh.deathDifficulty,
  };
}

/** A pending attack as its target's side reads it; from an unseen attacker, who and with what stay unnamed. */
function shownAttack(a: PendingAttack, attackerShown: boolean): PendingAttack {
  return {
    id: a.id,
    attacker: attackerShown ? a.attacker : '',
    target: a.target,
    weapon: attackerShown ? a.weapon : '',
    result: a.result,
    luck: a.luck,
    critical: a.critical,
    weaponDamage: a.weaponDamage,
    damageType: a.damageType,
    nonlethal: a.nonlethal,
    ranged: a.ranged,
    freeReaction: a.freeReaction,
    intercepted: a.intercepted,
  };
}

/** A foe's sheet as players read it (ADR 33): declared keys only; the tables it keeps from them read as empty. */
function foeSheet(sh: Sheet, keys: ReadonlySet<string> | null): Json {
  const whole = asJson(sh) as { readonly [k: string]: Json };
  if (keys === null) return whole;
  return { attributes: {}, skills: {}, proficiencies: {}, items: {}, wielded: [], ...pickKeys(whole, keys) } as Json;
}

const project: Projector = (world, viewer, source = world) => {
  if (viewer.role === 'gm') return world;
  const st = getTeams(world);
  const { full, combatant, inView, tierOf } = teamsAudience(source);
  const keys = foeKeys(source, viewer, TEAMS_FOE_FIELDS);
  const sheets: { [id: string]: Json } = {};
  for (const [k, sh] of Object.entries(st.sheets)) {
    const tier = tierOf(k, sh);
    if (tier === 'none') continue;
    sheets[k] = tier === 'status' ? { name: combatant(k)?.visibility === 'existence' ? 'Unknown' : sh.name, secret: true, status: statusWords(sh) } : isFoe(source, k) ? foeSheet(shownSheet(sh), keys) : asJson(shownSheet(sh));
  }
  const atRiskShown = atRiskInView(st, tierOf);
  const keep = <T extends object>(o: { readonly [k: string]: T }, ids: (v: T, k: string) => string[]): { [k: string]: T } =>
    Object.fromEntries(Object.entries(o).filter(([k, v]) => ids(v, k).every(inView)));
  return setTeams(world, {
    sheets: sheets as unknown as typeof st.sheets,
    attackCounts: Object.fromEntries(Object.entries(keep(st.attackCounts, (_v, k) => [k])).map(([k, v]) => [k, { round: v.round, ...(v.encounter !== undefined ? { encounter: v.encounter } : {}), count: v.count }])),
    // An attack on someone the player sees waits for their reaction even from an unseen attacker: who and with what stay unnamed.
    pending: Object.fromEntries(
      Object.entries(st.pending)
        .filter(([, v]) => inView(v.target) && (v.intercepted === null || inView(v.intercepted)))
        .map(([k, v]) => [k, shownAttack(v, inView(v.attacker) && combatant(v.attacker)!.visibility === 'visible')]),
    ),
    // A foe's fortify difficulty comes from its constitution (ADR 33): players learn that it is at risk, with no number (ADR 45).
    // Shown with its sheet, so a choice raised between fights reaches the phone too (ADR 112).
    atRisk: Object.fromEntries(Object.entries(st.atRisk).filter(([k]) => atRiskShown(k)).map(([k, v]) => [k, keys !== null && isFoe(source, k) ? {} : { difficulty: v.difficulty }])) as typeof st.atRisk,
    // Turn numbers as the kernel shows them to players: hidden turns are not counted.
    commanded: Object.fromEntries(Object.entries(keep(st.commanded, (v, k) => [k, v.by])).map(([k, v]) => [k, { by: v.by, serial: playerTurnSerial(full, v.serial) }])),
  });
};

/** The projector's rule for one id (ADR 18): sheets by their tier, bookkeeping by the combatants it names, a pending attack by its target. */
const idStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
  const st = getTeams(world);
  const sheet = own(st.sheets, id);
  const pending = own(st.pending, id);
  const commanded = own(st.commanded, id);
  const byCombatant = own(st.attackCounts, id) !== undefined;
  const atRisk = own(st.atRisk, id) !== undefined;
  if (sheet === undefined && pending === undefined && commanded === undefined && !byCombatant && !atRisk) return undefined;
  if (viewer.role === 'gm') return 'shown';
  const { inView, tierOf } = teamsAudience(world);
  if (sheet !== undefined && tierOf(id, sheet) !== 'none') return 'shown';
  if (atRisk && atRiskInView(st, tierOf)(id)) return 'shown';
  if (pending !== undefined && inView(pending.target) && (pending.intercepted === null || inView(pending.intercepted))) return 'shown';
  if (byCombatant && inView(id)) return 'shown';
  if (commanded !== undefined && inView(id) && inView(commanded.by)) return 'shown';
  return 'hidden';
};

const IDS = ['id', 'attacker', 'target', 'intended', 'by', 'from', 'ally'];
const eventAudience = (world: World, e: EngineEvent) => audienceOf(world, IDS.map((k) => (typeof e[k] === 'string' ? (e[k] as string) : null)));

/**
 * At the end of a turn (setting teams.hitsLandAtTurnEnd) and always at the end
 * of the encounter: hits nobody answered land with no reaction, and a
 * fortify-or-fall choice nobody answered falls, if its creature is in the fight.
 */
const landHits: Reaction = (world, e, env) => {
  // The end of the fight always settles them (review 10: a goblin's unanswered hit from the last fight landed in the
  // next one): 003 takes a reaction in the moment of the attack, so a hit nobody answered before the end lands bare.
  const ended = e.type === 'encounter.ended';
  if (!ended && (e.type !== 'encounter.turnEnded' || !boolSetting(world, 'teams.hitsLandAtTurnEnd'))) return [];
  const st = getTeams(world);
  const pending = Object.values(st.pending).sort((a, b) => (a.id < b.id ? -1 : 1));
  // A choice raised between fights for someone this fight never had waits on (ADR 112): its prompt shows between fights.
  const inFight = (id: string) => Object.hasOwn(getEncounter(world).combatants, id);
  if (pending.length === 0 && !Object.keys(st.atRisk).some(inFight)) return [];
  const d = new Draft(world, env.rng);
  for (const p of pending) {
    const live = own(getTeams(d.world).pending, p.id);
    if (live !== undefined) resolveHit(d, live, { kind: 'none' });
  }
  for (const id of Object.keys(getTeams(d.world).atRisk).filter(inFight).sort()) d.emit({ type: 'teams.fellUnconscious', id, reason: ended ? 'did not fortify before the fight ended' : 'did not fortify in time' });
  // No incapacitation flags here: the kernel would start the next turn before closing this one.
  // The sheet already makes a knocked-out combatant unable (canAct), so the order stays right.
  return d.done().filter((x) => x.type !== 'encounter.incapacitatedSet');
};

export const teamsModule: Module = {
  id: TEAMS_ID,
  commands,
  reducers: TEAMS_REDUCERS,
  reactions: [landHits],
  project,
  projectReads: { reads: [`ext.${TEAMS_ID}`, 'characters', 'seats', 'ext.encounter', `ext.${FOES_ID}`], writes: [`ext.${TEAMS_ID}`] },
  idStatus,
  queries: teamsQueries,
  eventView: {
    ...TEAMS_EVENT_VIEW,
    // A foe's sheet in history as in the state (ADR 33): its declared keys only. A foe made from a stat block
    // brings its weapon, dice and tracks, which the browser test found reaching phones in this event.
    ...eventViewsOf<TeamsEvent>({
      'teams.sheetSet': (w, e) => {
        const sh = e.sheet;
        if (sh === null || typeof sh !== 'object' || Array.isArray(sh) || !isFoe(w, e.id)) return e;
        return { ...e, sheet: foeSheet(sh, foeKeys(w, { role: 'spectator' }, TEAMS_FOE_FIELDS)) };
      },
    }),
  },
  // Its foe rule reads the sheets' links to characters too (ADR 45).
  eventViewBasis: (w) => foeBasis(w, isFoe, Object.keys(getTeams(w).sheets)),
  audience: Object.fromEntries(Object.keys(TEAMS_REDUCERS).map((t) => [t, eventAudience])),
};
