// 002 "Positioning and Movement", "Free and Engaged", "Disengaging and
// Popping Off", "Intercept", "Opportunity Attacks" as commands and reducers:
// placing characters, moving (one move action per step, provoking when
// leaving engaged enemies), disengage checks, popping off, intercepting, and
// the provocations opportunity attacks answer.
import type { CommandHandler, EngineEvent, RuleError, EventOf, Evolve, Viewer, World } from '@tablekeeper/engine';
import { asJson, claimId, getEncounter, handlerOf } from '@tablekeeper/engine';
import { provokedEvent } from './combat.js';
import { cannotAct, controls, FORBIDDEN, hasCondition, inEncounter, instancesOn, needSheet, type Kit } from './context.js';
import { declineOpportunityDeclaration, disengageDeclaration, interceptDeclaration, moveDeclaration, popOffDeclaration, positionDeclaration } from './declarations.js';
import { log, name } from './logging.js';
import { areEnemies, disengageTarget, engagedEnemies, engagedWith, isFree, movesNeeded, rangeBetween } from './positioning.js';
import { errR, okR, type R } from './result.js';
import { diceWords, roll3d6 } from './roll.js';
import { getTsw, pairKey, setTsw, type Range, type Sheet, type TswState } from './state.js';
import type { TswEvent } from './events.js';


/** The GM, or the player whose character the sheet is (judged on the parsed payload, old field names already moved). */
const mayCommand = (world: World, actor: Viewer, id: string): RuleError | null => (controls(world, actor, id) ? null : FORBIDDEN);

export function movementCommands(kit: Kit, spendIn: (world: World, who: string, kind: string) => R<EngineEvent[]>): Record<string, CommandHandler> {
  return {
    '36th-way.position': handlerOf(positionDeclaration, {
      // The GM places two characters relative to each other.
      decide(world, { fromId, toId, range }) {
        const a = needSheet(world, fromId, 'fromId');
        if (!a.ok) return a;
        const b = needSheet(world, toId, 'toId');
        if (!b.ok) return b;
        if (a.value.id === b.value.id) return errR('INVALID_VALUE', 'fromId and toId must differ', 'toId');
        return okR([{ type: '36th-way.positioned', fromId: a.value.id, toId: b.value.id, range } satisfies TswEvent]);
      },
    }),
    '36th-way.move': handlerOf(moveDeclaration, {
      // Move toward (or away from) someone: one move action per step (far -> nearby -> engaged).
      // Leaving engaged enemies without disengaging provokes opportunity attacks.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, toId, range = 'engaged', intercept }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        const t = needSheet(world, toId, 'toId');
        if (!t.ok) return t;
        if (s.value.id === t.value.id) return errR('INVALID_VALUE', 'cannot move relative to yourself', 'toId');
        if (hasCondition(world, s.value.id, 'stuck')) return errR('STUCK', `${s.value.name} is Stuck and cannot move`, 'characterId');
        const st = getTsw(world);
        const from = rangeBetween(st, s.value.id, t.value.id);
        if (from === range) return errR('ALREADY_THERE', `${s.value.name} is already ${range} ${range === 'engaged' ? 'with' : 'to'} ${t.value.name}`, 'range');
        const steps = movesNeeded(from, range);
        const out: EngineEvent[] = [];
        let w = world;
        for (let i = 0; i < steps; i++) {
          const e = spendIn(w, s.value.id, 'move');
          if (!e.ok) return e;
          out.push(...e.value);
          for (const ev of e.value) w = kit.module.reducers?.['economy.spent']?.(w, ev) ?? w;
        }
        // Leaving: everyone engaged with the mover other than the destination stays behind.
        const leaving = engagedWith(st, s.value.id).filter((x) => x !== t.value.id || range !== 'engaged');
        const foes = leaving.filter((x) => areEnemies(world, s.value.id, x));
        if (foes.length > 0 && inEncounter(world, s.value.id)) out.push(provokedEvent(world, s.value.id, foes, 'moved away without disengaging', env.rng));
        out.push({ type: '36th-way.moved', characterId: s.value.id, toId: t.value.id, range, from, leaving, intercept: intercept === true } satisfies TswEvent);
        return okR(out);
      },
    }),
    '36th-way.disengage': handlerOf(disengageDeclaration, {
      // A move action: 3d6 against 11, +1 per enemy past the first; success pops off them, failure loses the move.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, from: fromIn, advantage: extra = 0 }, env) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        if (hasCondition(world, s.value.id, 'stuck')) return errR('STUCK', `${s.value.name} is Stuck and cannot disengage`, 'characterId');
        const all = engagedEnemies(world, s.value.id);
        const asked = fromIn ?? all;
        if (asked.length === 0 || !asked.every((x) => all.includes(x))) {
          return errR('NOT_ENGAGED', `disengage from enemies engaged with ${s.value.name} (${all.join(', ') || 'none'})`, 'from');
        }
        const from = [...new Set(asked)];
        const spend = spendIn(world, s.value.id, 'move');
        if (!spend.ok) return spend;
        const d = disengageCheck(world, s.value, from, extra);
        const roll = roll3d6(env.rng, world, d.net);
        return okR([...spend.value, { type: '36th-way.disengageRolled', characterId: s.value.id, from, roll: asJson(roll), target: d.target, success: roll.natural >= d.target, grabbedPenalty: d.grabbed } satisfies TswEvent]);
      },
    }),
    '36th-way.popOff': handlerOf(popOffDeclaration, {
      // Some abilities pop you off enemies with no disengage check.
      authorize: (world, p, actor) => mayCommand(world, actor, p.characterId),
      decide(world, { characterId, from: asked }) {
        const s = needSheet(world, characterId, 'characterId');
        if (!s.ok) return s;
        const unable = cannotAct(s.value, 'characterId');
        if (unable !== null) return unable;
        if (hasCondition(world, s.value.id, 'stuck')) return errR('STUCK', `${s.value.name} is Stuck and cannot pop free`, 'characterId');
        const all = engagedEnemies(world, s.value.id);
        const from = asked ?? all;
        if (!from.every((x) => all.includes(x))) return errR('NOT_ENGAGED', 'from must list enemies engaged with you', 'from');
        return okR([{ type: '36th-way.poppedOff', characterId: s.value.id, from } satisfies TswEvent]);
      },
    }),
    '36th-way.declineOpportunity': handlerOf(declineOpportunityDeclaration, {
      // 002 "Opportunity Attacks": the attack is the engaged enemy's to take or not; saying no closes the prompt.
      authorize: (world, p, actor) => mayCommand(world, actor, p.attackerId),
      decide(world, { attackerId, opportunity }) {
        const a = needSheet(world, attackerId, 'attackerId');
        if (!a.ok) return a;
        const prov = getTsw(world).provocations.find((x) => x.id === opportunity);
        if (prov === undefined || !prov.against.includes(a.value.id)) return errR('NO_PROVOCATION', `${a.value.name} has no opportunity attack waiting there`, 'opportunity');
        return okR([{ type: '36th-way.opportunityDeclined', provocationId: prov.id, attackerId: a.value.id, targetId: prov.by } satisfies TswEvent]);
      },
    }),
    '36th-way.intercept': handlerOf(interceptDeclaration, {
      // A Free character stops an enemy moving to engage a nearby ally; the enemy is engaged with the interceptor instead.
      authorize: (world, p, actor) => mayCommand(world, actor, p.interceptorId),
      decide(world, { interceptorId, moverId }) {
        const i = needSheet(world, interceptorId, 'interceptorId');
        if (!i.ok) return i;
        const unable = cannotAct(i.value, 'interceptorId');
        if (unable !== null) return unable;
        const st = getTsw(world);
        const last = st.lastEngage;
        if (last === null || last.mover !== moverId) return errR('NOTHING_TO_INTERCEPT', 'intercept answers an enemy who has just moved to engage someone', 'moverId');
        const me = i.value.id;
        if (last.intercept) return errR('CANNOT_INTERCEPT', 'you cannot intercept an enemy who is moving to intercept', 'moverId');
        if (!areEnemies(world, me, last.mover)) return errR('CANNOT_INTERCEPT', 'only an enemy can be intercepted', 'moverId');
        if (last.target === me || areEnemies(world, me, last.target)) return errR('CANNOT_INTERCEPT', 'intercept protects an ally', 'moverId');
        if (!isFree(world, me)) return errR('NOT_FREE', `${i.value.name} is engaged with an enemy and cannot intercept`, 'interceptorId');
        if (rangeBetween(st, me, last.target) === 'far') return errR('TOO_FAR', `${i.value.name} is not nearby or next to the ally`, 'interceptorId');
        if (hasCondition(world, me, 'stuck')) return errR('STUCK', `${i.value.name} is Stuck`, 'interceptorId');
        if (hasCondition(world, last.mover, 'flying') && !hasCondition(world, me, 'flying')) return errR('FLYING', 'a Flying enemy can only be intercepted by someone who is also Flying', 'interceptorId');
        return okR([{ type: '36th-way.intercepted', interceptorId: me, moverId: last.mover, allyId: last.target } satisfies TswEvent]);
      },
    }),
  };
}

/**
 * A disengage check's numbers (002 "Disengaging and Popping Off"): 11, +1 per enemy past the first; Grabbed adds
 * 1 Disadvantage when leaving the grabber, unless it was hit this round. The command and its odds read the same.
 */
export function disengageCheck(world: World, s: Sheet, from: readonly string[], extra: number): { readonly net: number; readonly target: number; readonly grabbed: boolean } {
  const enc = getEncounter(world);
  const hitNow = s.hitThisRound.round === enc.round ? s.hitThisRound.targets : [];
  const grabbers = instancesOn(world, s.id, 'grabbed').map((g) => g.source).filter((g): g is string => g !== null && from.includes(g) && !hitNow.includes(g));
  return { net: extra - (grabbers.length > 0 ? 1 : 0), target: disengageTarget(world, from.length), grabbed: grabbers.length > 0 };
}

/** The movement events, reduced here and spread into the module's full map. */
type MovementEvent = EventOf<TswEvent, '36th-way.positioned' | '36th-way.moved' | '36th-way.disengageRolled' | '36th-way.poppedOff' | '36th-way.intercepted' | '36th-way.provoked' | '36th-way.opportunityTaken' | '36th-way.opportunityDeclined'>;

/** One creature's opportunity attack from a provocation is used up (taken or let go). */
function answered(st: TswState, provocationId: string, attackerId: string): TswState {
  return { ...st, provocations: st.provocations.map((p) => (p.id === provocationId ? { ...p, against: p.against.filter((x) => x !== attackerId) } : p)).filter((p) => p.against.length > 0) };
}

export const movementReducers: Evolve<MovementEvent> = {
  // The GM's ruling on where two creatures stand (002 "Positioning and Movement"), said with the rules' words.
  '36th-way.positioned': (w, e) => {
    const [a, b] = [name(w, e.fromId), name(w, e.toId)];
    const now = e.range === 'engaged' ? `${a} is ${areEnemies(w, e.fromId, e.toId) ? 'engaged with' : 'next to'} ${b}` : e.range === 'nearby' ? `${a} and ${b} are nearby each other` : `${a} and ${b} are far from each other`;
    return log(setTsw(w, place(getTsw(w), e.fromId, e.toId, e.range)), e, '36th-way.position', `The GM sets the range: ${now}.`);
  },
  '36th-way.moved': (w, e) => {
    const who = e.characterId;
    const to = e.toId;
    let st = getTsw(w);
    for (const x of e.leaving) if (x !== to) st = place(st, who, x, 'nearby');
    st = place(st, who, to, e.range);
    const engage = e.range === 'engaged';
    st = { ...st, lastEngage: engage ? { mover: who, target: to, intercept: e.intercept, serial: getEncounter(w).turnSerial } : null };
    return log(setTsw(w, st), e, '36th-way.moved', `${name(w, who)} moved ${engage ? 'to engage' : `${e.range} to`} ${name(w, to)}.`);
  },
  '36th-way.disengageRolled': (w, e) => {
    const who = e.characterId;
    let st = getTsw(w);
    if (e.success) for (const x of e.from) st = place(st, who, x, 'nearby');
    return log(setTsw(w, st), e, '36th-way.disengage', `${name(w, who)} tried to disengage (${diceWords(e.roll)} vs ${e.target}+${e.grabbedPenalty ? ', Grabbed' : ''}): ${e.success ? 'popped off' : 'failed, losing the move action'}.`);
  },
  '36th-way.poppedOff': (w, e) => {
    let st = getTsw(w);
    for (const x of e.from) st = place(st, e.characterId, x, 'nearby');
    // Some abilities pop the user free with no disengage check (002 "Disengaging and Popping Off").
    const from = e.from.map((x) => name(w, x));
    return log(setTsw(w, st), e, '36th-way.disengage', `${name(w, e.characterId)} popped free${from.length > 0 ? ` of ${from.join(', ')}` : ''} (no disengage check).`);
  },
  '36th-way.intercepted': (w, e) => {
    const mover = e.moverId;
    let st = place(getTsw(w), mover, e.allyId, 'nearby');
    st = { ...place(st, mover, e.interceptorId, 'engaged'), lastEngage: null };
    return log(setTsw(w, st), e, '36th-way.intercept', `${name(w, e.interceptorId)} intercepted ${name(w, mover)} before it reached ${name(w, e.allyId)}.`);
  },
  '36th-way.provoked': (w, e) => {
    const st = getTsw(w);
    const against = e.against;
    const id = e.provocationId;
    const next: TswState = {
      ...st,
      nextProvocation: st.nextProvocation + 1,
      provocations: against.length === 0 ? st.provocations : [...st.provocations, { id, by: e.characterId, against, reason: e.reason, round: e.round }],
    };
    // A random id counts one mint (ADR 18); stored `prov<n>` ids leave the counter as they always did.
    const w1 = id.startsWith('prov-') ? claimId(w, id) : w;
    return against.length === 0 ? setTsw(w1, next) : log(setTsw(w1, next), e, '36th-way.provoked', `${name(w, e.characterId)} ${e.reason}, provoking opportunity attacks from ${against.map((x) => name(w, x)).join(', ')}.`);
  },
  '36th-way.opportunityTaken': (w, e) => setTsw(w, answered(getTsw(w), e.provocationId, e.attackerId)),
  '36th-way.opportunityDeclined': (w, e) => log(setTsw(w, answered(getTsw(w), e.provocationId, e.attackerId)), e, '36th-way.opportunity', `${name(w, e.attackerId)} lets ${name(w, e.targetId)} go (no opportunity attack).`),
};

/** Set the relative position of two characters. */
export function place(st: TswState, a: string, b: string, range: Range): TswState {
  const k = pairKey(a, b);
  const engaged = st.engaged.filter((x) => x !== k);
  const far = st.far.filter((x) => x !== k);
  if (range === 'engaged') engaged.push(k);
  if (range === 'far') far.push(k);
  return { ...st, engaged, far };
}