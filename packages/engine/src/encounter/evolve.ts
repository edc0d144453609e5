// The encounter's reducers and the log line each writes.
import { own } from '../core/own.js';
import type { EngineEvent, Json, Reducer, World } from '../core/types.js';
import { reducersOf, type EventOf, type Evolve } from '../core/events.js';
import { appendLog, appendOrComplete, openSentence } from '../core/log.js';
import { isFoe, showsFoeNumbers } from '../foes/model.js';
import { claimId } from '../core/ids.js';
import { AUDIENCE_ALL, AUDIENCE_GM } from '../core/visibility.js';
import { applySpend, grant, resetEconomy } from './economies.js';
import { conditionDef, reduceApplied, reduceRemoved, reduceStacked, reduceStackLost } from './conditions.js';
import { escalationBase, escalationValue } from './escalation.js';
import { encounterTitle } from './selectors.js';
import { EMPTY_ECONOMY, EMPTY_ENCOUNTER, getEncounter, setEncounter, updateEncounter } from './state.js';
import type { EncounterEvent } from './events.js';
import type { Combatant, EconomyState, EncounterRules, EncounterState } from './types.js';

type Ev<T extends EncounterEvent['type']> = EventOf<EncounterEvent, T>;

/** A save's dice and target as the ruleset worded them in its roll (`roll.words`), or nothing for rolls without. */
function saveWords(roll: Json): string {
  const w = roll !== null && typeof roll === 'object' && !Array.isArray(roll) ? roll['words'] : undefined;
  return typeof w === 'string' && w.length > 0 ? `: ${w}` : '';
}

export function encounterReducers(rules: EncounterRules): Record<string, Reducer> {
  const seqr = rules.sequencer;

  const onEnc =
    <T extends EncounterEvent['type']>(fn: (enc: EncounterState, e: Ev<T>, world: World) => EncounterState) =>
    (world: World, e: Ev<T>): World =>
      setEncounter(world, fn(getEncounter(world), e, world));
  const econ = (enc: EncounterState, id: string, fn: (s: EconomyState) => EconomyState): EncounterState => ({
    ...enc,
    economy: { ...enc.economy, [id]: fn(own(enc.economy, id) ?? EMPTY_ECONOMY) },
  });
  /** Remember ids of hidden combatants that leave, so views keep hiding whatever still names them. */
  const withGone = (enc: EncounterState, ids: readonly string[]): { hiddenGone?: readonly string[] } => {
    const prev = enc.hiddenGone ?? [];
    const add = ids.filter((id) => !prev.includes(id));
    return add.length === 0 ? (enc.hiddenGone === undefined ? {} : { hiddenGone: prev }) : { hiddenGone: [...prev, ...add] };
  };
  const withCombatant = (enc: EncounterState, id: string, fn: (c: Combatant) => Combatant): EncounterState => {
    const c = own(enc.combatants, id);
    return c === undefined ? enc : { ...enc, combatants: { ...enc.combatants, [id]: fn(c) } };
  };
  /** A log entry about a combatant: GM-only while hidden; while only known to exist, nameless for players (the GM still reads the name). */
  const logAbout = (world: World, c: Combatant | undefined, kind: string, text: (name: string) => string): World => {
    if (c === undefined) return world;
    const audience = c.visibility === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL;
    return appendLog(world, { audience, kind, text: text(c.name), ...(c.visibility === 'existence' ? { shown: text('Unknown') } : {}), data: { id: c.id } });
  };

  const reducers: Evolve<EncounterEvent> = {
    'encounter.started': onEnc((enc, e) => {
      const list = e.combatants;
      const combatants: Record<string, Combatant> = {};
      for (const c of list) combatants[c.id] = c;
      return {
        ...EMPTY_ENCOUNTER,
        conditions: enc.conditions,
        active: true,
        // Counted here, not carried in the event, so tables recorded before numbering replay to the same count.
        number: (enc.number ?? 0) + 1,
        round: e.round,
        combatants,
        roster: list.map((c) => c.id),
        nextJoin: list.length,
        seq: e.seq ?? null,
        surpriseActors: e.surpriseActors ?? null,
        turnSerial: enc.turnSerial,
        ...(enc.hiddenTurns !== undefined ? { hiddenTurns: enc.hiddenTurns } : {}),
        ...(enc.hiddenTurnsEnded !== undefined ? { hiddenTurnsEnded: enc.hiddenTurnsEnded } : {}),
        // The last encounter's hidden combatants stay secret (lingering conditions may still name them).
        ...withGone(enc, enc.roster.filter((id) => own(enc.combatants, id)?.visibility === 'hidden')),
      };
    }),
    'encounter.ended': onEnc((enc) => ({ ...enc, active: false, current: null, pending: null })),
    'encounter.combatantAdded': onEnc((enc, e) => {
      const c = e.combatant;
      // A pending choice is recomputed so the newcomer can be offered.
      return { ...enc, combatants: { ...enc.combatants, [c.id]: c }, roster: [...enc.roster, c.id], nextJoin: Math.max(enc.nextJoin, c.joined + 1), pending: null };
    }),
    'encounter.combatantRemoved': onEnc((enc, e) => {
      const id = e.id;
      const combatants = { ...enc.combatants };
      delete combatants[id];
      const economy = { ...enc.economy };
      delete economy[id];
      const conditions = Object.fromEntries(Object.entries(enc.conditions).filter(([, c]) => c.target !== id));
      const pending = enc.pending === null ? null : enc.pending.options.includes(id) ? null : enc.pending;
      const lastTurn = { ...enc.lastTurn };
      delete lastTurn[id];
      return {
        ...enc,
        ...withGone(enc, own(enc.combatants, id)?.visibility === 'hidden' ? [id] : []),
        lastTurn,
        combatants,
        economy,
        conditions,
        roster: enc.roster.filter((r) => r !== id),
        acted: enc.acted.filter((r) => r !== id),
        current: enc.current === id ? null : enc.current,
        pending,
        surpriseActors: enc.surpriseActors?.filter((r) => r !== id) ?? null,
      };
    }),
    'encounter.hpChanged': (world, e) => {
      const id = e.id;
      const to = e.to;
      if (e.on === 'combatant') return updateEncounter(world, (enc) => withCombatant(enc, id, (c) => ({ ...c, stats: { ...c.stats, hp: to } })));
      // No combatant of that id: a character outside any fight, named by its own id (ADR 104).
      const played = own(getEncounter(world).combatants, id);
      const chId = played === undefined ? id : played.characterId;
      const ch = chId === null ? undefined : own(world.characters, chId);
      return ch === undefined ? world : { ...world, characters: { ...world.characters, [ch.id]: { ...ch, stats: { ...ch.stats, hp: to } } } };
    },
    'encounter.statsSet': onEnc((enc, e) => withCombatant(enc, e.id, (c) => ({ ...c, stats: { ...c.stats, ...e.stats } }))),
    'encounter.visibilitySet': onEnc((enc, e) => withCombatant(enc, e.id, (c) => ({ ...c, visibility: e.visibility }))),
    'encounter.linked': onEnc((enc, e) => withCombatant(enc, e.id, (c) => ({ ...c, characterId: e.characterId }))),
    'encounter.incapacitatedSet': onEnc((enc, e) => {
      const id = e.id;
      const next = withCombatant(enc, id, (c) => ({ ...c, incapacitated: e.value === true }));
      // A pending choice is recomputed after any change in who can act.
      return { ...next, pending: null };
    }),
    'encounter.decisionWithdrawn': onEnc((enc) => ({ ...enc, pending: null })),
    'encounter.decisionPending': onEnc((enc, e) => ({ ...enc, pending: e.decision })),
    'encounter.turnStarted': (world, e) => {
      const enc = getEncounter(world);
      const id = e.id;
      // The serial is counted here, not carried in the event: a visible turn's event must not reveal how many hidden turns came before.
      const serial = enc.turnSerial + 1;
      const who = own(enc.combatants, id);
      const hidden = who?.visibility === 'hidden';
      let next: EncounterState = {
        ...enc,
        current: id,
        pending: null,
        turnSerial: serial,
        lastTurn: { ...enc.lastTurn, [id]: serial },
        ...(hidden ? { hiddenTurns: [...(enc.hiddenTurns ?? []), serial] } : {}),
      };
      next = withCombatant(next, id, (c) => ({ ...c, readied: null }));
      next = econ(next, id, (s) => resetEconomy(rules.economy, s, 'turnStart'));
      if (seqr.onTurnStarted !== undefined) next = { ...next, seq: seqr.onTurnStarted(next, id) };
      return logAbout(setEncounter(world, next), who, 'encounter.turnStarted', (name) => `${name}: turn ${e.round === 0 ? 'in the surprise round' : 'starts'}.`);
    },
    'encounter.turnEnded': (world, e) => {
      const id = e.id;
      return updateEncounter(world, (enc) => {
        const wasHidden = (enc.hiddenTurns ?? []).includes(own(enc.lastTurn, id) ?? -1);
        const next = { ...enc, current: null, acted: enc.acted.includes(id) ? enc.acted : [...enc.acted, id], ...(wasHidden ? { hiddenTurnsEnded: (enc.hiddenTurnsEnded ?? 0) + 1 } : {}) };
        return econ(next, id, (s) => resetEconomy(rules.economy, s, 'turnEnd'));
      });
    },
    'encounter.joinedLate': onEnc((enc, e) => {
      const id = e.id;
      return enc.acted.includes(id) ? enc : { ...enc, acted: [...enc.acted, id] };
    }),
    'encounter.turnSkipped': onEnc((enc, e) => {
      const id = e.id;
      return enc.acted.includes(id) ? enc : { ...enc, acted: [...enc.acted, id] };
    }),
    'encounter.savesDue': (world) => world,
    'encounter.turnClosed': (world) => world,
    // The table clock moves through the core's clock.advanced events (emitted by the phases reaction), never here.
    'encounter.roundEnded': (world) => world,
    'encounter.roundStarted': onEnc((enc, e) => {
      let next: EncounterState = { ...enc, round: e.round, acted: [], surpriseActors: null, current: null, pending: null };
      for (const id of next.roster) next = econ(next, id, (s) => resetEconomy(rules.economy, s, 'roundStart'));
      if (seqr.onRoundStarted !== undefined) next = { ...next, seq: seqr.onRoundStarted(next) };
      return next;
    }),
    'encounter.initiativeRerolled': onEnc((enc, e) => {
      let next = enc;
      for (const [id, placement] of Object.entries(e.placements)) next = withCombatant(next, id, (c) => ({ ...c, placement }));
      return next;
    }),
    'encounter.delayed': onEnc((enc, e) => {
      const id = e.id;
      return withCombatant({ ...enc, current: enc.current === id ? null : enc.current }, id, (c) => ({ ...c, placement: e.placement ?? null }));
    }),
    'encounter.placed': onEnc((enc, e) => ({ ...withCombatant(enc, e.id, (c) => ({ ...c, placement: e.placement ?? null })), pending: null })),
    'encounter.readied': onEnc((enc, e) =>
      withCombatant(enc, e.id, (c) => ({ ...c, readied: { action: e.action, trigger: e.trigger, round: e.round } })),
    ),
    'encounter.readyTaken': onEnc((enc, e) => {
      const id = e.id;
      const p = e.placement;
      let next = withCombatant(enc, id, (c) => ({ ...c, readied: null, placement: p === null || p === undefined ? c.placement : p }));
      if (e.forNextTurn === true) {
        const pool = rules.economy.payers[e.action]?.[0];
        if (pool !== undefined) next = econ(next, id, (s) => ({ ...s, owed: { ...s.owed, [pool]: (s.owed[pool] ?? 0) + 1 } }));
      }
      return next;
    }),
    'economy.spent': onEnc((enc, e) => {
      const pay = { paid: e.paid, extended: e.extended ?? null, completed: e.completed ?? null };
      const tag = e.tag ?? undefined;
      const limit = e.limit ?? undefined;
      const ahead = e.forNextTurn === true ? { forNextTurn: true } : {};
      return econ(enc, e.combatant, (s) => applySpend(s, pay, { cost: e.cost, ...(tag !== undefined ? { tag } : {}), ...(limit !== undefined ? { limit } : {}), ...ahead }));
    }),
    'economy.extendedCancelled': onEnc((enc, e) => econ(enc, e.combatant, (s) => ({ ...s, extended: null }))),
    'economy.granted': onEnc((enc, e) => econ(enc, e.combatant, (s) => grant(s, e.pool, e.n))),
    'encounter.escalationOffsetSet': onEnc((enc, e) => ({ ...enc, escalation: { ...enc.escalation, offset: e.offset } })),
    'encounter.escalationSuppressed': onEnc((enc, e) => {
      const id = e.id;
      const rest = enc.escalation.suppressed.filter((s) => s !== id);
      return { ...enc, escalation: { ...enc.escalation, suppressed: e.suppressed === true ? [...rest, id] : rest } };
    }),
    'condition.applied': (world, e) => {
      const w = setEncounter(world, reduceApplied(getEncounter(world), e));
      const id = e.id;
      // Stored sequential ids (cond7) move the counter past them, as they always did; a random one counts one mint.
      if (!/^cond\d+$/.test(id)) return claimId(w, id);
      const n = Number(id.slice(4));
      return n >= w.nextId ? { ...w, nextId: n + 1 } : w;
    },
    'condition.stacked': onEnc((enc, e) => reduceStacked(enc, e)),
    'condition.removed': onEnc((enc, e) => reduceRemoved(enc, e.id)),
    'condition.expired': onEnc((enc, e) => reduceRemoved(enc, e.id)),
    'condition.stackLost': onEnc((enc, e) => reduceStackLost(enc, e.id)),
    'condition.saveRolled': onEnc((enc, e) => (e.success === true ? reduceRemoved(enc, e.id) : enc)),
    'encounter.rested': (world) => world,
  };

  // -------------------------------------------------------------- log entries

  const defName = (defId: string): string => conditionDef(rules.conditions, defId)?.name ?? defId;
  /** A condition entry is public only while its bearer is fully visible (players see no conditions on veiled combatants). */
  const logCondition = (world: World, targetId: string, text: (name: string) => string): World => {
    const c = own(getEncounter(world).combatants, targetId);
    if (c === undefined) return world;
    return appendLog(world, { audience: c.visibility === 'visible' ? AUDIENCE_ALL : AUDIENCE_GM, kind: 'encounter.condition', text: text(c.name), data: { target: c.id } });
  };
  const stacksText = (n: number): string => (n === 1 ? '' : ` (${n} stacks)`);
  const logs: { readonly [T in EncounterEvent['type']]?: (before: World, after: World, e: Ev<T>) => World } = {
    'encounter.started': (_b, w, e) =>
      appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.started', text: `${encounterTitle(getEncounter(w))} begins${e.round === 0 ? ' with a surprise round' : ''}.`, data: { number: getEncounter(w).number ?? 1 } }),
    'encounter.ended': (_b, w, e) =>
      // A spotlight keeps no rounds the table can see (000): its fight just ends (ADR 57).
      appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.ended', text: `${encounterTitle(getEncounter(w))} ends${seqr.id === 'spotlight' ? '' : ` after round ${e.round}`}.`, data: { number: getEncounter(w).number ?? 1 } }),
    'encounter.roundStarted': (_b, w, e) => appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.roundStarted', text: `Round ${e.round} begins.` }),
    'encounter.initiativeRerolled': (_b, w, e) => appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.initiativeRerolled', text: `Initiative is rolled again for round ${e.round}: see the new order.` }),
    'encounter.combatantAdded': (_b, w, e) => {
      return logAbout(w, own(getEncounter(w).combatants, e.combatant.id), 'encounter.joined', (name) => `${name} joins the encounter.`);
    },
    'encounter.combatantRemoved': (b, w, e) => logAbout(w, own(getEncounter(b).combatants, e.id), 'encounter.left', (name) => `${name} leaves the encounter.`),
    'encounter.hpChanged': (_b, w, e) => {
      const c = own(getEncounter(w).combatants, e.id);
      if (c === undefined) return outsideFightLine(w, e);
      const amount = e.amount;
      const defeated = e.kind === 'damage' && e.to <= 0 && c.kind === 'npc';
      // One line says who, how much and the result; a foe's HP stay the GM's (ADR 33), and so does an unknown's name.
      const hp = typeof e.from === 'number' && typeof e.to === 'number' ? `HP ${e.from} → ${e.to}` : null;
      const secret = c.visibility === 'existence' || (isFoe(w, e.id) && !showsFoeNumbers(w));
      const said = (name: string, withHp: boolean): string =>
        `${name} ${e.kind === 'damage' ? `takes ${amount} damage` : `is healed by ${amount}`}${withHp && hp !== null ? ` (${hp})` : ''}${defeated ? ' and is defeated' : ''}.`;
      const shownName = c.visibility === 'existence' ? 'Unknown' : c.name;
      const audience = c.visibility === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL;
      const entry = { audience, kind: 'encounter.hp', text: said(c.name, true), ...(secret ? { shown: said(shownName, false) } : {}), data: { id: c.id } };
      // A ruleset's attack line that named this damage (data.damageTo) is completed with the result, not followed by a second line.
      return appendOrComplete(w, entry, (prev) => {
        const d = prev.data;
        if (e.kind !== 'damage' || d === null || typeof d !== 'object' || Array.isArray(d) || d['damageTo'] !== e.id) return null;
        const fell = defeated ? `${hp === null ? '' : ', '}${c.name} is defeated` : '';
        const tail = `${hp ?? ''}${fell}`;
        const text = `${openSentence(prev.text)}${tail === '' ? '' : `: ${tail}`}.`;
        if (!secret && prev.shown === undefined) return { text };
        const shownTail = secret ? (defeated ? `: ${shownName} is defeated` : '') : tail === '' ? '' : `: ${tail}`;
        return { text, shown: `${openSentence(prev.shown ?? prev.text)}${shownTail}.` };
      });
    },
    'encounter.turnSkipped': (_b, w, e) => logAbout(w, own(getEncounter(w).combatants, e.id), 'encounter.turnSkipped', (name) => `${name} cannot act and loses this turn.`),
    'encounter.visibilitySet': (b, w, e) => {
      const was = own(getEncounter(b).combatants, e.id);
      const now = own(getEncounter(w).combatants, e.id);
      if (was === undefined || now === undefined || was.visibility === now.visibility) return w;
      // A reveal is announced to everyone; hiding or veiling is a note for the GM only.
      if (now.visibility === 'visible') return appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.revealed', text: `${now.name} is revealed.`, data: { id: now.id } });
      return appendLog(w, { audience: AUDIENCE_GM, kind: 'encounter.hidden', text: `${now.name} is now ${now.visibility === 'hidden' ? 'hidden from' : 'only known to'} the players.`, data: { id: now.id } });
    },
    // 002 "Escalation Die" (and the surprise note beside it): the GM's hand on the die, said with what it reads now.
    'encounter.escalationOffsetSet': (b, w, e) => {
      const was = getEncounter(b).escalation.offset;
      const by = e.offset - was;
      const now = escalationValue(getEncounter(w), rules.escalation);
      const how = e.offset === 0 && by !== 0 ? "back to the round's count" : by > 0 ? `up by ${by}` : by < 0 ? `down by ${-by}` : 'where it was';
      // In the surprise round the die is not on the table yet: say what round 1 will read (002's PC ambush starts it at 1).
      const enc = getEncounter(w);
      const first = Math.max(0, Math.min(rules.escalation?.max ?? 6, escalationBase(1, rules.escalation) + e.offset));
      const reads = enc.active && enc.round < 1 ? `it reads 0 in the surprise round and ${first} in round 1` : `it reads ${now}`;
      return appendLog(w, { audience: AUDIENCE_ALL, kind: 'encounter.escalation', text: `The GM moves the escalation die ${how}: ${reads}.` });
    },
    'encounter.escalationSuppressed': (b, w, e) => {
      const was = getEncounter(b).escalation.suppressed.includes(e.id);
      if (was === e.suppressed) return w;
      return logAbout(w, own(getEncounter(w).combatants, e.id), 'encounter.escalation', (name) => (e.suppressed ? `The GM holds the escalation die for ${name}: it counts as 0 for them.` : `${name} counts the escalation die again.`));
    },
    // What a GM's or player's control changed for one combatant (issue 20), in words; a change of nothing says nothing.
    'encounter.incapacitatedSet': (b, w, e) =>
      own(getEncounter(b).combatants, e.id)?.incapacitated === e.value
        ? w
        : logAbout(w, own(getEncounter(w).combatants, e.id), 'encounter.incapacitated', (name) => (e.value ? `${name} cannot act.` : `${name} can act again.`)),
    'encounter.readyTaken': (_b, w, e) => {
      const enc = getEncounter(w);
      const c = own(enc.combatants, e.id);
      const before = e.before === e.id ? undefined : own(enc.combatants, e.before);
      if (c === undefined) return w;
      const said = (name: string, other: string | undefined): string => `${name} takes the readied ${e.action}${other === undefined ? '' : ` before ${other}'s turn`}.`;
      // The one interrupted names the line too: hidden, the line is the GM's; known to exist only, players read "Unknown".
      const hidden = c.visibility === 'hidden' || before?.visibility === 'hidden';
      const veiled = c.visibility === 'existence' || before?.visibility === 'existence';
      const unknown = (x: Combatant): string => (x.visibility === 'existence' ? 'Unknown' : x.name);
      return appendLog(w, {
        audience: hidden ? AUDIENCE_GM : AUDIENCE_ALL,
        kind: 'encounter.readyTaken',
        text: said(c.name, before?.name),
        ...(veiled ? { shown: said(unknown(c), before === undefined ? undefined : unknown(before)) } : {}),
        data: { id: c.id },
      });
    },
    'economy.extendedCancelled': (_b, w, e) => logAbout(w, own(getEncounter(w).combatants, e.combatant), 'economy.extendedCancelled', (name) => `${name} stops ${e.label}: the actions spent on it are gone.`),
    'economy.granted': (_b, w, e) =>
      logAbout(w, own(getEncounter(w).combatants, e.combatant), 'economy.granted', (name) => `${name} gets +${e.n} ${e.pool} (${e.n === 1 ? 'an extra action' : 'extra actions'} granted).`),
    'condition.applied': (_b, w, e) => logCondition(w, e.target, (n) => `${n}: ${defName(e.condition)}${stacksText(e.stacks)}.`),
    'condition.stacked': (b, w, e) =>
      logCondition(w, e.target, (n) => `${n}: ${defName(getEncounter(b).conditions[e.id]?.defId ?? '')} ${e.from} -> ${e.to} stacks.`),
    'condition.stackLost': (_b, w, e) => logCondition(w, e.target, (n) => `${n}: ${defName(e.condition)} loses a stack (${e.to} left).`),
    'condition.expired': (_b, w, e) => logCondition(w, e.target, (n) => `${n}: ${defName(e.condition)} ends.`),
    'condition.removed': (b, w, e) => logCondition(w, e.target, (n) => `${n}: ${defName(getEncounter(b).conditions[e.id]?.defId ?? '')} removed.`),
    'condition.saveRolled': (_b, w, e) =>
      // The result in words after the dice (review 12 #15: "12 vs 11+." left the reader to work it out).
      logCondition(w, e.target, (n) => {
        const words = saveWords(e.roll);
        const outcome = `${defName(e.condition)} ${e.success === true ? 'ends' : 'stays'}`;
        return `${n} ${e.success === true ? 'saves against' : 'fails a save against'} ${defName(e.condition)}${words}${words === '' ? ': ' : `, ${e.success === true ? 'saved' : 'failed'}: `}${outcome}.`;
      }),
  };
  // Typed above; joined here as the engine calls them, each log line after its reducer.
  const untypedLogs = logs as { readonly [type: string]: ((before: World, after: World, e: EngineEvent) => World) | undefined };
  const loggedReducers: Record<string, Reducer> = Object.fromEntries(
    Object.entries(reducersOf(reducers)).map(([type, r]) => {
      const log = untypedLogs[type];
      return [type, log === undefined ? r : (w: World, e: EngineEvent) => log(w, r(w, e), e)];
    }),
  );
  return loggedReducers;
}

/** The line for hit points changed on a character outside any fight (ADR 104): as a fight's, a foe's numbers kept with the GM. */
function outsideFightLine(w: World, e: EventOf<EncounterEvent, 'encounter.hpChanged'>): World {
  const ch = own(w.characters, e.id);
  if (ch === undefined) return w;
  const said = (withHp: boolean): string => `${ch.name} ${e.kind === 'damage' ? `takes ${e.amount} damage` : `is healed by ${e.amount}`}${withHp ? ` (HP ${e.from} → ${e.to})` : ''}.`;
  const secret = ch.kind !== 'pc' && !showsFoeNumbers(w);
  return appendLog(w, { audience: ch.visibility === 'visible' ? AUDIENCE_ALL : AUDIENCE_GM, kind: 'encounter.hp', text: said(true), ...(secret ? { shown: said(false) } : {}), data: { id: ch.id } });
}
