// The Kleptonomicon's reducers and the log line each writes, plus the
// kernel events it follows (an Encounter's start, turns and end).
import { claimId, getEncounter, own, reducersOf, seesFoeDefence, showsFoeNumbers, memberOf, type EncounterEvent, type EngineEvent, type Evolve, type Reducer, type World } from '@tablekeeper/engine';
import { grantStyle, interruptStyle, planDropProne, planMove, planStand, startTurnMovement, type TurnMovement } from './movement.js';
import { kleptoSheetChanges, kleptoSheetLine, kleptoSheetOf } from './sheet.js';
import { getKlepto, updateKlepto, withoutOpenings, type KleptoState, type Resource } from './state.js';
import { describePhase, isFoe, log, nameOf, stylesOf } from './context.js';
import type { KleptoEvent } from './events.js';
import { testDiceText } from './roll.js';
import { logEdgeSaves } from './edge-log.js';

const onState =
  (fn: (st: KleptoState, e: EngineEvent, w: World) => KleptoState): Reducer =>
  (w, e) =>
    updateKlepto(w, (st) => fn(st, e, w));


function withMovement(st: KleptoState, w: World, id: string, fn: (tm: TurnMovement) => TurnMovement): KleptoState {
  const tm = st.movement[id] ?? startTurnMovement(stylesOf(w, id), st.prone.includes(id));
  const next = fn(tm);
  return { ...st, movement: { ...st.movement, [id]: next }, prone: next.prone ? [...new Set([...st.prone, id])] : st.prone.filter((x) => x !== id) };
}

const typed: Evolve<KleptoEvent> = {
  'kleptonomicon.episodeStarted': (w, e) =>
    log(
      updateKlepto(w, (st) => ({ ...st, episode: e.episode, phase: 'opening', encounterPhase: null, opening: { introduced: [], clips: {}, coldOpen: null }, looseOrder: null, spotlight: 0, episodic: {} })),
      e,
      'kleptonomicon.episode',
      `Episode ${e.episode} begins: Opening Credits.`,
    ),
  'kleptonomicon.introduced': (w, e) => {
    const ch = e.characterId;
    const clip = e.clip;
    const next = updateKlepto(w, (st) => ({
      ...st,
      opening: { ...st.opening, introduced: [...new Set([...st.opening.introduced, ch])], clips: typeof clip === 'string' ? { ...st.opening.clips, [ch]: clip } : st.opening.clips },
    }));
    return log(next, e, 'kleptonomicon.introduced', typeof clip === 'string' ? `${nameOf(w, ch)} is introduced. Clip: ${clip}` : `${nameOf(w, ch)} is introduced.`);
  },
  'kleptonomicon.coldOpened': (w, e) => log(updateKlepto(w, (st) => ({ ...st, opening: { ...st.opening, coldOpen: e.text } })), e, 'kleptonomicon.coldOpen', `Cold open: ${e.text}`),
  'kleptonomicon.phaseChanged': (w, e) => {
    const to = e.to;
    const encTo = e.encounterTo ?? null;
    const next = updateKlepto(w, (st) => ({ ...st, phase: to, encounterPhase: encTo, looseOrder: to === 'freeplay' ? st.looseOrder : null }));
    return log(next, e, 'kleptonomicon.phase', `Now: ${describePhase(getKlepto(next))}.`);
  },
  'kleptonomicon.looseOrderSet': (w, e) => {
    const order = Array.isArray(e.order) ? e.order : null;
    return log(updateKlepto(w, (st) => ({ ...st, looseOrder: order, spotlight: 0 })), e, 'kleptonomicon.looseOrder', order === null ? 'Freeplay without a turn order.' : `Loose turn order: ${order.map((id) => nameOf(w, id)).join(', ')}.`);
  },
  'kleptonomicon.spotlightPassed': (w, e) => {
    const next = updateKlepto(w, (st) => ({ ...st, spotlight: e.to }));
    const st = getKlepto(next);
    return log(next, e, 'kleptonomicon.spotlight', `Spotlight: ${nameOf(w, st.looseOrder?.[st.spotlight] ?? '')}.`);
  },
  'kleptonomicon.improvisationProposed': (w, e) => {
    const id = e.improvisationId;
    const next = claimId(updateKlepto(w, (st) => ({ ...st, improvised: { ...st.improvised, [id]: { id, characterId: e.characterId, description: e.description, status: 'pending' } } })), id);
    return log(next, e, 'kleptonomicon.improvise', `${nameOf(w, e.characterId)} tries: ${e.description}`);
  },
  'kleptonomicon.improvisationRuled': (w, e) => {
    const id = e.improvisationId;
    const ruling = e.ruling;
    const next = updateKlepto(w, (st) => {
      const req = st.improvised[id];
      return req === undefined ? st : { ...st, improvised: { ...st.improvised, [id]: { ...req, status: ruling } } };
    });
    const roll = e.roll;
    const score = roll !== null && typeof roll === 'object' && !Array.isArray(roll) ? roll['score'] : null;
    const line = ruling === 'impossible' ? 'the GM rules it impossible: it fails, no Test.' : ruling === 'simple' ? 'it simply happens.' : `a Test: Score ${String(score)}${typeof e.passed === 'boolean' ? ` (${e.passed ? 'pass' : 'fail'})` : ''}.`;
    return log(next, e, 'kleptonomicon.ruling', `${nameOf(w, e.characterId)}: ${line}`);
  },
  'kleptonomicon.tested': (w, e) => {
    const roll = e.roll as { score?: number } | null;
    return log(w, e, 'kleptonomicon.test', `${nameOf(w, e.characterId)} ${e.skill === null ? 'tests' : `tests ${e.skill}`}: Score ${String(roll?.score)} (${e.passed ? 'pass' : 'fail'}).`, e.roll);
  },
  'kleptonomicon.abilityUsed': (w, e) => {
    let next = w;
    const ch = e.characterId;
    if (e.time === 'episodic' && typeof ch === 'string') {
      // What an Episodic ability grants lasts until the Episode ends.
      next = updateKlepto(w, (st) => ({ ...st, episodic: { ...st.episodic, [ch]: [...(st.episodic[ch] ?? []), e.name] } }));
    }
    const who = typeof e.combatant === 'string' ? nameOf(w, e.combatant) : typeof ch === 'string' ? nameOf(w, ch) : 'someone';
    const cost = e.cost === 'beat' ? ' (a Beat)' : '';
    return log(next, e, 'kleptonomicon.ability', `${who} uses ${e.name}${cost}.`);
  },
  'kleptonomicon.resourceSet': (w, e) => {
    const ch = e.characterId;
    const key = e.key;
    const r: Resource = { value: e.value, max: e.max };
    const next = updateKlepto(w, (st) => ({ ...st, resources: { ...st.resources, [ch]: { ...(st.resources[ch] ?? {}), [key]: r } } }));
    // A foe's numbers are the GM's (ADR 33): players read that it changed, and a fall to 0.
    const shown = isFoe(w, ch) && !showsFoeNumbers(w) ? `${nameOf(w, ch)}'s ${key} changed${r.value === 0 ? ' to 0' : ''}.` : undefined;
    return log(next, e, 'kleptonomicon.resource', `${nameOf(w, ch)}: ${key} ${r.value}/${r.max}.`, undefined, shown);
  },
  'kleptonomicon.freeActionTaken': (w, e) => {
    const id = e.combatant;
    return log(updateKlepto(w, (st) => ({ ...st, freeActions: { ...st.freeActions, [id]: e.count } })), e, 'kleptonomicon.free', `${nameOf(w, id)}: ${e.description}`);
  },
  'kleptonomicon.pauseEndedWithBeat': (w, e) => log(w, e, 'kleptonomicon.pause', `${nameOf(w, e.combatant)} ends the Pause with a Beat (one Beat fewer on their next turn).`),
  'kleptonomicon.sheetSet': (w, e) => {
    const ch = e.characterId;
    const c = own(w.characters, ch);
    if (c === undefined) return w;
    const stats = { ...c.stats, ...e.stats };
    const next = { ...w, characters: { ...w.characters, [ch]: { ...c, stats } } };
    // A foe's sheet numbers are the GM's (ADR 33): players read that it changed.
    const shown = isFoe(w, ch) && !showsFoeNumbers(w) ? `${nameOf(w, ch)}'s sheet changed.` : undefined;
    return log(next, e, 'kleptonomicon.sheet', `${nameOf(w, ch)}'s sheet: ${[kleptoSheetLine(kleptoSheetOf(stats)), ...kleptoSheetChanges(e.stats, stats)].join(' · ')}.`, undefined, shown);
  },
  'kleptonomicon.xpAwarded': (w, e) => {
    const ch = e.characterId;
    const n = e.amount;
    const next = updateKlepto(w, (st) => ({
      ...st,
      xp: { ...st.xp, [ch]: (st.xp[ch] ?? 0) + n },
      secondaryAwarded: e.reason === 'secondary goal' ? [...st.secondaryAwarded, ch] : st.secondaryAwarded,
    }));
    // The GM may take points back (a negative award): said as a loss, not "gains -2".
    return log(next, e, 'kleptonomicon.xp', `${nameOf(w, ch)} ${n < 0 ? 'loses' : 'gains'} ${Math.abs(n)} Experience Point${Math.abs(n) === 1 ? '' : 's'} (${e.reason}).`);
  },
  'kleptonomicon.leveledUp': (w, e) => {
    const ch = e.characterId;
    const next = updateKlepto(w, (st) => ({ ...st, levels: { ...st.levels, [ch]: e.level }, xp: { ...st.xp, [ch]: (st.xp[ch] ?? 0) - e.xpSpent } }));
    return log(next, e, 'kleptonomicon.level', `${nameOf(w, ch)} reaches level ${e.level}.`);
  },
  'kleptonomicon.resolutionPlayed': (w, e) => log(w, e, 'kleptonomicon.resolution', `Resolution scene${typeof e.characterId === 'string' ? ` (${nameOf(w, e.characterId)})` : ''}: ${e.text}`),
  'kleptonomicon.episodeEnded': (w, e) => {
    const next = updateKlepto(w, (st) => {
      const resources: { [ch: string]: { [k: string]: Resource } } = Object.fromEntries(Object.entries(st.resources).map(([k, v]) => [k, { ...v }]));
      for (const r of e.resets) {
        const cur = resources[r.characterId]?.[r.key];
        if (cur !== undefined) resources[r.characterId]![r.key] = { ...cur, value: r.to };
      }
      return { ...st, phase: 'between', encounterPhase: null, episodic: {}, movement: {}, dashes: {}, freeActions: {}, prone: [], improvised: {}, looseOrder: null, resources };
    });
    return log(next, e, 'kleptonomicon.episodeEnded', `Episode ${e.episode} ends${e.halve ? ' (halved resets)' : ''}: resets done, Episodic effects expire.`);
  },
  'kleptonomicon.moved': (w, e) => {
    const id = e.combatant;
    const { style, units } = e;
    const next = updateKlepto(w, (st) =>
      withMovement(st, w, id, (tm) => {
        const r = planMove(tm, style, units);
        return r.ok ? r.value : tm;
      }),
    );
    const oa = e.opportunityAttackers;
    // Each one left may answer with an Opportunity Attack until the mover's turn ends (004 "Movement Reactions").
    const opened = oa.length === 0 ? next : updateKlepto(next, (st) => ({ ...st, opportunities: { ...(st.opportunities ?? {}), ...Object.fromEntries(oa.map((x) => [x, id])) } }));
    const tail = oa.length > 0 ? ` Opportunity Attack open to ${oa.map((x) => nameOf(w, x)).join(', ')}.` : '';
    return log(opened, e, 'kleptonomicon.move', `${nameOf(w, id)} moves ${units}u by ${style} (${e.distance}).${tail}`);
  },
  'kleptonomicon.wentProne': (w, e) => {
    const id = e.combatant;
    return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => { const r = planDropProne(tm); return r.ok ? r.value : tm; })), e, 'kleptonomicon.prone', `${nameOf(w, id)} drops Prone.`);
  },
  'kleptonomicon.stood': (w, e) => {
    const id = e.combatant;
    return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => { const r = planStand(tm); return r.ok ? r.value : tm; })), e, 'kleptonomicon.stand', `${nameOf(w, id)} stands up (1u).`);
  },
  'kleptonomicon.dashed': (w, e) => {
    const id = e.combatant;
    const { outcome, round } = e;
    const next = updateKlepto(w, (st) => {
      const prev = st.dashes[id];
      const count = prev !== undefined && prev.round === round ? prev.count + 1 : 1;
      const withDash = withMovement(st, w, id, (tm) => ({ ...tm, multiplier: outcome === 'tripled' ? 3 : outcome === 'doubled' ? Math.max(tm.multiplier, 2) : tm.multiplier }));
      return { ...withDash, dashes: { ...st.dashes, [id]: { round, count } } };
    });
    // The second Dash's Test shows its dice, as every other Test's line does (review 9).
    const dice = e.test !== null && e.test !== undefined ? ` (${testDiceText(e.test)})` : '';
    const words = outcome === 'doubled' ? 'doubles their movement' : outcome === 'tripled' ? `passes the Athletics Test${dice}: triple movement` : `fails the Athletics Test${dice} and is Slowed`;
    return log(next, e, 'kleptonomicon.dash', `${nameOf(w, id)} Dashes and ${words}.`);
  },
  'kleptonomicon.styleGranted': (w, e) => {
    const id = e.combatant;
    return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => grantStyle(tm, e.style, e.variant))), e, 'kleptonomicon.style', `${nameOf(w, id)} may ${e.variant} ${e.style} this turn.`);
  },
  'kleptonomicon.movementInterrupted': (w, e) => {
    const id = e.combatant;
    const next = updateKlepto(w, (st) => (st.movement[id] === undefined ? st : withMovement(st, w, id, (tm) => interruptStyle(tm, e.style))));
    const eff = e.effect;
    // A whole sentence with its subject (GM review: "...: is unaffected."); 004 gives walking and levitating no interrupted effect.
    const who = nameOf(w, id);
    // Walk, Jump and Levitate name no effect when interrupted (004 "Interrupted Movement"): said as the rule's outcome, not as a shrug (review 13 #15).
    const what = eff === 'fall' ? `: ${who} falls` : eff === 'float' ? `: ${who} floats up 1u a turn` : eff === 'sink' ? `: ${who} sinks 2u a turn` : `; an interrupted ${e.style} brings no fall or drift, so ${who} is unaffected`;
    return log(next, e, 'kleptonomicon.interrupted', `${who}'s ${e.style} is interrupted (${e.reason})${what}.`);
  },
  'kleptonomicon.maneuverRolled': (w, e) => {
    const roll = e.roll as { score?: number } | null;
    const hit = e.hit;
    const verdict = hit === null ? 'the GM judges the hit' : hit ? 'hit: Slowed' : 'miss';
    return log(w, e, 'kleptonomicon.maneuver', `${nameOf(w, e.attackerId)} tries an improvised maneuver on ${nameOf(w, e.targetId)}: Score ${String(roll?.score)} (${verdict}).`);
  },
  'kleptonomicon.attackRolled': (w, e) => {
    // A flat damage ("4") has no dice to show: "4 damage", not "4 = 4 damage".
    const dealt = e.damageDice === null ? '' : e.damageRolls.length > 0 ? `, ${e.damageDice} [${e.damageRolls.join(', ')}] = ${e.damage} damage` : `, ${e.damage} damage`;
    const effects = e.hit === true ? `hit${dealt}${e.maneuver ? ', Slowed' : ''}` : e.hit === false ? 'miss' : 'no Defense on record: the GM judges the hit';
    const at = e.distance === undefined ? '' : ` at ${e.distance}`;
    const head = `${nameOf(w, e.attackerId)}'s ${e.name} on ${nameOf(w, e.targetId)}${at}: ${testDiceText(e.roll)}`;
    // Players read a foe's Defense only where the GM shows defences (ADR 33).
    const shown = e.defense !== null && isFoe(w, e.targetId) && !seesFoeDefence(w, { role: 'spectator' }) ? `${head} (${effects}).` : undefined;
    // A hit's damage: the kernel's HP change completes this line with the result (one damage, one line).
    const data = e.hit === true && e.damage > 0 ? { damageTo: e.targetId } : undefined;
    // An attack on the one who left its reach is the Opportunity Attack: it closes (one per opening).
    const ops = getKlepto(w).opportunities ?? {};
    const left = Object.fromEntries(Object.entries(ops).filter(([k]) => k !== e.attackerId));
    const closed = own(ops, e.attackerId) === e.targetId ? updateKlepto(w, (st) => (Object.keys(left).length === 0 ? withoutOpenings(st) : { ...st, opportunities: left })) : w;
    return log(closed, e, 'kleptonomicon.attack', `${head}${e.defense === null ? '' : ` vs Defense ${e.defense}`} (${effects}).`, data, shown);
  },
};

export const kleptoReducers: Record<string, Reducer> = {
  ...reducersOf(typed),
  // ---------------------------------------------------------- kernel events this ruleset follows
  'encounter.started': (w, e) => {
    const started = memberOf<EncounterEvent, 'encounter.started'>(e, 'encounter.started');
    return logEdgeSaves(
      updateKlepto(w, (st) => ({ ...withoutOpenings(st), phase: 'encounter', encounterPhase: 'initiative', secondaryAwarded: [], movement: {}, dashes: {}, freeActions: {} })),
      (started?.combatants ?? []).map((c) => c.id),
    );
  },
  // A PC placed later (a player's own Edge Saves, a PC joining the fight) has their saves logged then.
  'encounter.placed': (w, e) => logEdgeSaves(w, [memberOf<EncounterEvent, 'encounter.placed'>(e, 'encounter.placed')?.id ?? '']),
  'encounter.combatantAdded': (w, e) => logEdgeSaves(w, [memberOf<EncounterEvent, 'encounter.combatantAdded'>(e, 'encounter.combatantAdded')?.combatant.id ?? '']),
  // "Re-roll initiative each round": each round's saves are logged as the first round's are, so the new order can be checked (review 13 #11).
  'encounter.initiativeRerolled': (w, e) => {
    const again = memberOf<EncounterEvent, 'encounter.initiativeRerolled'>(e, 'encounter.initiativeRerolled');
    return again === undefined ? w : logEdgeSaves(w, getEncounter(w).roster.filter((id) => Object.hasOwn(again.placements, id)), again.round);
  },
  'encounter.turnStarted': onState((st, e, w) => {
    const id = memberOf<EncounterEvent, 'encounter.turnStarted'>(e, 'encounter.turnStarted')?.id ?? '';
    // The mover's turn is over: what it left open lapses.
    return {
      ...withoutOpenings(st),
      encounterPhase: st.encounterPhase === 'initiative' ? 'main' : st.encounterPhase,
      movement: { ...st.movement, [id]: startTurnMovement(stylesOf(w, id), st.prone.includes(id)) },
      freeActions: { ...st.freeActions, [id]: 0 },
    };
  }),
  'encounter.ended': onState((st) => ({ ...withoutOpenings(st), phase: 'encounter', encounterPhase: 'reward', movement: {}, freeActions: {} })),
};
