// The '36th-way' Module: sheets, attacks, damage, healing, dying, abilities,
// rests, positioning and special actions as commands and events, plus the
// encounter kernel bound to 002's rules (bands, standard / move / quick /
// interrupt, the fifteen conditions, ongoing damage then saves).
import type { CommandHandler, Combatant, EncounterEvent, EngineEvent, Evolve, Json, Module, ProjectorReads, Reducer, Rng, RuleError, Viewer, World } from '@tablekeeper/engine';
import { appendLog, asJson, audiencesOf, sameAudience, eventViewsOf, memberOf, stored, type EventOf, clockAdvanced, foeBasis, foeKeys, foeRevealOf, foeNumbersView, FOES_ID, getEncounter, handlerOf, pickKeys, playerTurnSerial, own, reducersOf, showsFoeNumbers } from '@tablekeeper/engine';
import { cannotUse, rechargeTarget, restoredByRest, type AbilityAttack } from './abilities.js';
import { abilityUsedEvent, confusedSave, damageEvent, decideAttack, provokedEvent, sheetAfterDamage } from './combat.js';
import { audienceOfIds, cannotAct, controls, deathSaveRefusal, FORBIDDEN, secretIds, sheetShown, eventAudience, encounterKit, escalationOf, hasCondition, inEncounter, makeRules, needSheet, saveAdvantage, saveTargetOf, type Kit } from './context.js';
import { isDamageType, type DamageDice } from './damage.js';
import { TSW_FOE_FIELDS } from './sheet-model.js';
import { tswFoeSheet } from '../foe-sheets.js';
import { deathSaveOutcome, diesAfter, heal, recoveryAmount, statusOf } from './health.js';
import { engagedEnemies } from './positioning.js';
import { errR, okR, type R } from './result.js';
import { isFoe, log, name, onSt } from './logging.js';
import {
  attackDeclaration,
  checkDeclaration,
  damageDeclaration,
  diceyMoveDeclaration,
  fightInSpiritDeclaration,
  fleeDeclaration,
  fullRestDeclaration,
  deathSaveDeclaration,
  grantSaveDeclaration,
  healDeclaration,
  lastGaspDeclaration,
  outOfFightDeclaration,
  quickRestDeclaration,
  rallyDeclaration,
  restoreDeclaration,
  restRecoveriesDeclaration,
  sheetRemoveDeclaration,
  sheetSetDeclaration,
  stabilizeDeclaration,
  stanceDeclaration,
  sustainDeclaration,
  useAbilityDeclaration,
} from './declarations.js';
import type { TswEvent } from './events.js';
import { movementCommands, movementReducers } from './movement.js';
import { sustainRefusal } from './checks.js';
import { diceWords, roll3d6 } from './roll.js';
import { tswQueries } from './queries.js';
import { numSetting, setting } from './settings.js';

/** An ability as the log names it: its name on the sheet, else its key (GM review: "to recharge cleave"). */
const abilityName = (w: World, sheetId: string, id: string): string => own(getTsw(w).sheets, sheetId)?.abilities[id]?.name ?? id;
import { getTsw, parseSheet, setTsw, TSW_ID, updateSheet, type Dying, type Sheet, type TswState } from './state.js';

/** A record of numbers, rebuilt entry by entry (own keys only). */
const numbers = (m: { readonly [k: string]: number }): { [k: string]: number } => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number'));


// ---------------------------------------------------------------- recoveries and death saves (shared by hooks and commands)

function recoveryDice(world: World, s: Sheet, rng: Rng, roll: boolean): number[] | null {
  if (!roll) return null;
  const out: number[] = [];
  for (let i = 0; i < s.recoveryDice.count; i++) out.push(rng.die(s.recoveryDice.sides));
  return out;
}

/** Heal `s` with one recovery (or a free one): every die in the event. */
type Healed = EventOf<TswEvent, '36th-way.healed'>;

export function healEvent(world: World, s: Sheet, rng: Rng, opts: { readonly free: boolean; readonly roll: boolean; readonly reason: string; readonly by?: string | null }): Healed {
  const dice = recoveryDice(world, s, rng, opts.roll);
  const amount = recoveryAmount(s, dice);
  const h = heal(world, s, amount, { free: opts.free });
  return {
    type: '36th-way.healed',
    characterId: s.id,
    helperId: opts.by ?? null,
    reason: opts.reason,
    dice: dice === null ? null : asJson(dice),
    averaged: dice === null,
    amount,
    hpFrom: s.hp,
    hpTo: h.hp,
    spent: h.spent,
    halved: h.halved,
    exhaustion: h.exhaustion,
    // Healing revives the dying; a knocked-out PC (the "unconscious" variant) wakes only at a full rest.
    revived: s.dying !== null || (s.unconscious && s.kind === 'npc'),
  } satisfies TswEvent;
}

/** "spends a Recovery (death save): 1d10 [1] = 1 HP (7 left)": the recovery dice as rolled (or averaged) and the pool after. */
function recoveryLine(s: Sheet, e: { readonly reason: string; readonly dice: Json; readonly amount: number; readonly spent: number; readonly halved: boolean; readonly hpFrom: number; readonly hpTo: number }, left: number): string {
  const b = s.recoveryBonus;
  const spec = `${s.recoveryDice.count}d${s.recoveryDice.sides}${b === 0 ? '' : `${b > 0 ? '+' : '-'}${Math.abs(b)}`}`;
  const faces = Array.isArray(e.dice) ? e.dice : null;
  const rolled = `${spec}${faces === null ? ' averaged' : ` [${faces.join(', ')}]`} = ${e.amount} HP`;
  if (e.spent > 0) return `spends a Recovery (${e.reason}): ${rolled} (${left} left)`;
  if (e.halved) return `has no Recovery left (${e.reason}): ${rolled}, halved to ${e.hpTo - Math.max(0, e.hpFrom)} (-1 Volition and defenses until a full rest)`;
  return `heals with a free Recovery (${e.reason}): ${rolled}`;
}

function sheetAfterHeal(s: Sheet, e: Healed): Sheet {
  const revive = e.revived === true && !s.dead;
  return {
    ...s,
    hp: e.hpTo,
    recoveries: Math.max(0, s.recoveries - e.spent),
    exhaustion: e.exhaustion,
    dying: revive ? null : s.dying,
    unconscious: revive && s.kind === 'npc' ? false : s.unconscious,
  };
}

/** A death save (or Last Gasp save); `counts` false for an ally-granted Last Gasp save. */
function deathSaveEvents(kit: Kit, world: World, s: Sheet, rng: Rng, opts: { readonly counts: boolean; readonly grantedBy: string | null; readonly passed?: boolean }): EngineEvent[] {
  const d = s.dying;
  if (d === null) return [];
  const first = d.savesRolled === 0 ? d.firstSaveDisadvantage : 0;
  const net = saveAdvantage(kit, world, s.id) - first;
  const roll = roll3d6(rng, world, net);
  const target = d.lastGasp !== null ? numSetting(world, '36th-way.lastGaspSaveTarget') : numSetting(world, '36th-way.deathSaveTarget');
  const outcome = deathSaveOutcome(world, roll.natural, target);
  const counts = opts.counts && outcome === 'failure';
  const failures = s.deathFailures + (counts ? 1 : 0);
  const dies = counts && diesAfter(world, d, failures);
  const out: EngineEvent[] = [
    {
      type: '36th-way.deathSaveRolled',
      characterId: s.id,
      lastGasp: d.lastGasp !== null,
      helperId: opts.grantedBy,
      firstSaveDisadvantage: first,
      roll: asJson(roll),
      target,
      outcome,
      failures,
      dead: dies,
      counted: counts,
      passed: opts.passed === true,
      turn: opts.grantedBy === null && inEncounter(world, s.id) ? getEncounter(world).turnSerial : null,
    } satisfies TswEvent,
  ];
  if (outcome !== 'failure') {
    if (d.lastGasp !== null) out.push({ type: '36th-way.lastGaspEnded', characterId: s.id, hp: d.lastGasp.hp, effect: d.lastGasp.effect } satisfies TswEvent);
    // Success: heal using a recovery from 0 HP, whatever the HP were.
    else out.push(healEvent(world, { ...s, hp: 0 }, rng, { free: false, roll: setting<string>(world, '36th-way.recoveryRoll') !== 'average', reason: 'death save' }));
  }
  return out;
}

// ---------------------------------------------------------------- foes from the builder

/**
 * A foe that joins a fight without a sheet gets one in the same transaction (review 9: "Orc x2" from the builder
 * could not act until a 25-field sheet was saved for each, and a sheet sent after the start made Undo take two
 * clicks). Its stat block rides on the combatant's stats; what the block leaves out takes the sheet's defaults.
 */
function foeSheetsAtStart(world: World, e: EngineEvent): EngineEvent[] {
  const started = memberOf<EncounterEvent, 'encounter.started'>(e, 'encounter.started');
  const added = memberOf<EncounterEvent, 'encounter.combatantAdded'>(e, 'encounter.combatantAdded');
  const joined: readonly Combatant[] = started !== undefined ? started.combatants : added !== undefined ? [added.combatant] : [];
  const sheets = getTsw(world).sheets;
  const out: EngineEvent[] = [];
  for (const c of joined) {
    if (c.kind !== 'npc' || own(sheets, c.id) !== undefined) continue;
    if (c.characterId !== null && Object.values(sheets).some((x) => x.characterId === c.characterId)) continue;
    const stats = c.stats as { readonly [k: string]: Json };
    const hp = typeof stats['maxHp'] === 'number' ? stats['maxHp'] : stats['hp'];
    const s = parseSheet(asJson({ ...tswFoeSheet(stats), id: c.id, name: c.name, kind: 'npc', ...(typeof hp === 'number' && hp >= 1 ? { maxHp: hp } : {}) }), world);
    if (s.ok) out.push(stored<TswEvent>({ type: '36th-way.sheetSet', sheet: s.value, replaced: false }));
  }
  return out;
}

// ---------------------------------------------------------------- the module

export interface TswModule {
  readonly module: Module;
  readonly kit: Kit;
}

/** A rest's length on the clock from its setting (ADR 44), kept within 0 and a week whatever the table stored. */
function restSeconds(world: World, key: string, unit: number): number {
  const n = numSetting(world, key);
  return Number.isFinite(n) ? Math.max(0, Math.min(7 * 24 * 3600, Math.round(n * unit))) : 0;
}

export function createTswModule(): TswModule {
  // The kernel hooks need the kit (for Advantage counts) and the kit needs the hooks: bind late.
  let kitRef: Kit | null = null;
  const kitOf = (): Kit => kitRef!;
  const rules = makeRules({
    canActReads: [`ext.${TSW_ID}`],
    canAct(world, c) {
      const s = own(getTsw(world).sheets, c.id);
      return s === undefined ? true : !s.dead && !s.unconscious;
    },
    onOngoing(world, inst) {
      const s = own(getTsw(world).sheets, inst.target);
      const p = inst.params;
      const amount = p !== null && typeof p === 'object' && !Array.isArray(p) && typeof p['amount'] === 'number' ? Math.max(0, Math.floor(p['amount'])) : 0;
      const type = p !== null && typeof p === 'object' && !Array.isArray(p) && isDamageType(p['type']) ? p['type'] : 'weapon';
      if (s === undefined || amount === 0) return [];
      return [stored(damageEvent(world, s, amount, { sourceId: inst.source, reason: 'ongoing', base: amount, resisted: false, resistAt: null, types: [type], roll: null, condition: inst.id }))];
    },
    saveRoll(world, inst, rng) {
      const roll = roll3d6(rng, world, saveAdvantage(kitOf(), world, inst.target));
      const target = saveTargetOf(world, inst);
      // The log says the dice and the target (review 9: "Goblin 3 saves against Dazed." with no roll).
      return { success: roll.natural >= target, roll: asJson({ ...roll, target, words: `${diceWords(roll)} vs ${target}+` }) };
    },
    // 002 "Dying and Death": a dying PC's turn is its death save, which the player rolls (36th-way.deathSave, review 9:
    // the GM's Next used to roll it the moment the turn started). A turn passed with no save rolls it then (ADR 69).
    onTurnStart(world, id) {
      const s = own(getTsw(world).sheets, id);
      if (s === undefined || s.dying === null || s.dead) return [];
      const target = numSetting(world, s.dying.lastGasp !== null ? '36th-way.lastGaspSaveTarget' : '36th-way.deathSaveTarget');
      return [{ type: '36th-way.deathSaveDue', characterId: id, turn: getEncounter(world).turnSerial, target } satisfies TswEvent];
    },
    onTurnEnd(world, id, rng) {
      const s = own(getTsw(world).sheets, id);
      if (s === undefined) return [];
      const serial = getEncounter(world).turnSerial;
      const owed = s.dying !== null && !s.dead && s.dying.dueOn === serial && s.dying.savedOn !== serial ? deathSaveEvents(kitOf(), world, s, rng, { counts: true, grantedBy: null, passed: true }) : [];
      // Sustained abilities not started or sustained this turn expire now.
      return [
        ...owed,
        ...Object.entries(s.uses)
          .filter(([, u]) => u.activeTurn !== null && u.activeTurn !== serial)
          .map(([ability]) => ({ type: '36th-way.abilityLapsed', characterId: id, ability } satisfies TswEvent)),
      ];
    },
  });
  const kit = encounterKit(rules);
  kitRef = kit;

  /** The GM, or the player whose character the sheet is (judged on the parsed payload, old field names already moved). */
  const mayCommand = (world: World, actor: Viewer, id: string): RuleError | null => (controls(world, actor, id) ? null : FORBIDDEN);

  const spendIn = (world: World, who: string, kind: string): R<EngineEvent[]> => {
    if (!inEncounter(world, who)) return okR([]);
    const e = kit.spend(world, who, { kind });
    return e.ok ? okR([e.value]) : e;
  };

  const commands: Record<string, CommandHandler> = {
    '36th-way.sheet.set': handlerOf(sheetSetDeclaration, {
      decide(world, { sheet }) {
        // The schema has checked every field; parseSheet fills the table's defaults and checks hp against maxHp.
        const s = parseSheet(asJson(sheet), world);
        if (!s.ok) return s;
        const prev = own(getTsw(world).sheets, s.value.id);
        if (prev === undefined && Object.keys(getTsw(world).sheets).length >= 500) return errR('LIMIT_EXCEEDED', 'at most 500 sheets per table', 'sheet');
        return okR([stored<TswEvent>({ type: '36th-way.sheetSet', sheet: s.value, replaced: prev !== undefined })]);
      },
    }),
    '36th-way.sheet.remove': handlerOf(sheetRemoveDeclaration, {
      decide(world, { characterId }) {
        const s = needSheet(world, characterId, 'characterId');
        return s.ok ? okR([{ type: '36th-way.sheetRemoved', characterId: s.value.id } satisfies TswEvent]) : s;
      },
    }),
    '36th-way.outOfFight': handlerOf(outOfFightDeclaration, {
      decide(world, { characterId, value }) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        return okR([{ type: '36th-way.outOfFightSet', characterId: s.value.id, value } satisfies TswEvent]);
      },
    }),
    '36th-way.attack': handlerOf(attackDeclaration, {
      authorize: (world, p, actor) => mayCommand(world, actor, p.attackerId),
      decide: (world, p, env) => decideAttack(kit, world, p, env.rng),
    }),
    '36th-way.damage': handlerOf(damageDeclaration, {
      // Damage from outside an attack (a trap, the environment, a GM ruling).
      decide(world, { targetId, amount, damageType = 'weapon', crit }) {
        const s = needSheet(world, targetId, 'targetId');
        if (!s.ok) return s;
        return okR([stored(damageEvent(world, s.value, amount, { sourceId: null, reason: 'direct', base: amount, resisted: false, resistAt: null, types: [damageType], roll: null }, crit === true))]);
      },
    }),
    '36th-way.heal': handlerOf(healDeclaration, {
      // Healing with a recovery ("recovery"), magic beyond recoveries ("free"), an NPC's 1d6 / 1d10 per level ("npc"), or the GM's number ("amount").
      authorize: (world, p, actor) => (p.how === 'amount' && actor.role !== 'gm' ? { code: 'FORBIDDEN', message: 'only the GM heals by a named amount' } : mayCommand(world, actor, p.characterId)),
      decide(world, { characterId, how = 'recovery', average, helperId, die = 6, amount: named }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        if (s.value.dead) return errR('DEAD', `${s.value.name} is dead`, 'characterId');
        if (s.value.dying?.lastGasp != null) return errR('LAST_GASP', 'healing cannot bring anyone back from Last Gasp saves (an ally may grant a save instead)', 'characterId');
        if ((how === 'amount') !== (named !== undefined)) return errR('INVALID_VALUE', how === 'amount' ? 'say how many HP to heal (amount)' : 'amount goes with how "amount" only', 'amount');
        if (how === 'amount') {
          // The GM's healing box: no recovery spent; like any healing it counts up from 0 and brings the dying back (002 "Death Saves").
          const to = Math.min(s.value.maxHp, Math.max(0, s.value.hp) + (named ?? 0));
          return okR([{ type: '36th-way.healed', characterId: s.value.id, helperId: helperId ?? null, reason: 'by the GM', dice: null, averaged: false, amount: named ?? 0, hpFrom: s.value.hp, hpTo: to, spent: 0, halved: false, exhaustion: s.value.exhaustion, revived: s.value.dying !== null || (s.value.unconscious && s.value.kind === 'npc') } satisfies TswEvent]);
        }
        const roll = average === true ? false : average === false ? true : setting<string>(world, '36th-way.recoveryRoll') !== 'average';
        if (how === 'recovery' || how === 'free') return okR([stored(healEvent(world, s.value, env.rng, { free: how === 'free', roll, reason: how, by: helperId ?? null }))]);
        const dice: number[] = [];
        for (let i = 0; i < Math.max(1, s.value.level); i++) dice.push(env.rng.die(die));
        const amount = dice.reduce((a, b) => a + b, 0);
        const to = Math.min(s.value.maxHp, Math.max(0, s.value.hp) + amount);
        return okR([{ type: '36th-way.healed', characterId: s.value.id, helperId: null, reason: 'npc', dice: asJson(dice), averaged: false, amount, hpFrom: s.value.hp, hpTo: to, spent: 0, halved: false, exhaustion: s.value.exhaustion, revived: s.value.unconscious } satisfies TswEvent]);
      },
    }),
    '36th-way.stabilize': handlerOf(stabilizeDeclaration, {
      // A standard action: the dying character still cannot act, but failed death saves no longer kill.
      authorize: (world, p, actor) => mayCommand(world, actor, p.helperId),
      decide(world, { helperId, targetId }) {
        const who = needSheet(world, helperId, 'helperId');
        if (!who.ok) return who;
        const unable = cannotAct(who.value, 'helperId');
        if (unable !== null) return unable;
        const t = needSheet(world, targetId, 'targetId');
        if (!t.ok) return t;
        if (t.value.dying === null) return errR('NOT_DYING', `${t.value.name} is not dying`, 'targetId');
        const spend = spendIn(world, who.value.id, 'standard');
        if (!spend.ok) return spend;
        return okR([...spend.value, { type: '36th-way.stabilized', targetId: t.value.id, helperId: who.value.id } satisfies TswEvent]);
      },
    }),
    '36th-way.lastGasp': handlerOf(lastGaspDeclaration, {
      decide(world, { characterId, effect = 'an effect' }) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        if (s.value.kind !== 'pc') return errR('INVALID_VALUE', 'Last Gasp saves are for PCs', 'characterId');
        if (s.value.dying !== null || s.value.dead) return errR('ALREADY_DYING', `${s.value.name} is already dying or dead`, 'characterId');
        return okR([{ type: '36th-way.lastGaspStarted', characterId: s.value.id, hp: s.value.hp, effect } satisfies TswEvent]);
      },
    }),
    '36th-way.deathSave': handlerOf(deathSaveDeclaration, {
      // The dying PC's own roll on its turn (the GM may roll it for an absent player); only a crit lets them act on.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const why = deathSaveRefusal(world, s.value);
        if (why !== null) return errR('NOT_NOW', why, 'characterId');
        const out = deathSaveEvents(kit, world, s.value, env.rng, { counts: true, grantedBy: null });
        if (out[0]?.['outcome'] === 'crit') return okR(out);
        const enc = getEncounter(world);
        return okR([...out, { type: 'encounter.turnEnded', id: s.value.id, round: enc.round }]);
      },
    }),
    '36th-way.grantSave': handlerOf(grantSaveDeclaration, {
      // An ally's standard action: a Last Gasp save that does not count against the four if it fails.
      authorize: (world, p, actor) => mayCommand(world, actor, p.helperId),
      decide(world, { helperId, targetId }, env) {
        const who = needSheet(world, helperId, 'helperId');
        if (!who.ok) return who;
        const unable = cannotAct(who.value, 'helperId');
        if (unable !== null) return unable;
        const t = needSheet(world, targetId, 'targetId');
        if (!t.ok) return t;
        if (t.value.dying?.lastGasp == null) return errR('NOT_LAST_GASP', `${t.value.name} is not making Last Gasp saves`, 'targetId');
        const spend = spendIn(world, who.value.id, 'standard');
        if (!spend.ok) return spend;
        return okR([...spend.value, ...deathSaveEvents(kit, world, t.value, env.rng, { counts: false, grantedBy: who.value.id })]);
      },
    }),
    '36th-way.useAbility': handlerOf(useAbilityDeclaration, {
      // A non-attack ability (attacks go through 36th-way.attack with `ability`).
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, ability: id }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const a = own(s.value.abilities, id);
        if (a === undefined) return errR('NOT_FOUND', `${s.value.name} has no ability ${JSON.stringify(id)}`, 'ability');
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        if (a.types.includes('ranged') && hasCondition(world, s.value.id, 'grabbed')) return errR('GRABBED', `${s.value.name} is Grabbed and cannot use ranged attacks or spells`, 'ability');
        const why = cannotUse(a, { escalation: escalationOf(kit, world, s.value), use: s.value.uses[a.id], resources: s.value.resources, hampered: hasCondition(world, s.value.id, 'hampered') });
        if (why !== null) return errR(why.code, why.message, 'ability');
        const spend = spendIn(world, s.value.id, a.action);
        if (!spend.ok) return spend;
        const out: EngineEvent[] = [...spend.value, abilityUsedEvent(s.value, a)];
        const foes = inEncounter(world, s.value.id) ? engagedEnemies(world, s.value.id) : [];
        if (foes.length > 0 && (a.provokes || a.types.includes('ranged'))) out.push(provokedEvent(world, s.value.id, foes, `used ${a.name}`, env.rng));
        if (hasCondition(world, s.value.id, 'confused')) out.push(...confusedSave(kit, world, s.value, env.rng, `used ${a.name}`));
        return okR(out);
      },
    }),
    '36th-way.sustain': handlerOf(sustainDeclaration, {
      // Roll the Sustain X with the same action that started it; a failure lets it lapse at the end of the turn.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, ability: id }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        const why = sustainRefusal(world, s.value, id, { sameTurn: false });
        if (why !== null) return errR(why.code, why.message, 'ability');
        const a = s.value.abilities[id]!;
        const target = a.sustain ?? 0;
        const spend = spendIn(world, s.value.id, a.action);
        if (!spend.ok) return spend;
        const roll = roll3d6(env.rng, world, 0);
        const success = roll.natural >= target;
        return okR([...spend.value, { type: '36th-way.sustainRolled', characterId: s.value.id, ability: a.id, roll: asJson(roll), target, success } satisfies TswEvent]);
      },
    }),
    '36th-way.quickRest': handlerOf(quickRestDeclaration, {
      // Spend any recoveries, restore encounter abilities, roll every expended recharge ability.
      decide(world, { recoveries: spendMap = {}, average }, env) {
        const st = getTsw(world);
        if (getEncounter(world).active) return errR('IN_ENCOUNTER', 'end the encounter before resting');
        const out: EngineEvent[] = [];
        const roll = average === true ? false : setting<string>(world, '36th-way.recoveryRoll') !== 'average';
        for (const [id, n] of Object.entries(spendMap)) {
          let s = own(st.sheets, id);
          if (s === undefined) return errR('NOT_FOUND', `no sheet "${id}"`, `recoveries.${id}`);
          if (s.dead) return errR('DEAD', `${s.name} is dead`, `recoveries.${id}`);
          for (let i = 0; i < n; i++) {
            const e = healEvent(world, s, env.rng, { free: false, roll, reason: 'quick rest' });
            out.push(stored(e));
            s = sheetAfterHeal(s, e);
          }
        }
        for (const s of Object.values(st.sheets)) {
          if (s.dead) continue;
          for (const a of Object.values(s.abilities)) {
            if (s.uses[a.id]?.expended !== true) continue;
            const target = rechargeTarget(a);
            if (restoredByRest(a, 'quick')) out.push({ type: '36th-way.abilityRestored', characterId: s.id, ability: a.id, reason: 'quick rest' } satisfies TswEvent);
            else if (target !== null) {
              const r = roll3d6(env.rng, world, 0);
              out.push({ type: '36th-way.rechargeRolled', characterId: s.id, ability: a.id, roll: asJson(r), target, success: r.natural >= target } satisfies TswEvent);
            }
          }
        }
        out.push({ type: 'encounter.rested', rest: 'short' }, clockAdvanced(world, 'shortRest', 1, restSeconds(world, '36th-way.quickRestMinutes', 60)), { type: '36th-way.quickRested' } satisfies TswEvent);
        return okR(out);
      },
    }),
    '36th-way.restRecoveries': handlerOf(restRecoveriesDeclaration, {
      // One PC's share of a quick rest (002 "Quick Rest": heal using any number of recoveries), asked from the phone
      // (ADR 110): each recovery rolled or averaged as the GM's rest does, past the last one halved (002 "Recoveries").
      decide(world, { characterId, count, average }, env) {
        if (getEncounter(world).active) return errR('IN_ENCOUNTER', 'recoveries are spent at a quick rest: end the encounter first (in a fight, Rally heals with one)');
        const found = needSheet(world, characterId, 'characterId');
        if (!found.ok) return found;
        if (found.value.dead) return errR('DEAD', `${found.value.name} is dead`, 'characterId');
        const roll = average === true ? false : setting<string>(world, '36th-way.recoveryRoll') !== 'average';
        const out: EngineEvent[] = [];
        let s = found.value;
        for (let i = 0; i < count; i++) {
          const e = healEvent(world, s, env.rng, { free: false, roll, reason: 'quick rest' });
          out.push(stored(e));
          s = sheetAfterHeal(s, e);
        }
        return okR(out);
      },
    }),
    '36th-way.fullRest': handlerOf(fullRestDeclaration, {
      // Resets HP, recoveries, abilities and resources; a new adventuring day. A retreat to rest is a campaign loss.
      decide(world, { retreat }) {
        if (getEncounter(world).active) return errR('IN_ENCOUNTER', 'end the encounter before resting');
        const out: EngineEvent[] = [];
        if (retreat === true) out.push({ type: '36th-way.campaignLoss', reason: 'retreat to a full rest', day: getTsw(world).day } satisfies TswEvent);
        out.push({ type: 'encounter.rested', rest: 'long' }, clockAdvanced(world, 'longRest', 1, restSeconds(world, '36th-way.fullRestHours', 3600)), { type: '36th-way.fullRested', day: getTsw(world).day + 1 } satisfies TswEvent);
        return okR(out);
      },
    }),
    '36th-way.restore': handlerOf(restoreDeclaration, {
      // Downtime in the middle of an adventuring day: the GM may give back a recovery or a daily ability.
      decide(world, { characterId, recoveries: n = 0, ability }) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        if (ability !== undefined && own(s.value.abilities, ability) === undefined) return errR('NOT_FOUND', `${s.value.name} has no ability ${JSON.stringify(ability)}`, 'ability');
        if (n === 0 && ability === undefined) return errR('INVALID_VALUE', 'give back recoveries, an ability, or both', 'recoveries');
        const out: EngineEvent[] = [];
        if (n > 0) out.push({ type: '36th-way.recoveriesRestored', characterId: s.value.id, from: s.value.recoveries, to: Math.min(s.value.maxRecoveries, s.value.recoveries + n) } satisfies TswEvent);
        if (ability !== undefined) out.push({ type: '36th-way.abilityRestored', characterId: s.value.id, ability, reason: 'downtime' } satisfies TswEvent);
        return okR(out);
      },
    }),
    '36th-way.stance': handlerOf(stanceDeclaration, {
      // Switching stances is a quick action.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, stance }) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        if (stance === s.value.stance) return errR('SAME_STANCE', `${s.value.name} is already in the ${stance} stance`, 'stance');
        const spend = spendIn(world, s.value.id, 'quick');
        if (!spend.ok) return spend;
        return okR([...spend.value, { type: '36th-way.stanceChanged', characterId: s.value.id, stance } satisfies TswEvent]);
      },
    }),
    ...movementCommands(kit, spendIn),
    '36th-way.rally': handlerOf(rallyDeclaration, {
      // Standard action: heal with a recovery, then a save (+ escalation) against one ongoing / save-ends effect, or 13+ against a one-round effect.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, average, against }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        const spend = spendIn(world, s.value.id, 'standard');
        if (!spend.ok) return spend;
        const out: EngineEvent[] = [...spend.value];
        const h = healEvent(world, s.value, env.rng, { free: false, roll: average === true ? false : setting<string>(world, '36th-way.recoveryRoll') !== 'average', reason: 'rally' });
        out.push(stored(h));
        if (against !== undefined) {
          const inst = own(getEncounter(world).conditions, against);
          if (inst === undefined || inst.target !== s.value.id) return errR('NOT_FOUND', `no effect ${JSON.stringify(against)} on ${s.value.name}`, 'against');
          const roll = roll3d6(env.rng, world, saveAdvantage(kit, world, s.value.id));
          // Escalation as every other roll of this creature gets it (NPCs only with the NPC-escalation setting).
          const bonus = escalationOf(kit, world, s.value);
          const target = saveTargetOf(world, inst);
          const words = `${diceWords(roll)}${bonus === 0 ? '' : ` + ${bonus} escalation`} vs ${target}+ (Rally)`;
          out.push({ type: 'condition.saveRolled', id: inst.id, target: s.value.id, condition: inst.defId, success: roll.natural + bonus >= target, roll: asJson({ ...roll, bonus, target, rally: true, words }) });
        }
        return okR(out);
      },
    }),
    '36th-way.fightInSpirit': handlerOf(fightInSpiritDeclaration, {
      // Out of the fight for good: on your turn give an ally Advantage on attacks or saves, or Disadvantage to attacks against them, for a round.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, allyId, boon, reason }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        if (!s.value.outOfFight) return errR('NOT_OUT_OF_FIGHT', `${s.value.name} is not permanently out of the fight`, 'characterId');
        const enc = getEncounter(world);
        if (enc.current !== s.value.id) return errR('NOT_YOUR_TURN', 'fight in spirit on your own turn', 'characterId');
        const ally = needSheet(world, allyId, 'allyId');
        if (!ally.ok) return ally;
        const e = kit.applyCondition(world, { target: ally.value.id, condition: `spirit-${boon}`, source: s.value.id, duration: { kind: 'turnStart', of: s.value.id } }, env.rng);
        if (!e.ok) return e;
        return okR([{ type: '36th-way.foughtInSpirit', characterId: s.value.id, allyId: ally.value.id, boon, reason } satisfies TswEvent, e.value]);
      },
    }),
    '36th-way.flee': handlerOf(fleeDeclaration, {
      // The party agrees to flee with its downed members: a campaign loss, and the fight ends.
      decide(world) {
        const out: EngineEvent[] = [{ type: '36th-way.campaignLoss', reason: 'fled', day: getTsw(world).day } satisfies TswEvent];
        if (getEncounter(world).active) out.push({ type: 'encounter.ended', round: getEncounter(world).round });
        return okR(out);
      },
    }),
    '36th-way.check': handlerOf(checkDeclaration, {
      // A skill check: 3d6 + bonus against a difficulty; Invisible gives 2 Advantage when sneaking.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, difficulty, bonus = 0, advantage = 0, sneak }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        const sneaking = sneak === true && inEncounter(world, s.value.id) ? kit.netEffect(world, s.value.id, 'sneak.advantage') : 0;
        const roll = roll3d6(env.rng, world, advantage + sneaking);
        return okR([{ type: '36th-way.checkRolled', characterId: s.value.id, roll: asJson(roll), bonus, difficulty, sneak: sneak === true, success: roll.natural + bonus >= difficulty } satisfies TswEvent]);
      },
    }),
    '36th-way.diceyMove': handlerOf(diceyMoveDeclaration, {
      // A risky movement as a move action: a skill check against the GM's difficulty.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, difficulty, bonus = 0 }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        const spend = spendIn(world, s.value.id, 'move');
        if (!spend.ok) return spend;
        const roll = roll3d6(env.rng, world, 0);
        return okR([...spend.value, { type: '36th-way.diceyMoveRolled', characterId: s.value.id, roll: asJson(roll), bonus, difficulty, success: roll.natural + bonus >= difficulty } satisfies TswEvent]);
      },
    }),
  };

  // -------------------------------------------------------------- reducers

  const withUse = (s: Sheet, ability: string, fn: (u: NonNullable<Sheet['uses'][string]>) => Sheet['uses'][string]): Sheet => ({
    ...s,
    uses: { ...s.uses, [ability]: fn(s.uses[ability] ?? { expended: false, activeTurn: null })! },
  });
  const restAll = (s: Sheet, full: boolean): Sheet => {
    if (!full || s.dead) return s;
    return { ...s, hp: s.maxHp, recoveries: s.maxRecoveries, exhaustion: 0, uses: {}, resources: { ...s.maxResources }, dying: null, deathFailures: 0, unconscious: s.kind === 'pc' ? false : s.unconscious };
  };

  const typed: Evolve<TswEvent> = {
    '36th-way.sheetSet': (w, e) => {
      const s = e.sheet;
      const st = getTsw(w);
      const w2 = setTsw(w, { ...st, sheets: { ...st.sheets, [s.id]: s } });
      const text = `${s.name}'s sheet was ${e.replaced ? 'updated' : 'added'}.`;
      // A sheet players may not see is announced to the GM only (a hidden character's, an enemy's before the fight).
      return sheetShown(w2, s.id, s) ? appendLog(w2, { audience: audienceOfIds(w2, [s.id]), kind: '36th-way.sheetSet', text }) : appendLog(w2, { audience: { kind: 'gm' }, kind: '36th-way.sheetSet', text });
    },
    '36th-way.sheetRemoved': (w, e) => {
      const st = getTsw(w);
      const id = e.characterId;
      const sheets = { ...st.sheets };
      delete sheets[id];
      const w2 = setTsw(w, { ...st, sheets, engaged: st.engaged.filter((k) => !k.split('|').includes(id)), far: st.far.filter((k) => !k.split('|').includes(id)) });
      // The GM's own bookkeeping, as the event's audience is (players' views simply lose the sheet).
      const character = st.sheets[id]?.characterId ?? null;
      const stays = character !== null && own(w.characters, character) !== undefined ? '; the character stays at the table' : '';
      return appendLog(w2, { audience: { kind: 'gm' }, kind: '36th-way.sheet', text: `${name(w, id)}'s 36th Way sheet is removed${stays}.` });
    },
    '36th-way.outOfFightSet': (w, e) => updateSheet(w, e.characterId, (s) => ({ ...s, outOfFight: e.value })),
    '36th-way.attackRolled': (w, e) => {
      const r = e.roll as { natural?: number; dice?: number[] } | null;
      const what = e.noEffect ? 'had no effect (failed the save to find an Invisible target)' : e.critFail ? 'crit-failed' : e.crit ? 'crit' : e.hit ? 'hit' : 'missed';
      const w1 = e.critFail ? appendLog(w, { audience: { kind: 'gm' }, kind: '36th-way.critFailPrompt', text: `Crit Fail by ${name(w, e.attackerId)}: no miss effects; something else may go wrong.` }) : w;
      const rolled = `natural ${String(r?.natural)}, total ${e.total}; ${what}.`;
      // Players read a foe's defence only once the GM reveals defences (ADR 33): their line names the defence, not its number.
      const hideDefence = isFoe(w, e.targetId) && foeRevealOf(w) === 'none';
      // A foe's attack bonus is the GM's until every number is shown (ADR 33, ADR 40): its total would give it away.
      const hideBonus = isFoe(w, e.attackerId) && !showsFoeNumbers(w);
      const against = hideDefence ? e.defense.toUpperCase() : `${e.defense.toUpperCase()} ${e.defenseValue}`;
      const shown = hideDefence || hideBonus ? `${name(w, e.attackerId)} attacked ${name(w, e.targetId)} (${against}): ${hideBonus ? `natural ${String(r?.natural)}; ${what}.` : rolled}` : undefined;
      return log(w1, e, '36th-way.attack', `${name(w, e.attackerId)} attacked ${name(w, e.targetId)} (${e.defense.toUpperCase()} ${e.defenseValue}): ${rolled}`, { dice: asJson(r?.dice ?? []) }, shown);
    },
    '36th-way.damaged': (w, e) => {
      const id = e.targetId;
      const w2 = updateSheet(w, id, (s) => sheetAfterDamage(s, e));
      const s = own(getTsw(w2).sheets, id);
      const status = s === undefined ? '' : ` (${statusOf(s)})`;
      const why = e.reason === 'ongoing' ? ' ongoing' : e.reason === 'confused' ? ' (Confused)' : '';
      const dealt = `${name(w, id)} took ${e.amount}${why} damage${e.resisted === true ? ' (resisted: halved)' : ''}${e.crit ? ' (crit)' : ''}`;
      // Players read a foe's damage and its fall, never its HP (ADR 33).
      const shown = isFoe(w, id) && !showsFoeNumbers(w) ? `${dealt}.${e.hpTo <= 0 ? ` ${name(w, id)} is down.` : ''}` : undefined;
      // The line names only the one hit, so it goes to whoever sees them: a hidden attacker (sourceId)
      // must not keep a PC's own loss off their phone (review 12 #6); the attack line stays the GM's.
      return appendLog(w2, { audience: audienceOfIds(w2, [id]), kind: '36th-way.damaged', text: `${dealt}: ${e.hpFrom} -> ${e.hpTo} HP${status}.`, ...(shown === undefined ? {} : { shown }) });
    },
    '36th-way.healed': (w, e) => {
      const id = e.characterId;
      const w2 = updateSheet(w, id, (s) => sheetAfterHeal(s, e));
      const how = e.halved ? ' (no recoveries left: halved, -1 Volition and defenses until a full rest)' : '';
      const healed = `${name(w, id)} healed ${e.hpTo - Math.max(0, e.hpFrom)} HP (${e.reason})${how}`;
      // Any healing ends dying (002): the line says so, for the player who was counting death saves.
      const back = e.revived && e.hpFrom <= 0 && own(getTsw(w).sheets, id)?.dying != null ? ', back from dying' : '';
      // A heal with a recovery names it, its die and what is left (review 6: "1d10 [1] = 1 HP (7 left)", 002 "Recoveries").
      const before = own(getTsw(w).sheets, id);
      const recovery = before !== undefined && e.reason !== 'by the GM' && e.reason !== 'npc' ? recoveryLine(before, e, own(getTsw(w2).sheets, id)?.recoveries ?? 0) : null;
      const line = recovery === null ? healed : `${name(w, id)} ${recovery}`;
      return log(w2, e, '36th-way.healed', `${line}: now ${e.hpTo} HP${back}.`, undefined, isFoe(w, id) && !showsFoeNumbers(w) ? `${healed}${back}.` : undefined);
    },
    '36th-way.deathSaveRolled': (w, e) => {
      const id = e.characterId;
      const w2 = updateSheet(w, id, (s) => ({
        ...s,
        deathFailures: e.failures,
        dead: e.dead ? true : s.dead,
        dying: s.dying === null ? null : e.dead ? null : { ...s.dying, savesRolled: s.dying.savesRolled + 1, ...(typeof e.turn === 'number' ? { savedOn: e.turn } : {}) },
      }));
      const kind = e.lastGasp ? 'Last Gasp save' : 'death save';
      // The dice as rolled, and why there were five (review 9: the first save's 2 Disadvantage was not said).
      const first = e.firstSaveDisadvantage > 0 ? `, first save with ${e.firstSaveDisadvantage} Disadvantage (dropped by a crit or to -half HP)` : '';
      const passed = e.passed === true ? ' as the turn passed' : '';
      return log(w2, e, '36th-way.deathSave', `${name(w, id)} rolled a ${kind}${passed}: ${diceWords(e.roll)} vs ${e.target}+${first}, ${e.outcome}${e.counted ? ` (${e.failures} failed this encounter)` : ''}${e.dead ? '; they die.' : '.'}`);
    },
    '36th-way.deathSaveDue': (w, e) => {
      const w2 = updateSheet(w, e.characterId, (s) => (s.dying === null ? s : { ...s, dying: { ...s.dying, dueOn: e.turn } }));
      return log(w2, e, '36th-way.deathSave', `${name(w, e.characterId)} is dying: this turn is their death save (${e.target}+ on 3d6).`);
    },
    '36th-way.stabilized': (w, e) => log(updateSheet(w, e.targetId, (s) => (s.dying === null ? s : { ...s, dying: { ...s.dying, stabilized: true } })), e, '36th-way.stabilized', `${name(w, e.helperId)} stabilized ${name(w, e.targetId)}.`),
    '36th-way.lastGaspStarted': (w, e) =>
      log(
        updateSheet(w, e.characterId, (s) => ({ ...s, dying: { stabilized: false, firstSaveDisadvantage: 0, savesRolled: 0, lastGasp: { hp: e.hp, effect: e.effect } } satisfies Dying })),
        e,
        '36th-way.lastGasp',
        `${name(w, e.characterId)} starts making Last Gasp saves against ${e.effect}.`,
      ),
    '36th-way.lastGaspEnded': (w, e) => log(updateSheet(w, e.characterId, (s) => ({ ...s, dying: null, hp: e.hp })), e, '36th-way.lastGasp', `${name(w, e.characterId)} shakes off ${e.effect}.`),
    '36th-way.abilityUsed': (w, e) => {
      const who = e.characterId;
      const ability = e.ability;
      const serial = getEncounter(w).turnSerial;
      const w2 = updateSheet(w, who, (s) => {
        const a = s.abilities[ability];
        let next = withUse(s, ability, (u) => ({ expended: u.expended || e.expends, activeTurn: a?.sustain != null ? serial : u.activeTurn }));
        if (a?.power != null) next = { ...next, resources: { ...next.resources, [a.power.resource]: (next.resources[a.power.resource] ?? 0) - a.power.amount } };
        return next;
      });
      return log(w2, e, '36th-way.abilityUsed', `${name(w, who)} used ${e.name}.`);
    },
    '36th-way.sustainRolled': (w, e) => {
      const who = e.characterId;
      const ok = e.success;
      // The turn is counted here, not carried in the event (a raw turn number would let players count hidden turns);
      // events stored with a `turn` field held this same value.
      const turn = getEncounter(w).turnSerial;
      const w2 = ok ? updateSheet(w, who, (s) => withUse(s, e.ability, (u) => ({ ...u, activeTurn: turn }))) : w;
      return log(w2, e, '36th-way.sustain', `${name(w, who)} ${ok ? 'sustained' : 'failed to sustain'} ${abilityName(w, who, e.ability)} (${diceWords(e.roll)} vs ${e.target}+)${ok ? '' : ': it ends with the turn'}.`);
    },
    '36th-way.abilityLapsed': (w, e) => log(updateSheet(w, e.characterId, (s) => withUse(s, e.ability, (u) => ({ ...u, activeTurn: null }))), e, '36th-way.sustain', `${name(w, e.characterId)}'s ${abilityName(w, e.characterId, e.ability)} ends.`),
    '36th-way.abilityRestored': (w, e) => {
      const w2 = updateSheet(w, e.characterId, (s) => withUse(s, e.ability, () => ({ expended: false, activeTurn: null })));
      return e.reason === 'downtime' ? log(w2, e, '36th-way.restore', `${name(w, e.characterId)} gets ${abilityName(w, e.characterId, e.ability)} back after some downtime.`) : w2;
    },
    '36th-way.recoveriesRestored': (w, e) =>
      log(updateSheet(w, e.characterId, (s) => ({ ...s, recoveries: e.to })), e, '36th-way.restore', `${name(w, e.characterId)} regains ${e.to - e.from} ${e.to - e.from === 1 ? 'recovery' : 'recoveries'} after some downtime (${e.to} of ${own(getTsw(w).sheets, e.characterId)?.maxRecoveries ?? e.to} now).`),
    '36th-way.rechargeRolled': (w, e) => {
      const w2 = e.success ? updateSheet(w, e.characterId, (s) => withUse(s, e.ability, () => ({ expended: false, activeTurn: null }))) : w;
      const r = e.roll as { natural?: number } | null;
      return log(w2, e, '36th-way.recharge', `${name(w, e.characterId)} rolled ${String(r?.natural)} to recharge ${abilityName(w, e.characterId, e.ability)} (${e.target}+): ${e.success ? 'recharged' : 'still expended'}.`);
    },
    '36th-way.quickRested': (w, e) => log(w, e, '36th-way.rest', 'The party took a quick rest.'),
    '36th-way.fullRested': (w, e) => {
      const st = getTsw(w);
      const sheets = Object.fromEntries(Object.entries(st.sheets).map(([k, s]) => [k, restAll(s, true)]));
      return log(setTsw(w, { ...st, sheets, day: e.day }), e, '36th-way.rest', `The party took a full rest; adventuring day ${e.day} begins.`);
    },
    '36th-way.campaignLoss': (w, e) => {
      const st = getTsw(w);
      return log(setTsw(w, { ...st, campaignLosses: [...st.campaignLosses, { reason: e.reason, day: e.day }] }), e, '36th-way.campaignLoss', `Campaign Loss: the party ${e.reason === 'fled' ? 'fled' : 'retreated to rest'}; something major goes wrong.`);
    },
    '36th-way.stanceChanged': (w, e) => log(updateSheet(w, e.characterId, (s) => ({ ...s, stance: e.stance === 'ranged' ? 'ranged' : 'melee' })), e, '36th-way.stance', `${name(w, e.characterId)} switched to the ${e.stance} stance.`),
    ...movementReducers,
    '36th-way.hitRecorded': (w, e) =>
      updateSheet(w, e.attackerId, (s) => {
        const round = e.round;
        const prev = s.hitThisRound.round === round ? s.hitThisRound.targets : [];
        return { ...s, hitThisRound: { round, targets: [...new Set([...prev, ...e.targetIds])] } };
      }),
    '36th-way.confusedSaveRolled': (w, e) => log(w, e, '36th-way.confused', `${name(w, e.characterId)} (Confused) ${e.what} and ${e.success ? 'kept their wits' : 'hurt themselves'}.`),
    '36th-way.foughtInSpirit': (w, e) => log(w, e, '36th-way.spirit', `${name(w, e.characterId)} fights in spirit beside ${name(w, e.allyId)}: ${e.reason}`),
    '36th-way.checkRolled': (w, e) => {
      const r = e.roll as { natural?: number } | null;
      return log(w, e, '36th-way.check', `${name(w, e.characterId)} made a check (${String((r?.natural ?? 0) + e.bonus)} vs ${e.difficulty}): ${e.success ? 'success' : 'failure'}.`);
    },
    '36th-way.diceyMoveRolled': (w, e) => {
      const r = e.roll as { natural?: number } | null;
      return log(w, e, '36th-way.diceyMove', `${name(w, e.characterId)} tried a dicey move (${String((r?.natural ?? 0) + e.bonus)} vs ${e.difficulty}): ${e.success ? 'success' : 'failure'}.`);
    },
  };
  const reducers: Record<string, Reducer> = {
    ...reducersOf(typed),
    // Provocations and intercept windows last only for the moment they answer.
    'encounter.turnStarted': onSt((st) => (st.provocations.length === 0 && st.lastEngage === null ? st : { ...st, provocations: [], lastEngage: null })),
    // Death save failures count per encounter; positions belong to one fight.
    'encounter.ended': (w) => {
      const st = getTsw(w);
      const next = setTsw(w, {
        ...st,
        engaged: [],
        far: [],
        provocations: [],
        lastEngage: null,
        sheets: Object.fromEntries(Object.entries(st.sheets).map(([k, s]) => [k, { ...s, deathFailures: 0, uses: Object.fromEntries(Object.entries(s.uses).map(([a, u]) => [a, { ...u, activeTurn: null }])) }])),
      });
      // 002 "Dying and Death": a PC still dying when the fight ends is named (review 7: only "the encounter ends" was said),
      // with what saves him: any healing, a recovery at the quick rest counted from 0 HP.
      let out = next;
      for (const s of Object.values(st.sheets)) {
        // At 0 HP or below: a last gasp keeps `dying` set at positive HP, and is not dying in 002's sense.
        if (s.kind !== 'pc' || s.dead || s.dying === null || s.hp > 0) continue;
        const fails = s.deathFailures === 0 ? '' : `, ${s.deathFailures} failed death save${s.deathFailures === 1 ? '' : 's'}`;
        out = appendLog(out, { audience: audienceOfIds(out, [s.id]), kind: '36th-way.leftDying', text: `${s.name} is still dying (${s.hp} HP${fails}): any healing brings them back, counted from 0 HP; a recovery at the quick rest will do.` });
      }
      return out;
    },
  };

  const audience = sameAudience<TswEvent>(
    Object.keys(reducers).filter((t) => t.startsWith('36th-way.')),
    eventAudience,
  );
  // Removing a sheet is the GM's bookkeeping (it may be an enemy players never saw).
  audience['36th-way.sheetRemoved'] = () => ({ kind: 'gm' });
  // A new sheet: an enemy's stays with the GM until it is openly in a fight.
  Object.assign(
    audience,
    audiencesOf<TswEvent>({
      '36th-way.sheetSet': (w, e) => (!sheetShown(w, e.sheet.id, e.sheet) ? { kind: 'gm' } : audienceOfIds(w, [e.sheet.id])),
    }),
  );

  // Built field by field from known lists, so a field added to a sheet later stays the GM's until it is listed here.
  const shownSheet = (sh: Sheet, shown: (id: string) => boolean, turn: (n: number | null) => number | null): Sheet => ({
    id: sh.id,
    name: sh.name,
    kind: sh.kind,
    characterId: sh.characterId,
    level: sh.level,
    tier: sh.tier,
    volition: sh.volition,
    ac: sh.ac,
    pd: sh.pd,
    md: sh.md,
    maxHp: sh.maxHp,
    hp: sh.hp,
    recoveries: sh.recoveries,
    maxRecoveries: sh.maxRecoveries,
    recoveryDice: { count: sh.recoveryDice.count, sides: sh.recoveryDice.sides },
    recoveryBonus: sh.recoveryBonus,
    exhaustion: sh.exhaustion,
    resources: numbers(sh.resources),
    maxResources: numbers(sh.maxResources),
    resist: numbers(sh.resist),
    weak: [...sh.weak],
    stance: sh.stance,
    stanceDice: { melee: sh.stanceDice.melee, ranged: sh.stanceDice.ranged },
    rangedReach: sh.rangedReach,
    basicMiss: sh.basicMiss,
    usesEscalation: sh.usesEscalation,
    abilities: Object.fromEntries(
      Object.entries(sh.abilities).map(([k, a]) => [
        k,
        {
          id: a.id,
          name: a.name,
          types: [...a.types],
          frequency: a.frequency.kind === 'recharge' ? { kind: 'recharge', target: a.frequency.target } : { kind: a.frequency.kind },
          action: a.action,
          provokes: a.provokes,
          sustain: a.sustain,
          power: a.power === null ? null : { amount: a.power.amount, resource: a.power.resource },
          escalation: a.escalation === null ? null : { min: a.escalation.min, parity: a.escalation.parity, special: a.escalation.special },
          basic: a.basic,
          other: [...a.other],
          ...(a.attack === undefined ? {} : { attack: shownAttack(a.attack) }),
        },
      ]),
    ),
    uses: Object.fromEntries(Object.entries(sh.uses).map(([k, u]) => [k, { expended: u.expended, activeTurn: turn(u.activeTurn) }])),
    dying:
      sh.dying === null
        ? null
        : {
            stabilized: sh.dying.stabilized,
            firstSaveDisadvantage: sh.dying.firstSaveDisadvantage,
            savesRolled: sh.dying.savesRolled,
            lastGasp: sh.dying.lastGasp === null ? null : { hp: sh.dying.lastGasp.hp, effect: sh.dying.lastGasp.effect },
            // Older tables' dying PCs have neither (ADR 69).
            ...(sh.dying.dueOn == null ? {} : { dueOn: turn(sh.dying.dueOn) }),
            ...(sh.dying.savedOn == null ? {} : { savedOn: turn(sh.dying.savedOn) }),
          },
    deathFailures: sh.deathFailures,
    dead: sh.dead,
    unconscious: sh.unconscious,
    outOfFight: sh.outOfFight,
    // Whom it hit this round: only those the player may see.
    hitThisRound: { round: sh.hitThisRound.round, targets: sh.hitThisRound.targets.filter(shown) },
  });

  // Players and spectators: shown sheets only, field by field, and no pairing, provocation or engagement naming a secret combatant.
  const project = (world: World, viewer: { readonly role: string }, source: World = world): World => {
    if (viewer.role === 'gm') return world;
    const st = getTsw(world);
    const hiddenIds = secretIds(world);
    // The full encounter: the kernel's projection (which may run first) drops the record of hidden turns.
    const enc = getEncounter(source);
    for (const [k, sh] of Object.entries(getTsw(source).sheets)) if (!sheetShown(source, k, sh)) hiddenIds.add(k);
    const seen = getEncounter(world).combatants;
    for (const id of Object.keys(enc.combatants)) if (!Object.hasOwn(seen, id)) hiddenIds.add(id);
    for (const id of enc.hiddenGone ?? []) hiddenIds.add(id);
    const shown = (x: string): boolean => !hiddenIds.has(x);
    const keep = (k: string): boolean => k.split('|').every(shown);
    // Turn numbers as the kernel shows them to players (hidden turns not counted).
    const turn = (n: number | null): number | null => (n === null ? null : playerTurnSerial(enc, n));
    const last = st.lastEngage;
    const foeKeys_ = foeKeys(source, viewer as Viewer, TSW_FOE_FIELDS);
    const view: TswState = {
      sheets: Object.fromEntries(Object.entries(st.sheets).filter(([k]) => shown(k)).map(([k, sh]) => [k, isFoe(source, k) ? foeSheet(shownSheet(sh, shown, turn), foeKeys_) : shownSheet(sh, shown, turn)])),
      engaged: st.engaged.filter(keep),
      far: st.far.filter(keep),
      provocations: st.provocations.filter((p) => shown(p.by)).map((p) => ({ id: p.id, by: p.by, against: p.against.filter(shown), reason: p.reason, round: p.round })),
      lastEngage: last === null || !shown(last.mover) || !shown(last.target) ? null : { mover: last.mover, target: last.target, intercept: last.intercept, serial: playerTurnSerial(enc, last.serial) },
      campaignLosses: st.campaignLosses.map((l) => ({ reason: l.reason, day: l.day })),
      day: st.day,
      nextProvocation: 0,
    };
    return setTsw(world, view);
  };

  // The projector's rule for one sheet id (ADR 18): a sheet is hidden exactly when sheetShown says so.
  const idStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
    const sheet = own(getTsw(world).sheets, id);
    if (sheet === undefined) return undefined;
    return viewer.role === 'gm' || sheetShown(world, id, sheet) ? 'shown' : 'hidden';
  };

  const projectReads: ProjectorReads = { reads: [`ext.${TSW_ID}`, 'characters', 'seats', 'ext.encounter', `ext.${FOES_ID}`], writes: [`ext.${TSW_ID}`] };
  // History as players read it: a foe's damage and healing without its HP; `hpTo` stays only as 0 when it falls (ADR 33).
  const withoutHp = (id: string) => foeNumbersView({ id, numbers: ['hpFrom', 'hpTo'], fall: 'hpTo', foe: isFoe });
  const targetDefences = foeNumbersView({ id: 'targetId', numbers: ['defenseValue', 'weak', 'critAt'], revealedBy: 'defences', foe: isFoe });
  // A foe's attack as players read it: the natural roll and the outcome, not its bonus (the parts and the total).
  const attackerNumbers = foeNumbersView({ id: 'attackerId', numbers: ['parts', 'total'], foe: isFoe });
  const eventView = {
    '36th-way.damaged': withoutHp('targetId'),
    '36th-way.healed': withoutHp('characterId'),
    // The defence's number and whether the foe is weak to the attack (its crit range follows) are its defences.
    '36th-way.attackRolled': (w: World, e: EngineEvent): EngineEvent => attackerNumbers(w, targetDefences(w, e)),
    ...eventViewsOf<TswEvent>({
      // A foe's sheet shown in history as in the state: its declared keys only.
      '36th-way.sheetSet': (w, e) => {
        const sh = e.sheet;
        if (typeof sh !== 'object' || sh === null || sh.kind === 'pc' || !isFoe(w, sh.id)) return e;
        return { ...e, sheet: foeSheet(sh, foeKeys(w, { role: 'spectator' }, TSW_FOE_FIELDS)) };
      },
    }),
  };
  // Its foe rule reads the sheets (their kind and character) too (ADR 45).
  const eventViewBasis = (w: World): string => foeBasis(w, isFoe, Object.keys(getTsw(w).sheets));
  const module: Module = { id: TSW_ID, commands, reducers, audience, project, projectReads, idStatus, eventView, eventViewBasis, queries: tswQueries(kit), reactions: [foeSheetsAtStart] };
  return { module, kit };
}


/**
 * A foe's sheet as players read it (ADR 33): the declared keys only; its hit points
 * only as a fall to 0; collections it keeps from them read as empty, so the odds and
 * actions code that walks them on a player's view has nothing to walk.
 */
function foeSheet(sh: Sheet, keys: ReadonlySet<string> | null): Sheet {
  if (keys === null) return sh;
  const picked = pickKeys(sh as unknown as { readonly [k: string]: Json }, keys);
  const hidden = { resources: {}, maxResources: {}, resist: {}, weak: [], abilities: {}, uses: {} };
  return { ...hidden, ...picked, ...(sh.hp <= 0 ? { hp: 0 } : {}) } as unknown as Sheet;
}

/** An ability's attack, field by field (a player's view copies only the fields named). */
function shownAttack(t: AbilityAttack): AbilityAttack {
  const dice = (d: DamageDice | null): DamageDice | null => (d === null ? null : { count: d.count, sides: d.sides, bonus: d.bonus });
  return { defense: t.defense, bonus: t.bonus, reach: t.reach, targets: t.targets, asBasic: t.asBasic, hit: dice(t.hit), miss: t.miss, missDice: dice(t.missDice), types: [...t.types], rollAllFirst: t.rollAllFirst, ...(t.wholeBonus === true ? { wholeBonus: true } : {}) };
}
