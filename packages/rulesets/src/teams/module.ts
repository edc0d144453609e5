// The 'teams' Module: sheets, attacks and the target's reaction, defence
// tests, damage, staying conscious, death, killing strike, and the Actions /
// Free Actions tables on the kernel's economy (003 "Actions in Combat").
import type { Command, CommandHandler, EngineEvent, Env, Json, Module, Projector, Reaction, Result, RuleError, Viewer, World } from '@tablekeeper/engine';
import { getEncounter, playerTurnSerial, TEAMS_ACTIONS, teamsActionRequest, own } from '@tablekeeper/engine';
import { damageCategory } from './damage.js';
import { asJson, Draft } from './draft.js';
import { COMBAT_SKILL, dealDamage, defenceBonus, effectiveReduction, intercept, isError, makeAttack, ordinaryTest, payReaction, readTest, resolveHit, sheetOf, type Defence } from './combat.js';
import { TEAMS_REDUCERS, statusWords } from './reducers.js';
import { rollJson } from './roll.js';
import { kit } from './rules.js';
import { boolSetting, numSetting, setting } from './settings.js';
import { parseSheet, type Item, type Sheet, type Weapon } from './sheet.js';
import { teamsQueries } from './queries.js';
import { creature, creatureKey, id, intIn, MAX_ID, readAttack } from './input.js';
import { audienceOf, controlsCreature, getTeams, setTeams, TEAMS_ID, type PendingAttack } from './state.js';

const MAX_AMOUNT = 100_000;
const MAX_DIFFICULTY = 1000;

const fail = (code: string, message: string, path?: string): Result<EngineEvent[]> => ({ ok: false, error: path === undefined ? { code, message } : { code, message, path } });
const okEvents = (d: Draft): Result<EngineEvent[]> => ({ ok: true, value: d.done() });

const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };
const by = (field: string) => (world: World, c: Command, actor: Viewer): RuleError | null => {
  const v = c[field];
  if (typeof v !== 'string') return actor.role === 'gm' ? null : FORBIDDEN;
  return controlsCreature(world, actor, creatureKey(world, v)) ? null : FORBIDDEN;
};
/** For commands about a pending attack: whoever controls the attack's current target. */
const byTargetOf = (world: World, c: Command, actor: Viewer): RuleError | null => {
  const p = typeof c['attackId'] === 'string' ? own(getTeams(world).pending, c['attackId']) : undefined;
  if (p === undefined) return actor.role === 'gm' ? null : FORBIDDEN;
  return controlsCreature(world, actor, p.target) ? null : FORBIDDEN;
};

function readDefence(c: Command): Defence | RuleError {
  const r = c['reaction'] ?? 'none';
  if (r === 'none') return { kind: 'none' };
  if (r === 'block' || r === 'parry') {
    const item = id(c, 'item');
    return isError(item) ? item : { kind: r, item };
  }
  if (r === 'dodge') {
    const t = readTest(c['test'], 'test');
    return isError(t) ? t : { kind: 'dodge', test: t };
  }
  return { code: 'INVALID_VALUE', message: 'reaction must be "none", "block", "parry" or "dodge"', path: 'reaction' };
}

/** Pay one action for `who`: a Command grant from the current actor, or their own economy. */
function payAction(d: Draft, who: string, c: Command, extra: { [k: string]: Json } = {}): RuleError | null {
  const enc = getEncounter(d.world);
  if (!enc.active || own(enc.combatants, who) === undefined) return null;
  if (c['commanded'] === true) {
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
  'teams.setSheet': {
    decide(world, c) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      const sheet = parseSheet(c['sheet'], { metal: numSetting(world, 'teams.metalDurability'), other: numSetting(world, 'teams.otherDurability') }, numSetting(world, 'teams.deathDifficulty'));
      if (!sheet.ok) return sheet;
      const events: EngineEvent[] = [{ type: 'teams.sheetSet', id: who, sheet: asJson(sheet.value) }];
      const enc = getEncounter(world);
      if (enc.active && own(enc.combatants, who) !== undefined) events.push({ type: 'encounter.incapacitatedSet', id: who, value: !sheet.value.conscious || sheet.value.dead });
      return { ok: true, value: events };
    },
  },
  'teams.removeSheet': {
    decide(world, c) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      if (own(getTeams(world).sheets, who) === undefined) return fail('NOT_FOUND', `no sheet for "${who}"`, 'characterId');
      return { ok: true, value: [{ type: 'teams.sheetRemoved', id: who }] };
    },
  },
  /** GM sets a track (recovery, rests and healing are outside the excerpt). */
  'teams.setTrack': {
    decide(world, c) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      const sh = sheetOf(world, who, 'characterId');
      if (isError(sh)) return { ok: false, error: sh };
      const field = c['field'];
      const max: { [k: string]: number } = { endurance: sh.maxEndurance, health: sh.maxHealth, stamina: sh.maxStamina, focus: sh.maxFocus, deathDifficulty: MAX_DIFFICULTY };
      if (typeof field !== 'string' || max[field] === undefined) return fail('INVALID_VALUE', `field must be one of ${Object.keys(max).join(', ')}`, 'field');
      const to = intIn(c, 'value', field === 'deathDifficulty' ? 1 : 0, max[field]!);
      if (isError(to)) return { ok: false, error: to };
      return { ok: true, value: [{ type: 'teams.restored', id: who, field, from: sh[field as 'health'], to }] };
    },
  },
  'teams.attack': {
    authorize: by('attackerId'),
    decide(world, c, env) {
      const a = readAttack(world, c);
      if (isError(a)) return { ok: false, error: a };
      const d = new Draft(world, env.rng);
      const att = sheetOf(world, a.attacker, 'attackerId');
      if (isError(att)) return { ok: false, error: att };
      if (!att.conscious || att.dead) return fail('UNABLE', `${att.name} cannot attack while ${att.dead ? 'dead' : 'unconscious'}`, 'attackerId');
      // A readied attack is taken as the reaction it was declared as.
      if (c['readied'] === true) {
        const r = readiedTaken(d, a.attacker, c);
        if (r !== null) return { ok: false, error: r };
      } else {
        const paid = payAction(d, a.attacker, c);
        if (paid !== null) return { ok: false, error: paid };
      }
      const r = makeAttack(d, a);
      return r === null ? okEvents(d) : { ok: false, error: r };
    },
  },
  'teams.defend': {
    authorize: byTargetOf,
    decide(world, c, env) {
      const atk = id(c, 'attackId');
      if (isError(atk)) return { ok: false, error: atk };
      const p = own(getTeams(world).pending, atk);
      if (p === undefined) return fail('NO_PENDING_ATTACK', `no attack "${atk}" is waiting for a reaction`, 'attackId');
      const def = readDefence(c);
      if (isError(def)) return { ok: false, error: def };
      const d = new Draft(world, env.rng);
      const r = resolveHit(d, p, def);
      return r === null ? okEvents(d) : { ok: false, error: r };
    },
  },
  'teams.intercept': {
    authorize: by('interceptorId'),
    decide(world, c, env) {
      const atk = id(c, 'attackId');
      if (isError(atk)) return { ok: false, error: atk };
      const p = own(getTeams(world).pending, atk);
      if (p === undefined) return fail('NO_PENDING_ATTACK', `no attack "${atk}" is waiting for a reaction`, 'attackId');
      if (p.intercepted !== null) return fail('ALREADY_INTERCEPTED', 'this attack was already intercepted', 'attackId');
      const who = creature(world, c, 'interceptorId');
      if (isError(who)) return { ok: false, error: who };
      const d = new Draft(world, env.rng);
      const r = intercept(d, p, who);
      return r === null ? okEvents(d) : { ok: false, error: r };
    },
  },
  'teams.stayConscious': {
    authorize: by('characterId'),
    decide(world, c, env) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      const risk = getTeams(world).atRisk[who];
      if (risk === undefined) return fail('NOT_AT_RISK', `${who} does not need to fortify to stay conscious`, 'characterId');
      const d = new Draft(world, env.rng);
      if (c['fortify'] !== true) {
        d.emit({ type: 'teams.fellUnconscious', id: who, reason: 'chose not to fortify' });
        d.incapacitate(who, true);
        return okEvents(d);
      }
      const t = readTest(c['test'], 'test');
      if (isError(t)) return { ok: false, error: t };
      const sh = own(getTeams(world).sheets, who)!;
      const paid = payReaction(d, who, 'stamina', 'fortify', false);
      if (paid !== null) return { ok: false, error: paid };
      const roll = ordinaryTest(d, sh, t, 0, defenceBonus(world, who));
      if (isError(roll)) return { ok: false, error: roll };
      const success = roll.total >= risk.difficulty;
      d.emit({ type: 'teams.fortified', id: who, roll: rollJson(roll), difficulty: risk.difficulty, success });
      if (!success) {
        d.emit({ type: 'teams.fellUnconscious', id: who, reason: 'failed to fortify' });
        d.incapacitate(who, true);
      }
      return okEvents(d);
    },
  },
  /** A defence test against an effect (fortify: physical, resist: mental, dodge: anything to avoid) at a difficulty the GM names. */
  'teams.react': {
    authorize: by('characterId'),
    decide(world, c, env) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      const kind = c['reaction'];
      if (kind !== 'fortify' && kind !== 'resist' && kind !== 'dodge') return fail('INVALID_VALUE', 'reaction must be "fortify", "resist" or "dodge"', 'reaction');
      const difficulty = intIn(c, 'difficulty', 0, MAX_DIFFICULTY);
      if (isError(difficulty)) return { ok: false, error: difficulty };
      const t = readTest(c['test'], 'test');
      if (isError(t)) return { ok: false, error: t };
      const sh = sheetOf(world, who, 'characterId');
      if (isError(sh)) return { ok: false, error: sh };
      const d = new Draft(world, env.rng);
      const paid = payReaction(d, who, kind === 'resist' ? 'focus' : 'stamina', kind, false);
      if (paid !== null) return { ok: false, error: paid };
      const roll = ordinaryTest(d, sh, t, 0, defenceBonus(world, who));
      if (isError(roll)) return { ok: false, error: roll };
      d.emit({ type: 'teams.tested', id: who, label: kind, roll: rollJson(roll), difficulty, success: roll.total >= difficulty });
      return okEvents(d);
    },
  },
  /** Damage from any source (a trap, a fall): reduced by the matching deflection unless `reduce: false`. */
  'teams.damage': {
    decide(world, c, env) {
      const who = creature(world, c, 'targetId');
      if (isError(who)) return { ok: false, error: who };
      const sh = sheetOf(world, who, 'targetId');
      if (isError(sh)) return { ok: false, error: sh };
      const amount = intIn(c, 'amount', 0, MAX_AMOUNT);
      if (isError(amount)) return { ok: false, error: amount };
      const type = c['damageType'] ?? null;
      if (type !== null && typeof type !== 'string') return fail('INVALID_VALUE', 'damageType must name a damage type', 'damageType');
      const cat = damageCategory(type);
      if (cat === null) return fail('INVALID_VALUE', `unknown damage type "${String(type)}"`, 'damageType');
      const d = new Draft(world, env.rng);
      const dealt = c['reduce'] === false || cat === 'typeless' ? amount : Math.max(1, amount - effectiveReduction(world, who, sh, cat, null));
      dealDamage(d, who, dealt, type, c['nonlethal'] === true, null);
      return okEvents(d);
    },
  },
  'teams.act': {
    authorize: by('characterId'),
    decide(world, c, env) {
      return act(world, c, env);
    },
  },
  'teams.killingStrike': {
    authorize: by('attackerId'),
    decide(world, c, env) {
      return killingStrike(world, c, env);
    },
  },
  /** A readied (non-attack) action is taken: it uses the reaction. */
  'teams.triggerReady': {
    authorize: by('characterId'),
    decide(world, c, env) {
      const who = creature(world, c, 'characterId');
      if (isError(who)) return { ok: false, error: who };
      const d = new Draft(world, env.rng);
      const r = readiedTaken(d, who, c);
      return r === null ? okEvents(d) : { ok: false, error: r };
    },
  },
};

/** The readied action is taken: spend the reaction and clear it (003 "Ready an Action"). */
function readiedTaken(d: Draft, who: string, c: Command): RuleError | null {
  const enc = getEncounter(d.world);
  const comb = own(enc.combatants, who);
  if (!enc.active || comb === undefined) return { code: 'NO_ENCOUNTER', message: 'readied actions exist only in an encounter' };
  if (comb.readied === null) return { code: 'NOT_READIED', message: `${who} has no readied action`, path: 'readied' };
  const before = typeof c['beforeId'] === 'string' ? creatureKey(d.world, c['beforeId']) : undefined;
  const spent = kit.spend(d.world, who, { kind: 'reaction' });
  if (!spent.ok) return spent.error;
  d.emit(spent.value);
  d.emit({ type: 'encounter.readyTaken', id: who, before: typeof before === 'string' ? before : (enc.current ?? who), action: comb.readied.action, placement: null, forNextTurn: false });
  return null;
}

// ---------------------------------------------------------------- the action table

const MAX_BRANDISH = 4;

function act(world: World, c: Command, env: Env): Result<EngineEvent[]> {
  const who = creature(world, c, 'characterId');
  if (isError(who)) return { ok: false, error: who };
  const enc = getEncounter(world);
  if (!enc.active || own(enc.combatants, who) === undefined) return fail('NO_ENCOUNTER', `${who} is not in a running encounter`, 'characterId');
  const name = c['action'];
  const row = typeof name === 'string' ? TEAMS_ACTIONS.find((r) => r.name.toLowerCase() === name.toLowerCase()) : undefined;
  if (row === undefined) return fail('UNKNOWN_ACTION', `action must be one of ${TEAMS_ACTIONS.filter((r) => r.kind !== 'reaction' && r.name !== 'Attack').map((r) => r.name).join(', ')}`, 'action');
  if (row.name === 'Attack') return fail('USE_ATTACK', 'attacks are made with teams.attack', 'action');
  if (row.kind === 'reaction') return fail('USE_REACTION', 'reactions are taken with teams.defend, teams.intercept, teams.react or teams.stayConscious', 'action');
  const sh = own(getTeams(world).sheets, who);
  if (sh !== undefined && (!sh.conscious || sh.dead)) return fail('UNABLE', `${sh.name} cannot act while ${sh.dead ? 'dead' : 'unconscious'}`, 'characterId');
  const given = c['targetId'];
  if (given !== undefined && (typeof given !== 'string' || given.length > MAX_ID)) return fail('INVALID_VALUE', 'targetId must be an id', 'targetId');
  const target = given === undefined ? undefined : creatureKey(world, given);
  const d = new Draft(world, env.rng);

  // Preconditions and resource costs checked before paying the action.
  const cost = numSetting(world, 'teams.reactionCost');
  if (row.name === 'Command') {
    if (typeof target !== 'string' || own(enc.combatants, target) === undefined || target === who) return fail('BAD_TARGET', 'Command needs an ally in the encounter (not yourself)', 'targetId');
    if (own(enc.combatants, target)!.side !== own(enc.combatants, who)!.side) return fail('BAD_TARGET', 'Command gives an action to an ally on your team', 'targetId');
  }
  if (row.name === 'Resuscitate') {
    if (typeof target !== 'string') return fail('BAD_TARGET', 'Resuscitate needs a target', 'targetId');
    const t = sheetOf(world, target, 'targetId');
    if (isError(t)) return { ok: false, error: t };
    if (t.dead) return fail('DEAD', `${t.name} is dead`, 'targetId');
    if (t.conscious) return fail('CONSCIOUS', `${t.name} is conscious already`, 'targetId');
  }
  if (row.name === 'Brandish') {
    const items = c['items'];
    if (sh === undefined) return fail('NOT_FOUND', `no sheet for "${who}"`, 'characterId');
    if (!Array.isArray(items) || items.length > MAX_BRANDISH || !items.every((i) => typeof i === 'string' && sh.items[i] !== undefined)) {
      return fail('INVALID_VALUE', `items must list at most ${MAX_BRANDISH} of ${sh.name}'s item ids`, 'items');
    }
  }
  if (row.name === 'Drop Item' && (typeof c['item'] !== 'string' || sh === undefined || !sh.wielded.includes(c['item']))) return fail('INVALID_VALUE', 'item must be a wielded item id', 'item');
  if (row.name === 'Stand Up' && !Object.values(enc.conditions).some((i) => i.target === who && i.defId === 'prone')) return fail('NOT_PRONE', `${who} is not prone`, 'action');

  // Pay: a Command grant (one single action that does not end the turn), or the economy.
  const req = teamsActionRequest(row.name, enc.current === who, typeof target === 'string' ? target : undefined)!;
  if (c['commanded'] === true && (row.cost !== 1 || row.kind !== 'action' || row.endsTurn === true || row.name === 'Command')) {
    return fail('NOT_COMMANDED', 'a Command grants one single action that does not end a turn (and cannot pass the command on)', 'commanded');
  }
  const paid = payAction(d, who, c, { kind: req.kind, cost: req.cost, ...(req.tag !== undefined ? { tag: req.tag, limit: 'turn' } : {}), ...(req.label !== undefined ? { label: req.label } : {}), ...(req.requires !== undefined ? { requires: req.requires } : {}) });
  if (paid !== null) return { ok: false, error: paid };
  const spent = d.events.find((e) => e.type === 'economy.spent');
  const ext = spent?.['extended'];
  // An action longer than what is left: only the time is spent now; the effect comes when it completes.
  if (ext !== null && ext !== undefined && typeof ext === 'object' && !Array.isArray(ext)) {
    d.emit({ type: 'teams.acted', id: who, action: row.name, extended: true, remaining: Number(ext['remaining']), ...(typeof target === 'string' ? { target } : {}) });
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
  d.emit({ type: 'teams.acted', id: who, action: row.name, extended: false, ...(typeof target === 'string' ? { target } : {}) });
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
      const action = c['readiedAction'];
      const trigger = c['trigger'];
      if (typeof action !== 'string' || action.length === 0 || action.length > 80) return fail('INVALID_VALUE', 'readiedAction must name the action (1-80 characters)', 'readiedAction');
      if (typeof trigger !== 'string' || trigger.length === 0 || trigger.length > 200) return fail('INVALID_VALUE', 'trigger must describe the trigger (1-200 characters)', 'trigger');
      d.emit({ type: 'encounter.readied', id: who, action, trigger, round: enc.round });
      break;
    }
    case 'Command':
      d.emit({ type: 'teams.commanded', by: who, ally: String(target) });
      break;
    case 'Brandish':
      d.emit({ type: 'teams.brandished', id: who, items: c['items'] as Json });
      break;
    case 'Drop Item':
      d.emit({ type: 'teams.dropped', id: who, item: String(c['item']) });
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
      if (c['test'] !== undefined) {
        problem = testAction(d, who, c, (roll, difficulty, success) => {
          d.emit({ type: 'teams.tested', id: who, label: typeof c['label'] === 'string' ? c['label'].slice(0, 80) : 'short task', roll, difficulty, success });
        }, null);
      }
      break;
    default:
      break;
  }
  if (problem !== null) return { ok: false, error: problem };
  if (row.endsTurn === true && getEncounter(d.world).current === who) {
    const e2 = getEncounter(d.world);
    d.later({ type: 'encounter.turnEnded', id: who, round: e2.round });
  }
  return okEvents(d);
}

function testAction(d: Draft, who: string, c: Command, then: (roll: Json, difficulty: number, success: boolean) => void, dflt: number | null): RuleError | null {
  const sh = own(getTeams(d.world).sheets, who);
  if (sh === undefined) return { code: 'NOT_FOUND', message: `no sheet for "${who}"`, path: 'characterId' };
  const t = readTest(c['test'], 'test');
  if (isError(t)) return t;
  const difficulty = intIn(c, 'difficulty', 0, MAX_DIFFICULTY, dflt ?? undefined);
  if (isError(difficulty)) return difficulty;
  const roll = ordinaryTest(d, sh, t, 0, 0);
  if (isError(roll)) return roll;
  then(rollJson(roll), difficulty, roll.total >= difficulty);
  return null;
}

// ---------------------------------------------------------------- killing strike

function killingStrike(world: World, c: Command, env: Env): Result<EngineEvent[]> {
  const a = readAttack(world, c);
  if (isError(a)) return { ok: false, error: a };
  const att = sheetOf(world, a.attacker, 'attackerId');
  if (isError(att)) return { ok: false, error: att };
  const tgt = sheetOf(world, a.target, 'targetId');
  if (isError(tgt)) return { ok: false, error: tgt };
  if (!att.conscious || att.dead) return fail('UNABLE', `${att.name} cannot act`, 'attackerId');
  if (tgt.dead) return fail('DEAD', `${tgt.name} is already dead`, 'targetId');
  if (tgt.conscious) return fail('CONSCIOUS', `a killing strike needs an unconscious target; ${tgt.name} is conscious`, 'targetId');
  const item = att.items[a.weapon];
  if (item === undefined || item.weapon === null) return fail('NOT_A_WEAPON', `${att.name} has no weapon "${a.weapon}"`, 'weapon');
  if (item.weapon.nonlethal && setting(world, 'teams.killingStrikeWeapons') !== 'any') return fail('NONLETHAL', `${item.name} is nonlethal (setting teams.killingStrikeWeapons)`, 'weapon');
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
  if (isError(roll)) return { ok: false, error: roll };
  const difficulty = tgt.constitution;
  if (roll.total >= difficulty) {
    d.emit({ type: 'teams.killed', attacker: a.attacker, target: a.target, roll: rollJson(roll), difficulty });
    d.incapacitate(a.target, true);
    return okEvents(d);
  }
  d.emit({ type: 'teams.killingStrikeFailed', attacker: a.attacker, target: a.target, roll: rollJson(roll), difficulty });
  const r = makeAttack(d, { ...a, sneak: true, flank: false, nearby: [] });
  return r === null ? okEvents(d) : { ok: false, error: r };
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

const project: Projector = (world, viewer, source = world) => {
  if (viewer.role === 'gm') return world;
  const st = getTeams(world);
  const { full, combatant, inView, tierOf } = teamsAudience(source);
  const sheets: { [id: string]: Json } = {};
  for (const [k, sh] of Object.entries(st.sheets)) {
    const tier = tierOf(k, sh);
    if (tier === 'none') continue;
    sheets[k] = tier === 'status' ? { name: combatant(k)?.visibility === 'existence' ? 'Unknown' : sh.name, secret: true, status: statusWords(sh) } : asJson(shownSheet(sh));
  }
  const keep = <T extends object>(o: { readonly [k: string]: T }, ids: (v: T, k: string) => string[]): { [k: string]: T } =>
    Object.fromEntries(Object.entries(o).filter(([k, v]) => ids(v, k).every(inView)));
  return setTeams(world, {
    sheets: sheets as unknown as typeof st.sheets,
    attackCounts: Object.fromEntries(Object.entries(keep(st.attackCounts, (_v, k) => [k])).map(([k, v]) => [k, { round: v.round, count: v.count }])),
    // An attack on someone the player sees waits for their reaction even from an unseen attacker: who and with what stay unnamed.
    pending: Object.fromEntries(
      Object.entries(st.pending)
        .filter(([, v]) => inView(v.target) && (v.intercepted === null || inView(v.intercepted)))
        .map(([k, v]) => [k, shownAttack(v, inView(v.attacker) && combatant(v.attacker)!.visibility === 'visible')]),
    ),
    atRisk: Object.fromEntries(Object.entries(keep(st.atRisk, (_v, k) => [k])).map(([k, v]) => [k, { difficulty: v.difficulty }])),
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
  const byCombatant = own(st.attackCounts, id) !== undefined || own(st.atRisk, id) !== undefined;
  if (sheet === undefined && pending === undefined && commanded === undefined && !byCombatant) return undefined;
  if (viewer.role === 'gm') return 'shown';
  const { inView, tierOf } = teamsAudience(world);
  if (sheet !== undefined && tierOf(id, sheet) !== 'none') return 'shown';
  if (pending !== undefined && inView(pending.target) && (pending.intercepted === null || inView(pending.intercepted))) return 'shown';
  if (byCombatant && inView(id)) return 'shown';
  if (commanded !== undefined && inView(id) && inView(commanded.by)) return 'shown';
  return 'hidden';
};

const IDS = ['id', 'attacker', 'target', 'intended', 'by', 'from', 'ally'];
const eventAudience = (world: World, e: EngineEvent) => audienceOf(world, IDS.map((k) => (typeof e[k] === 'string' ? (e[k] as string) : null)));

/**
 * At the end of a turn (setting teams.hitsLandAtTurnEnd): hits nobody answered
 * land with no reaction, and a fortify-or-fall choice nobody answered falls.
 */
const landHits: Reaction = (world, e, env) => {
  if (e.type !== 'encounter.turnEnded' || !boolSetting(world, 'teams.hitsLandAtTurnEnd')) return [];
  const st = getTeams(world);
  const pending = Object.values(st.pending).sort((a, b) => (a.id < b.id ? -1 : 1));
  if (pending.length === 0 && Object.keys(st.atRisk).length === 0) return [];
  const d = new Draft(world, env.rng);
  for (const p of pending) {
    const live = own(getTeams(d.world).pending, p.id);
    if (live !== undefined) resolveHit(d, live, { kind: 'none' });
  }
  for (const id of Object.keys(getTeams(d.world).atRisk).sort()) d.emit({ type: 'teams.fellUnconscious', id, reason: 'did not fortify in time' });
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
  projectReads: { reads: [`ext.${TEAMS_ID}`, 'characters', 'ext.encounter'], writes: [`ext.${TEAMS_ID}`] },
  idStatus,
  queries: teamsQueries,
  audience: Object.fromEntries(Object.keys(TEAMS_REDUCERS).map((t) => [t, eventAudience])),
};
