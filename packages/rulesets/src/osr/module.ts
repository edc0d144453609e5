// The 'osr' Module: commands from the three command files, the reducers that
// keep world.ext.osr and the characters' stats, reactions on the one clock
// (torches and lanterns burning out, the death timer, corruption stages,
// morale prompts) and a projector that keeps GM matters from players.
import {
  AUDIENCE_ALL,
  AUDIENCE_GM,
  appendLog,
  appendOrComplete,
  openSentence,
  type LineCompletion,
  type LogEntry,
  canSee,
  claimId,
  encounterKit,
  foeBasis,
  foeNumbersView,
  foeRevealOf,
  getEncounter,
  isDefeated,
  isFoe,
  showsFoeNumbers,
  osrEncounter,
  playerTurnSerial,
  asJson,
  eventViewsOf,
  reactionOf,
  reducersOf,
  sameAudience,
  stored,
  type Audience,
  type Combatant,
  type EncounterEvent,
  type EncounterKit,
  type EngineEvent,
  type Env,
  type EventOf,
  type Evolve,
  type Json,
  type Module,
  type Reducer,
  type Viewer,
  type World, own } from '@tablekeeper/engine';
import { abilityModifier, type Ability, type CheckResult } from './checks.js';
import { combatCommands, naturalOneDoubles } from './combat-commands.js';
import { explorationCommands } from './exploration-commands.js';
import { hazardCommands } from './hazard-commands.js';
import { osrQueries } from './module-queries.js';
import { rollCheckDice } from './rolls.js';
import { resolveCheck } from './checks.js';
import { osrSettings } from './settings.js';
import { damageRollWords, damageTotal, deathDue, injuryExtraDie } from './combat.js';
import { corruptionOf, osrEventFields, osrEventRecords, type Heal, type OsrEvent } from './events.js';
import { checkAdvantage } from './shared.js';
import { addTo, getOsr, OSR_ID, removeFrom, setOsr, sheetOf, updateOsr, withStats, type Corruption, type OsrState } from './state.js';

import { OSR_CONDITIONS } from './conditions.js';
export { OSR_CONDITIONS };

/** 0 HP, dead or exhausted combatants cannot take turns (001 "Death & Injury", "Exhaustion"). */
function canAct(world: World, c: Combatant): boolean {
  if (c.characterId === null) return true;
  const st = getOsr(world);
  if (st.dead.includes(c.characterId) || st.dying[c.characterId] !== undefined) return false;
  const ch = own(world.characters, c.characterId);
  return ch === undefined || sheetOf(world, c.characterId).hp > 0;
}

/** 001 "Initiative": the DEX score, read from a linked character's sheet when it holds one (else the combatant's own, or an explicit score). */
function sheetStats(world: World, c: Combatant): { [k: string]: Json } {
  const dex = c.characterId === null ? undefined : world.characters[c.characterId]?.stats['dex'];
  return typeof dex === 'number' && Number.isInteger(dex) ? { dex } : {};
}

// 001 is silent on a round's length; its 5e family's six seconds (ten rounds in the death rule's minute), ADR 44.
export const osrKit: EncounterKit = encounterKit({ ...osrEncounter(), secondsPerRound: 6, conditions: OSR_CONDITIONS, canAct, canActReads: [`ext.${OSR_ID}`, 'characters'], sheetStats });

// ---------------------------------------------------------------- audiences and log

/**
 * Character ids an event names (docs/vocabulary.md: `characterId`, `targetId`, `attackerId`,
 * `helperId`), also through the records it points at (a corruption's target, a light source's owner).
 */
const idsIn = (world: World, e: OsrEvent): string[] => {
  const st = getOsr(world);
  const out: string[] = [];
  if ('characterId' in e && e.characterId !== null) out.push(e.characterId);
  if ('targetId' in e) out.push(e.targetId);
  if ('attackerId' in e) out.push(e.attackerId);
  if ('helperId' in e && e.helperId !== null) out.push(e.helperId);
  if ('corruptionId' in e && Object.hasOwn(st.corruptions, e.corruptionId)) out.push(own(st.corruptions, e.corruptionId)!.target);
  const owner = 'sourceId' in e && Object.hasOwn(st.sources, e.sourceId) ? own(st.sources, e.sourceId)!.owner : null;
  if (owner !== null) out.push(owner);
  if (e.type === 'osr.infected') out.push(e.corruption.characterId);
  return out;
};

/** GM-only when the event names a character players cannot see; travel-turn threats and morale prompts are the GM's. */
/**
 * A PC's Hide roll is the GM's and its player's (ADR 89, addendum): the seat that plays it hears it, the GM always
 * does; a PC no seat plays keeps it with the GM. Being in stealth and being spotted are shown like the PC itself.
 */
function stealthAudience(world: World, e: OsrEvent): Audience | null {
  const id = e.type === 'osr.checked' && e.kind === 'stealth' ? e.characterId : null;
  if (id === null || own(world.characters, id)?.kind !== 'pc') return null;
  const seat = Object.values(world.seats).find((x) => x.characterIds.includes(id));
  return seat === undefined ? AUDIENCE_GM : { kind: 'seat', seatId: seat.id };
}

function audienceOf(world: World, e: OsrEvent): Audience {
  const stealth = stealthAudience(world, e);
  if (stealth !== null) return stealth;
  // The fight's summary names hidden foes and the dying's deadlines: the GM's (ADR 44).
  if (e.type === 'osr.travelTurnRolled' || e.type === 'osr.moralePrompted' || e.type === 'osr.tidePrompted' || e.type === 'osr.sceneCounted' || e.type === 'osr.fightSummarized') return AUDIENCE_GM;
  for (const id of idsIn(world, e)) {
    const ch = Object.hasOwn(world.characters, id) ? own(world.characters, id) : undefined;
    if (ch !== undefined && ch.visibility !== 'visible') return AUDIENCE_GM;
  }
  if ('combatantId' in e) {
    const c = own(getEncounter(world).combatants, e.combatantId);
    if (c !== undefined && c.visibility !== 'visible') return AUDIENCE_GM;
  }
  return AUDIENCE_ALL;
}

const nm = (w: World, id: string | null): string => (id === null ? 'someone' : (own(w.characters, id)?.name ?? id));

/**
 * What a check was for, in words: tables stored before stabilize checks named
 * the dying character kept its id in the label ("stabilize ch-..."), which
 * reached phones (GM review); those lines read as new ones do, with the name.
 */
function checkWords(w: World, e: { readonly label: string; readonly kind: string }, passed: boolean): string {
  const old = e.kind === 'stabilize' && e.label.startsWith('stabilize ') ? `stabilizing ${nm(w, e.label.slice('stabilize '.length))}` : e.label;
  return `${passed ? 'passed' : 'failed'} ${old}`;
}

/** The world before the event the running reducer applies (set by `on`): a removal is judged while the thing exists. */
let before: World | null = null;

function log(w: World, e: OsrEvent, text: string, data?: Json, shown?: string, complete?: (prev: LogEntry) => LineCompletion | null): World {
  const now = audienceOf(w, e);
  const audience = now.kind === 'all' && before !== null ? audienceOf(before, e) : now;
  const entry = { audience, kind: e.type, text, ...(shown !== undefined ? { shown } : {}), ...(data !== undefined ? { data } : {}) };
  return complete === undefined ? appendLog(w, entry) : appendOrComplete(w, entry, complete);
}

/**
 * An HP loss completes the damage or attack line that named it (data.damageTo): "Kira takes 10 damage: HP 12 → 2.";
 * a heal its roll's line (data.healTo): "Kira heals 5 (1d8) by magic: HP 2 → 7."
 * A foe's HP stay the GM's (ADR 33): players read the damage and its fall.
 */
function hpCompletes(w: World, e: EventOf<OsrEvent, 'osr.hpChanged'>): (prev: LogEntry) => LineCompletion | null {
  return (prev) => {
    const d = prev.data;
    if (d === null || typeof d !== 'object' || Array.isArray(d)) return null;
    // A heal completes its own roll's line too (review 12 #15: one heal wrote two lines).
    const completes = e.to < e.from ? d['damageTo'] === e.characterId : e.to > e.from && d['healTo'] === e.characterId;
    if (!completes) return null;
    const text = `${openSentence(prev.text)}: HP ${e.from} → ${e.to}.`;
    const secret = isFoe(w, e.characterId) && !showsFoeNumbers(w);
    if (!secret) return prev.shown === undefined ? { text } : { text, shown: `${openSentence(prev.shown)}: HP ${e.from} → ${e.to}.` };
    return { text, shown: `${openSentence(prev.shown ?? prev.text)}.${e.to <= 0 && e.to < e.from ? ` ${nm(w, e.characterId)} is down.` : ''}` };
  };
}


/** "Bram takes 9 damage.", "Bram takes 7 damage (1d8+2) from a fall.": the dice only when some were rolled or doubled, the source only when one was named. */
function damageText(w: World, e: EventOf<OsrEvent, 'osr.damageRolled'>): string {
  const doubled = e.doubled ? (e.doubledBy === 'natural 1' ? 'doubled by a natural 1' : 'doubled') : '';
  const how = [e.faces.length > 0 ? e.dice : '', doubled].filter((x) => x !== '').join(', ');
  const from = e.source === 'damage' || e.source.trim() === '' ? '' : ` from ${e.source}`;
  return `${nm(w, e.targetId)} takes ${e.total} damage${how === '' ? '' : ` (${how})`}${from}.`;
}

/** "1 night of safe rest", "3 nights of unsafe rest". */
export const restedWords = (nights: number, kind: string): string => `${nights} ${nights === 1 ? 'night' : 'nights'} of ${kind} rest`;

/** One rester's HP in a rest line, the gain and the new total apart (review 9: "Kira 2, Dorn 12 HP" read as gains): "Kira heals 1 (now 2/8 HP)", "Dorn stays at 12/12 HP". */
export function healedWords(name: string, h: { readonly from: number; readonly to: number }, max: number | null): string {
  const of = max === null ? '' : `/${max}`;
  return h.to > h.from ? `${name} heals ${h.to - h.from} (now ${h.to}${of} HP)` : `${name} stays at ${h.to}${of} HP`;
}

const maxHpOf = (w: World, id: string): number | null => {
  const m = own(w.characters, id)?.stats['maxHp'];
  return typeof m === 'number' ? m : null;
};

/** A foe's HP change as players read it: the amount, and its fall at 0. */
function foeHpText(w: World, e: EventOf<OsrEvent, 'osr.hpChanged'>): string {
  const { from, to } = e;
  const what = to < from ? `took ${from - to} damage` : to > from ? `regained ${to - from} HP` : 'is unhurt';
  return `${nm(w, e.characterId)} ${what} (${e.reason}).${to <= 0 && to < from ? ` ${nm(w, e.characterId)} is down.` : ''}`;
}

const rollText = (roll: CheckResult, withDc = true): string => {
  const m = roll.modifier;
  return `d20 ${roll.dice.join(' / ')}${m === 0 ? '' : m > 0 ? ` +${m}` : ` ${m}`} = ${roll.total}${withDc ? ` vs ${roll.dc}` : ''}`;
};
const foeDefencesShown = (w: World): boolean => foeRevealOf(w) !== 'none';
/** An attack on a foe as players read it in history: without its AC (the roll's dc) until defences are revealed. */
const withoutFoeAc = foeNumbersView({ id: 'targetId', numbers: ['ac'], revealedBy: 'defences', foe: isFoe });
function attackedView(w: World, e: EventOf<OsrEvent, 'osr.attacked'>): EngineEvent {
  const asStored = stored(e);
  const out = withoutFoeAc(w, asStored);
  // The foe filter left the AC out: the roll's dc is the same number.
  const acHidden = out !== asStored;
  // A foe's attack bonus is its number (ADR 33, ADR 40): players read the die, not the bonus or the total, until every number is shown.
  const bonusHidden = isFoe(w, e.attackerId) && !showsFoeNumbers(w);
  if (!acHidden && !bonusHidden) return out;
  let shownRoll: Partial<CheckResult> = e.roll;
  if (acHidden) {
    const { dc: _dc, ...rest } = shownRoll;
    shownRoll = rest;
  }
  if (bonusHidden) {
    const { modifier: _m, total: _t, ...rest } = shownRoll;
    shownRoll = rest;
  }
  return { ...out, roll: asJson(shownRoll) };
}

/** A stored check's verdict (the roll is the record `resolveCheck` answered). */
const succeeded = (roll: CheckResult): boolean => roll.success;

// ---------------------------------------------------------------- reducers

/** A reducer that reads the OSR state and lets `log` judge a removal on the world before it. */
const on =
  <E extends OsrEvent>(fn: (w: World, e: E, st: OsrState) => World) =>
  (w: World, e: E): World => {
    const outer = before;
    before = w;
    try {
      return fn(w, e, getOsr(w));
    } finally {
      before = outer;
    }
  };

const INJURY_TEXT: { readonly [row: string]: string } = {
  dead: 'a false hope',
  abilityLoss: 'loses ability',
  bodyPart: 'loses a body part (the GM chooses which)',
  disadvantageUntilRest: 'has disadvantage on every check until rest',
  standing: 'is back on their feet',
};

/** 001 "Injury Table": each entry's name by its d20 roll (8-13 and 14-19 share one). */
function injuryEntry(d20: number): string {
  const named = ['A false hope', 'Feeble', 'Shaky', 'Weak', 'Addled', 'Confused', 'Disfigured'][d20 - 1];
  return named ?? (d20 <= 13 ? 'Lose a body part' : d20 <= 19 ? 'Disadvantage until rest' : 'Standing');
}

/** The log line names the roll, the table entry and the extra die with what it did (review 11 #15: "6 (6): loses ability"). */
export function injuryLine(name: string, e: { readonly d20: number; readonly extra: number | null; readonly row: string; readonly abilityLoss: { readonly ability: string; readonly amount: number } | null }): string {
  const die = injuryExtraDie(e.d20);
  const loss = e.abilityLoss === null ? (own(INJURY_TEXT, e.row) ?? e.row) : `loses ${e.abilityLoss.amount} ${e.abilityLoss.ability.toUpperCase()}`;
  const extra = e.extra === null || die === null ? '' : ` (${e.extra} on 1d${die})`;
  return `Injury roll for ${name}: ${e.d20} on the d20, ${injuryEntry(e.d20)}: ${loss}${extra}.`;
}

const evolve: Evolve<OsrEvent> = {
  'osr.sheetSet': (w, e) => log(withStats(w, e.characterId, e.stats), e, `${nm(w, e.characterId)}'s sheet was updated.`),
  'osr.checked': (w, e) => {
    const why = e.reasons.length > 0 ? ` (${e.reasons.join(', ')})` : '';
    return log(w, e, `${nm(w, e.characterId)} ${checkWords(w, e, succeeded(e.roll))}: ${rollText(e.roll)}${why}${e.impossible ? ', impossible in darkness' : ''}.`, { roll: asJson(e.roll) });
  },
  'osr.attacked': (w, e) => {
    // The dice and what was added, so anyone can check the total (review 9: "hit for 5" alone).
    const hitFor = e.hit ? `${e.crit ? 'a critical hit' : 'hit'} for ${e.damage?.total ?? 0}` : 'missed';
    const what = e.hit && e.damage !== undefined ? `${hitFor} (${damageRollWords(e.damage, osrSettings(w).critDoubles)})` : hitFor;
    // A foe's AC is the GM's until defences are revealed (ADR 33): players read the roll without the number it was against.
    const dice = e.roll.dice.join(' / ');
    // Why two dice were rolled, as a check's line says it (audit 13 #8: a shot in melee or in brilliant light).
    const why = e.reasons.length > 0 ? ` (${e.reasons.join(', ')})` : '';
    const shown =
      isFoe(w, e.attackerId) && !showsFoeNumbers(w)
        ? `${nm(w, e.attackerId)} attacked ${nm(w, e.targetId)} (${e.kind}): d20 ${dice}${why}, ${hitFor}.`
        : isFoe(w, e.targetId) && !foeDefencesShown(w)
          ? `${nm(w, e.attackerId)} attacked ${nm(w, e.targetId)} (${e.kind}): ${rollText(e.roll, false)}${why}, ${what}.`
          : undefined;
    return log(w, e, `${nm(w, e.attackerId)} attacked ${nm(w, e.targetId)} (${e.kind}, AC ${e.ac}): ${rollText(e.roll)}${why}, ${what}.`, e.hit ? { damageTo: e.targetId } : undefined, shown);
  },
  'osr.damageRolled': (w, e) => log(w, e, damageText(w, e), { damageTo: e.targetId }),
  // "Kira heals 5 (1d8) by magic.", completed with the HP it leaves as a damage line is (hpCompletes).
  'osr.healRolled': (w, e) => log(w, e, `${nm(w, e.targetId)} heals ${e.total}${e.faces.length > 0 ? ` (${e.dice})` : ''} by ${e.source}.`, { healTo: e.targetId }),
  'osr.hpChanged': (w, e) =>
    log(withStats(w, e.characterId, { hp: e.to }), e, `${nm(w, e.characterId)}: HP ${e.from} → ${e.to} (${e.reason}).`, undefined, isFoe(w, e.characterId) && !showsFoeNumbers(w) ? foeHpText(w, e) : undefined, hpCompletes(w, e)),
  'osr.downed': on((w, e, st) => {
    const id = e.characterId;
    const fallen = e.fight && sideInFight(w, id) !== null ? { fightFallen: addTo(st.fightFallen ?? [], id) } : {};
    const next = setOsr(w, { ...st, dying: { ...st.dying, [id]: { downAt: e.at, fight: e.fight } }, stable: removeFrom(st.stable, id), ...fallen });
    return log(next, e, `${nm(w, id)} is at 0 HP and incapacitated: dead unless stabilized within a minute or by the end of the fight.`);
  }),
  'osr.stabilized': on((w, e, st) => {
    const id = e.targetId;
    const dying = { ...st.dying };
    delete dying[id];
    return log(setOsr(w, { ...st, dying, stable: addTo(st.stable, id) }), e, `${nm(w, id)} is stabilized (${e.method}${e.helperId === null ? '' : ` by ${nm(w, e.helperId)}`}).`);
  }),
  'osr.injuryRolled': on((w, e, st) => {
    const id = e.characterId;
    let next = w;
    if (e.row === 'disadvantageUntilRest') next = setOsr(w, { ...st, shaken: addTo(st.shaken, id) });
    if (e.row === 'bodyPart') next = setOsr(w, { ...st, bodyParts: { ...st.bodyParts, [id]: [...(st.bodyParts[id] ?? []), 'a body part (GM to name)'] } });
    return log(next, e, injuryLine(nm(w, id), e));
  }),
  'osr.bodyPartLost': on((w, e, st) => {
    const id = e.characterId;
    const parts = [...(st.bodyParts[id] ?? [])];
    const i = parts.indexOf('a body part (GM to name)');
    if (i >= 0) parts[i] = e.part;
    else parts.push(e.part);
    return log(setOsr(w, { ...st, bodyParts: { ...st.bodyParts, [id]: parts } }), e, `${nm(w, id)} has lost: ${e.part}.`);
  }),
  'osr.abilityChanged': (w, e) => log(withStats(w, e.characterId, { [e.ability]: e.to }), e, `${nm(w, e.characterId)}: ${e.ability.toUpperCase()} ${e.from} → ${e.to} (${e.reason}).`),
  'osr.died': on((w, e, st) => {
    const id = e.characterId;
    const dying = { ...st.dying };
    delete dying[id];
    const enc = getEncounter(w);
    const inFight = enc.active && enc.roster.some((x) => own(enc.combatants, x)?.characterId === id);
    const corruptions = Object.fromEntries(Object.entries(st.corruptions).filter(([, k]) => k.target !== id));
    const next = setOsr(w, { ...st, dying, corruptions, dead: addTo(st.dead, id), stable: removeFrom(st.stable, id), hidden: removeFrom(st.hidden, id), fightDeaths: st.fightDeaths + (inFight ? 1 : 0) });
    return log(next, e, `${nm(w, id)} is dead (${e.reason}).`);
  }),
  'osr.leftUnconscious': on((w, e, st) => log(setOsr(w, { ...st, stable: addTo(st.stable, e.characterId) }), e, `${nm(w, e.characterId)} made it back unconscious, at 0 HP.`)),
  'osr.rested': on((w, e, st) => {
    let next = w;
    for (const h of e.heals) next = withStats(next, h.characterId, { hp: h.to });
    const who = e.characterIds;
    const { recovered } = e;
    const restedAt = { ...st.restedAt };
    if (e.fed) for (const id of who) restedAt[id] = next.clock.seconds;
    const s2: OsrState = {
      ...st,
      restedAt,
      shaken: st.shaken.filter((id) => !who.includes(id)),
      exhausted: st.exhausted.filter((id) => !recovered.includes(id)),
      stable: st.stable.filter((id) => !e.heals.some((h) => h.characterId === id && h.to > 0)),
    };
    const restText = (hs: readonly Heal[], also: string): string =>
      `${restedWords(e.nights, e.kind)}: ${hs.map((h) => healedWords(nm(w, h.characterId), h, maxHpOf(next, h.characterId))).join(', ') || 'nobody'}${also}${recovered.length > 0 ? `; no longer exhausted: ${recovered.map((id) => nm(w, id)).join(', ')}` : ''}.`;
    const text = restText(e.heals, '');
    // A foe's HP after the rest are the GM's (ADR 33): players read only that it rested.
    const foes = e.heals.filter((h) => isFoe(w, h.characterId));
    const shown = foes.length === 0 || showsFoeNumbers(w) ? undefined : restText(e.heals.filter((h) => !isFoe(w, h.characterId)), `; also rested: ${foes.map((h) => nm(w, h.characterId)).join(', ')}`);
    return log(setOsr(next, s2), e, text, undefined, shown);
  }),
  'osr.hid': on((w, e, st) => log(setOsr(w, { ...st, hidden: addTo(st.hidden, e.characterId) }), e, `${nm(w, e.characterId)} is in stealth.`)),
  'osr.revealed': on((w, e, st) => log(setOsr(w, { ...st, hidden: removeFrom(st.hidden, e.characterId) }), e, `${nm(w, e.characterId)} is no longer hidden (${e.reason}).`)),
  'osr.treated': on((w, e, st) => log(setOsr(w, { ...st, shaken: removeFrom(st.shaken, e.characterId) }), e, `${nm(w, e.characterId)}'s wounds are tended: no more disadvantage from the injury.`)),

  // exploration
  'osr.travelTurnRolled': on((w, e, st) =>
    log(setOsr(w, { ...st, turnsOut: e.turnsOut, lastThreat: e.band, cadence: e.cadence }), e, `Travel turn ${e.turnsOut}: d20 ${e.dice.join(' / ')} → ${e.natural}, ${e.band}: ${e.prompts.join('; ')}.`),
  ),
  'osr.sceneCounted': on((w, e, st) => setOsr(w, { ...st, scenes: e.scenes })),
  'osr.returned': on((w, e, st) => log(setOsr(w, { ...st, turnsOut: 0 }), e, 'The party is back in safety; the travel-turn count starts again.')),
  'osr.lightSet': on((w, e, st) => log(setOsr(w, { ...st, ambient: e.level }), e, `The light is now ${e.level}.`)),
  'osr.sourceLit': on((w, e, st) => {
    const id = e.sourceId;
    const src = { id, kind: e.kind, owner: e.characterId, label: e.label, burnsOutAt: e.burnsOutAt, remaining: 0 };
    return log(claimId(setOsr(w, { ...st, sources: { ...st.sources, [id]: src } }), id), e, `${src.owner === null ? 'A' : `${nm(w, src.owner)}'s`} ${src.label} is lit (out in ${Math.round((src.burnsOutAt - w.clock.seconds) / 60)} minutes).`);
  }),
  'osr.sourceDoused': on((w, e, st) => {
    const s = own(st.sources, e.sourceId);
    if (s === undefined) return w;
    return log(setOsr(w, { ...st, sources: { ...st.sources, [s.id]: { ...s, burnsOutAt: null, remaining: e.remaining } } }), e, `The ${s.label} is put out.`);
  }),
  'osr.sourceBurnedOut': on((w, e, st) => {
    const s = own(st.sources, e.sourceId);
    if (s === undefined) return w;
    const sources = { ...st.sources };
    delete sources[s.id];
    return log(setOsr(w, { ...st, sources }), e, `${s.owner === null ? 'The' : `${nm(w, s.owner)}'s`} ${s.label} has burned out.`);
  }),
  'osr.timeRolled': (w, e) => log(w, e, `Time dice ${e.faces.join(', ')}: ${String(e.hour).padStart(2, '0')}:00, ${e.quarter}.`),
  'osr.returnRolled': (w, e) => {
    const id = e.characterId;
    let next = w;
    let tail = 'made it back safely';
    if (!succeeded(e.roll)) {
      if (e.loadLost !== undefined && e.purseLost !== undefined) {
        // ADR 111: the purse pays its part in coins, copper first; the gear's part is still the GM's to pick.
        const s = sheetOf(w, id);
        const c = e.purseLost;
        next = withStats(w, id, { load: Math.max(0, s.load - e.loadLost), cp: Math.max(0, s.cp - c.cp), sp: Math.max(0, s.sp - c.sp), gp: Math.max(0, s.gp - c.gp) });
        const coins = (['cp', 'sp', 'gp'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`).join(', ');
        const loads = (n: number): string => `${n} load${n === 1 ? '' : 's'}`;
        const purse = `${coins} from the purse (${loads(c.loads)})`;
        const gear = e.loadLost > 0 ? `${loads(e.loadLost)} of gear (the GM picks the items, least valuable first)` : null;
        const parts = gear === null ? [purse] : e.purseFirst === true ? [purse, gear] : [gear, purse];
        tail = `dropped ${parts.join(' and ')} on the way${e.purseFirst === true ? ', the purse first as the GM chose' : ''}`;
      } else if (e.loadLost !== undefined) {
        next = withStats(w, id, { load: Math.max(0, sheetOf(w, id).load - e.loadLost) });
        tail = e.loadLost === 0 ? 'carried nothing to drop' : `dropped ${e.loadLost} load on the way (the GM picks the items, least valuable first)`;
      } else {
        tail = `took ${e.damage?.total ?? 0} damage on the way${e.damage?.doubled === true ? ' (doubled by a natural 1)' : ''}`;
      }
    }
    return log(next, e, `${nm(w, id)} rolls to return: ${rollText(e.roll)}, ${tail}.`);
  },
  'osr.traveled': (w, e) => log(w, e, `The party travels ${e.mode} for ${e.days} day(s): ${e.milesPerDay} miles a day, ${e.miles} in all.`),
  'osr.quickTaken': (w, e) => {
    const who = e.characterId !== null ? nm(w, e.characterId) : (own(getEncounter(w).combatants, e.combatantId)?.name ?? 'someone');
    return log(w, e, `${who} takes a quick action: ${e.what}${e.paidWith === 'quick' ? '' : ` (paid with the ${e.paidWith} action)`}.`);
  },
  'osr.moved': on((w, e, st) => {
    const c = e.combatantId;
    // The mover's own turn, counted here rather than carried in the event (players must not count hidden turns).
    const enc = getEncounter(w);
    const moved = { ...st.moved, [c]: { serial: own(enc.lastTurn, c) ?? enc.turnSerial, used: e.used, budget: e.budget } };
    const paid = e.paidWith === undefined ? '' : ` (paid with the ${e.paidWith} action)`;
    return log(setOsr(w, { ...st, moved }), e, `${e.characterId !== null ? nm(w, e.characterId) : c} moves ${e.feet}'${e.mode === 'walk' ? '' : ` (${e.mode}, half speed)`}${paid}: ${e.used}' of ${e.budget}' used this turn.`);
  }),
  'osr.strained': on((w, e, st) => {
    const id = e.characterId;
    const restedAt = { ...st.restedAt, [id]: (st.restedAt[id] ?? 0) - e.hours * 3600 };
    // The text asks the GM to tell the player: logged to everyone who may see the character.
    return log(setOsr(w, { ...st, restedAt }), e, `${nm(w, id)} loses ${e.hours} hour(s) of resilience (${e.reason}).`);
  }),

  // hazards
  'osr.moraleRolled': (w, e) => {
    // A side speaks as the side ("the foes, Goblin 2 rolling for 4"); a group by its roller.
    const who =
      e.side !== undefined ? `${sideWords(e.side)}, ${nm(w, e.characterId)}${e.group.length > 1 ? ` rolling for ${e.group.length}` : ''}` : e.group.length > 1 ? `${nm(w, e.characterId)}'s group (${e.group.length})` : nm(w, e.characterId);
    // The GM's reason for the advantage or disadvantage (001: "such as being outnumbered") beside the roll it changed.
    const why = e.why === undefined || e.why === '' ? '' : ` (${e.why})`;
    return log(w, e, `Morale for ${who} (${e.trigger}): ${rollText(e.roll)}${why}: ${e.held ? 'they stand and fight' : 'they surrender or flee'}.`);
  },
  'osr.moralePrompted': on((w, e, st) =>
    log(setOsr(w, { ...st, prompts: [...st.prompts, { trigger: e.trigger, text: e.text, ...(e.side === undefined ? {} : { side: e.side }) }].slice(-20) }), e, `Morale? ${e.text}`),
  ),
  // The data lets the GM's panel say what became of the dying since (review 7: "Kira (54 s left)" stayed after she died).
  'osr.fightSummarized': (w, e) => log(w, e, summaryText(w, e), summaryData(w, e)),
  'osr.leftDying': (w, e) => log(w, e, `The fight is over and ${nm(w, e.characterId)} is still at 0 HP: dead unless stabilized within ${e.secondsLeft} s (the rest of the minute).`),
  'osr.tidePrompted': on((w, e, st) => setOsr(w, { ...st, tidePrompted: addTo(st.tidePrompted, e.side) })),
  'osr.chased': (w, e) =>
    // A group's one roll names who it was for (001 "Chases": the worst modifier rolls for the party).
    log(w, e, `${nm(w, e.characterId)}${e.forGroup.length > 1 ? ` (rolling for the group: ${e.forGroup.map((x) => nm(w, x)).join(', ')})` : ''} ${e.direction === 'flee' ? 'flees' : 'gives chase'} (${e.ability.toUpperCase()}, DC ${e.dc}): ${rollText(e.roll)}: ${e.success ? (e.direction === 'flee' ? 'escaped' : 'caught it') : e.direction === 'flee' ? 'caught' : 'it got away'}.`),
  'osr.exhausted': on((w, e, st) => log(setOsr(w, { ...st, exhausted: addTo(st.exhausted, e.characterId) }), e, `${nm(w, e.characterId)} is exhausted (${e.reason}): disadvantage on all checks, 0' speed until a safe rest with food.`)),
  'osr.infected': on((w, e, st) => {
    // The state keeps its own record shape; the event carries it under the vocabulary's names (ADR 39).
    const k = corruptionOf(e.corruption);
    return log(claimId(setOsr(w, { ...st, corruptions: { ...st.corruptions, [k.id]: k } }), k.id), e, `${nm(w, k.target)} is infected by ${k.name}.`);
  }),
  'osr.stageEnded': on((w, e, st) => {
    const k = own(st.corruptions, e.corruptionId);
    if (k === undefined) return w;
    const next = e.nextStage !== null && e.nextEndsAt !== null ? { ...k, stage: e.nextStage, stageEndsAt: e.nextEndsAt } : k;
    const dmg = e.damage;
    const why = e.reasons.length > 0 ? ` (${e.reasons.join(', ')})` : '';
    const hurt = dmg === null ? '' : `, ${dmg.total} ${dmg.ability.toUpperCase()} damage${dmg.doubled ? ' (doubled by a natural 1)' : ''}`;
    return log(setOsr(w, { ...st, corruptions: { ...st.corruptions, [k.id]: next } }), e, `${k.name}, stage ${k.stage + 1} ends for ${nm(w, k.target)}: ${rollText(e.roll)}${why}${hurt}.`);
  }),
  'osr.corruptionEnded': on((w, e, st) => {
    const corruptions = { ...st.corruptions };
    const k = own(corruptions, e.corruptionId);
    delete corruptions[e.corruptionId];
    return log(setOsr(w, { ...st, corruptions }), e, `${k?.name ?? 'The corruption'} no longer afflicts ${nm(w, e.characterId)} (${e.reason}).`);
  }),
  'osr.retreatStarted': on((w, e, st) => {
    const c = e.combatantId;
    return log(setOsr(w, { ...st, retreating: { ...st.retreating, [c]: { combatant: c, character: e.characterId } } }), e, `${nm(w, e.characterId)} tries to retreat.`);
  }),
  'osr.retreatFailed': on((w, e, st) => {
    const retreating = { ...st.retreating };
    delete retreating[e.combatantId];
    return log(setOsr(w, { ...st, retreating }), e, `The retreat fails (${e.reason}): they stop moving.`);
  }),
  'osr.escaped': on((w, e, st) => {
    const retreating = { ...st.retreating };
    delete retreating[e.combatantId];
    return log(setOsr(w, { ...st, retreating }), e, `${nm(w, e.characterId)} escapes the battle.`);
  }),
  'osr.treasureShared': on((w, e, st) => {
    const xp = { ...st.xp };
    for (const id of e.characterIds) xp[id] = (own(xp, id) ?? 0) + e.xpEach;
    // Who shares it, by name (review 11: the line named nobody).
    const who = e.characterIds.map((id) => nm(w, id));
    const names = who.length === 1 ? who[0]! : `${who.slice(0, -1).join(', ')} and ${who.at(-1)!}`;
    // Into the purses: each share is gold the sharer now carries (and weighs, 001 "Treasure").
    let next = setOsr(w, { ...st, xp });
    if (e.pursed === true) for (const id of e.characterIds) next = withStats(next, id, { gp: sheetOf(next, id).gp + e.each });
    return log(next, e, `${e.gp} gp shared by ${names}, ${e.each} each${e.earned ? ` (+${e.xpEach} XP each)` : ' (unearned: no XP)'}${e.pursed === true ? ', into their purses' : ''}.`);
  }),
  'osr.coinsConverted': (w, e) => {
    const s = sheetOf(w, e.characterId);
    const next = withStats(w, e.characterId, { [e.from]: s[e.from] - e.amount, [e.to]: s[e.to] + e.into });
    return log(next, e, `${nm(w, e.characterId)} changed ${e.amount} ${e.from} into ${e.into} ${e.to}.`);
  },
  'osr.magicItemCaptured': on((w, e, st) => {
    const xp = { ...st.xp };
    for (const id of e.characterIds) xp[id] = (own(xp, id) ?? 0) + e.xpEach;
    return log(setOsr(w, { ...st, xp, magicCounted: addTo(st.magicCounted, e.item) }), e, `${e.item} captured (fair value ${e.value} gp)${e.alreadyCounted ? ': already counted for XP' : `: +${e.xpEach} XP each`}.`);
  }),
  'osr.lootRolled': (w, e) => log(w, e, `${e.characterId === null ? 'Carried loot' : `${nm(w, e.characterId)}'s carried loot`} (${e.hd} HD, ${e.hd}d20): ${e.gp} gp.`),
};

const reducers: { [type: string]: Reducer } = {
  ...reducersOf(evolve),
  // Kernel events the OSR follows. The fight the dying went down in is over: the minute alone decides now.
  'encounter.ended': (w) => {
    const st = getOsr(w);
    const dying: { [id: string]: { downAt: number; fight: boolean } } = {};
    for (const [id, d] of Object.entries(st.dying)) dying[id] = { ...d, fight: false };
    const { fightFallen: _fallen, ...rest } = st;
    return setOsr(w, { ...rest, dying, fightDeaths: 0, retreating: {}, hidden: [], moved: {}, tidePrompted: [] });
  },
  // A new fight's prompts start afresh: the GM screen shows the newest of this fight (ADR 44).
  'encounter.started': (w) => {
    const { fightFallen: _fallen, ...rest } = getOsr(w);
    return setOsr(w, { ...rest, fightDeaths: 0, tidePrompted: [], prompts: [] });
  },
};

// ---------------------------------------------------------------- reactions

/** Corruption stages whose end the clock has passed: roll the check (and the damage) for each, in order. */
function corruptionEvents(world: World, env: Env, st: OsrState): EngineEvent[] {
  const set = osrSettings(world);
  const now = world.clock.seconds;
  const out: EngineEvent[] = [];
  for (const k0 of Object.values(st.corruptions)) {
    if (k0.stageEndsAt > now || st.dead.includes(k0.target)) continue;
    let k: Corruption = k0;
    const sheet = sheetOf(world, k.target);
    const ab: { [a in Ability]: number } = { str: sheet.str, dex: sheet.dex, con: sheet.con, int: sheet.int, wis: sheet.wis, cha: sheet.cha };
    let exhausted = st.exhausted.includes(k.target);
    for (let guard = 0; guard < 500 && k.stageEndsAt <= now; guard++) {
      const stage = k.stages[k.stage]!;
      const con = ab.con;
      // Resisting a stage is a check like any other: every automatic source (load over STR, exhaustion, injury) applies,
      // read from the abilities as earlier stages left them (001 "Movement Actions": disadvantage on all checks).
      const asNow = withStats(world, k.target, ab);
      const adv = checkAdvantage(exhausted && !st.exhausted.includes(k.target) ? updateOsr(asNow, (o) => ({ ...o, exhausted: addTo(o.exhausted, k.target) })) : asNow, k.target, {});
      const dice = rollCheckDice(env.rng, adv.advantage);
      const r = resolveCheck(dice, adv.advantage, abilityModifier(con), k.dc);
      if (r.success && set.corruptionCureOnSuccess) {
        out.push(stored({ type: 'osr.stageEnded', corruptionId: k.id, roll: r, reasons: adv.reasons, damage: null, nextStage: null, nextEndsAt: null } satisfies OsrEvent));
        out.push({ type: 'osr.corruptionEnded', corruptionId: k.id, characterId: k.target, reason: 'fought it off' } satisfies OsrEvent);
        break;
      }
      let damage: EventOf<OsrEvent, 'osr.stageEnded'>['damage'] = null;
      if (!r.success && stage.ability !== null && stage.dice > 0) {
        const faces = Array.from({ length: stage.dice }, () => env.rng.die(6));
        // Ability damage is damage the PC suffers: a natural 1 doubles it (001 "Critical Failure").
        const doubled = naturalOneDoubles(world, k.target, r.natural);
        damage = { ability: stage.ability, faces, doubled, total: damageTotal(faces, 0, doubled, set.critDoubles) };
      }
      const last = k.stage + 1 >= k.stages.length;
      const nextIndex = last ? (set.corruptionRepeatsLastStage ? k.stage : null) : k.stage + 1;
      const nextEndsAt = nextIndex === null ? null : k.stageEndsAt + k.stages[nextIndex]!.hours * 3600;
      out.push(stored({ type: 'osr.stageEnded', corruptionId: k.id, roll: r, reasons: adv.reasons, damage, nextStage: nextIndex, nextEndsAt } satisfies OsrEvent));
      if (damage !== null) {
        const from = ab[damage.ability];
        const to = Math.max(0, from - damage.total);
        ab[damage.ability] = to;
        out.push({ type: 'osr.abilityChanged', characterId: k.target, ability: damage.ability, from, to, reason: k.name } satisfies OsrEvent);
        if (to === 0 && set.deathAtZeroAbility) {
          out.push({ type: 'osr.died', characterId: k.target, reason: `${k.name}: ${damage.ability.toUpperCase()} fell to 0` } satisfies OsrEvent);
          break;
        }
      }
      if (nextIndex === null) {
        out.push({ type: 'osr.corruptionEnded', corruptionId: k.id, characterId: k.target, reason: 'ran its course' } satisfies OsrEvent);
        break;
      }
      if (k.stages[nextIndex]!.exhaustion && !exhausted) {
        out.push({ type: 'osr.exhausted', characterId: k.target, reason: k.name } satisfies OsrEvent);
        exhausted = true;
      }
      k = { ...k, stage: nextIndex, stageEndsAt: nextEndsAt! };
    }
  }
  return out;
}

/** Clock-driven follow-ups after any event: light burning out, the dying dying, corruption stages ending. */
function onTime(world: World, e: EngineEvent, env: Env): EngineEvent[] {
  if (e.type.startsWith('osr.') && e.type !== 'osr.hpChanged' && e.type !== 'osr.downed' && e.type !== 'osr.infected') return [];
  const st = getOsr(world);
  const now = world.clock.seconds;
  const out: EngineEvent[] = [];
  // for-in over own keys (the order Object.values gives), not Object.values/entries: this runs after every event.
  for (const k in st.sources) {
    if (!Object.hasOwn(st.sources, k)) continue;
    const s = st.sources[k]!;
    if (s.burnsOutAt !== null && s.burnsOutAt <= now) out.push({ type: 'osr.sourceBurnedOut', sourceId: s.id, at: s.burnsOutAt } satisfies OsrEvent);
  }
  let dyingAny = false;
  for (const id in st.dying) if (Object.hasOwn(st.dying, id)) dyingAny = true;
  if (dyingAny) {
    const fightOn = getEncounter(world).active;
    const window = osrSettings(world).deathWindowSeconds;
    for (const [id, d] of Object.entries(st.dying)) if (deathDue(d.downAt, now, d.fight && fightOn, window)) out.push({ type: 'osr.died', characterId: id, reason: 'not stabilized in time' } satisfies OsrEvent);
  }
  // Most tables carry no corruption: then neither the settings nor the list are read (this runs after every event).
  let corrupted = false;
  for (const k in st.corruptions) if (Object.hasOwn(st.corruptions, k)) corrupted = true;
  if (corrupted) for (const x of corruptionEvents(world, env, st)) out.push(x);
  return out;
}

/** The side of the running fight a character fights on, or null when it is not in one. */
function sideInFight(world: World, id: string): string | null {
  const enc = getEncounter(world);
  if (!enc.active) return null;
  for (const x of enc.roster) {
    const c = own(enc.combatants, x);
    if (c?.characterId === id) return c.side;
  }
  return null;
}

/**
 * 001 "When To Check Morale": prompts for the GM when a battle begins, when the
 * first combatant is killed, when a leader falls, when the tide turns. In a
 * fight nobody dies before its end (001 "Death & Injury"), so falling to 0 HP
 * counts as killed for morale; a death is prompted only for one who never fell
 * in this fight (ADR 44).
 */
const moralePrompts = reactionOf<EventOf<EncounterEvent, 'encounter.started'> | EventOf<OsrEvent, 'osr.hpChanged' | 'osr.downed' | 'osr.died'>>(['encounter.started', 'osr.hpChanged', 'osr.downed', 'osr.died'], (world, e) => {
  if (e.type === 'encounter.started') return [{ type: 'osr.moralePrompted', trigger: 'battle-begins', text: 'the battle begins: call for morale checks?', side: foesSide(world) } satisfies OsrEvent];
  if (e.type === 'osr.hpChanged') return tidePrompts(world);
  const id = e.characterId;
  const side = sideInFight(world, id);
  if (side === null) return [];
  const st = getOsr(world);
  const out: EngineEvent[] = [];
  const leader = own(world.characters, id)?.stats['leader'] === true;
  if (e.type === 'osr.downed') {
    const fallen = st.fightFallen ?? [];
    if (!fallen.includes(id)) return tidePrompts(world);
    if (fallen.length === 1 && st.fightDeaths === 0) out.push({ type: 'osr.moralePrompted', trigger: 'first-killed', text: `${nm(world, id)} is the first to fall in this fight: morale for ${sideWords(side)}?`, side } satisfies OsrEvent);
    if (leader) out.push({ type: 'osr.moralePrompted', trigger: 'leader-killed', text: `${nm(world, id)}, a leader, has fallen: morale for ${sideWords(side)}?`, side } satisfies OsrEvent);
    return [...out, ...tidePrompts(world)];
  }
  if ((st.fightFallen ?? []).includes(id)) return [];
  if (st.fightDeaths === 1 && (st.fightFallen ?? []).length === 0) out.push({ type: 'osr.moralePrompted', trigger: 'first-death', text: `${nm(world, id)} is the first to die in this fight: morale for ${sideWords(side)}?`, side } satisfies OsrEvent);
  if (leader) out.push({ type: 'osr.moralePrompted', trigger: 'leader-killed', text: `${nm(world, id)}, a leader, is dead: morale for ${sideWords(side)}?`, side } satisfies OsrEvent);
  return out;
});

/** The side the battle-begins prompt is about: the first side in the roster with no PC on it (the foes), if any. */
function foesSide(world: World): string {
  const enc = getEncounter(world);
  const sides = new Map<string, boolean>();
  for (const x of enc.roster) {
    const c = own(enc.combatants, x);
    if (c !== undefined) sides.set(c.side, (sides.get(c.side) ?? false) || c.kind === 'pc');
  }
  for (const [side, pcs] of sides) if (!pcs) return side;
  return 'npcs';
}

/**
 * 001 "Death & Injury" at the fight's end: the dying whose minute has run out
 * die now (onTime emits that, from the same world), the others have the rest of
 * the minute; the summary says so with who still stands (ADR 44).
 */
const fightSummary = reactionOf<EventOf<EncounterEvent, 'encounter.ended'>>(['encounter.ended'], (world, e) => {
  const enc = getEncounter(world);
  const st = getOsr(world);
  const now = world.clock.seconds;
  const window = osrSettings(world).deathWindowSeconds;
  const dead: string[] = [];
  const dying: { id: string; secondsLeft: number }[] = [];
  const standing: { id: string; side: string }[] = [];
  const stable: string[] = [];
  const down: string[] = [];
  for (const x of enc.roster) {
    const c = own(enc.combatants, x);
    if (c === undefined) continue;
    const ch = c.characterId;
    const d = ch === null ? undefined : own(st.dying, ch);
    if (ch !== null && st.dead.includes(ch)) dead.push(c.id);
    else if (d !== undefined && deathDue(d.downAt, now, false, window)) dead.push(c.id);
    else if (d !== undefined) dying.push({ id: c.id, secondsLeft: d.downAt + window - now });
    else if (ch !== null && st.stable.includes(ch) && sheetOf(world, ch).hp <= 0) stable.push(c.id);
    // Down by its own numbers (review 10: a defeated Goblin 1 was "still standing"): its tracker HP or its sheet's at 0.
    else if (isDefeated(c) || (ch !== null && sheetOf(world, ch).hp <= 0)) down.push(c.id);
    else standing.push({ id: c.id, side: c.side });
  }
  // Tables stored before the event carried its round read as a one-round fight.
  const round: number | undefined = e.round;
  // The party reads its own dying's deadline (a foe's stays in the GM's summary, ADR 44): the table may still save them (ADR 53).
  const left: EngineEvent[] = [];
  for (const d of dying) {
    const ch = own(enc.combatants, d.id)?.characterId ?? null;
    if (ch !== null && !isFoe(world, ch)) left.push({ type: 'osr.leftDying', characterId: ch, secondsLeft: d.secondsLeft } satisfies OsrEvent);
  }
  return [{ type: 'osr.fightSummarized', rounds: typeof round === 'number' ? Math.max(1, round) : 1, dead, dying, stable, standing, ...(down.length > 0 ? { down } : {}) } satisfies OsrEvent, ...left];
});

/** The summary without its dying sentence, and who was left dying (by character), for a panel that follows them live. */
function summaryData(w: World, e: EventOf<OsrEvent, 'osr.fightSummarized'>): Json {
  const enc = getEncounter(w);
  const dying = e.dying.flatMap((d) => {
    const c = own(enc.combatants, d.id);
    return c?.characterId === null || c === undefined ? [] : [{ characterId: c.characterId, name: c.name }];
  });
  return { without: summaryText(w, { ...e, dying: [] }), dying };
}

/** The summary's words: combatants by their tracker names; each side's survivors in the GM's words. */
function summaryText(w: World, e: EventOf<OsrEvent, 'osr.fightSummarized'>): string {
  const enc = getEncounter(w);
  const name = (id: string): string => own(enc.combatants, id)?.name ?? 'someone';
  const list = (ids: readonly string[]): string => ids.map(name).join(', ');
  const parts = [`The fight is over after ${e.rounds} round${e.rounds === 1 ? '' : 's'}.`];
  parts.push(e.dead.length > 0 ? `Dead (not stabilized by the end of the fight): ${list(e.dead)}.` : 'Nobody died.');
  if (e.dying.length > 0) parts.push(`Dying, dead unless stabilized in time: ${e.dying.map((d) => `${name(d.id)} (${d.secondsLeft} s left)`).join(', ')}.`);
  if (e.stable.length > 0) parts.push(`Stable at 0 HP: ${list(e.stable)}.`);
  if ((e.down ?? []).length > 0) parts.push(`Down at 0 HP: ${list(e.down ?? [])}.`);
  const sides = new Map<string, string[]>();
  for (const s of e.standing) sides.set(s.side, [...(sides.get(s.side) ?? []), s.id]);
  parts.push(sides.size === 0 ? 'Nobody is left standing.' : `Still standing: ${[...sides].map(([side, ids]) => `${sideWords(side)}, ${list(ids)}`).join('; ')}.`);
  return parts.join(' ');
}

/** The tide is obvious once a share of a side (setting tidePromptAt) is down or dead: one prompt per side per fight. */
/** A side in the GM's words: the web's keys for the party and the foes, else the side's own name. */
function sideWords(side: string): string {
  if (side === 'pcs' || side === 'party') return 'the party';
  if (side === 'npcs' || side === 'foes') return 'the foes';
  return `the side "${side}"`;
}

function tidePrompts(world: World): EngineEvent[] {
  const enc = getEncounter(world);
  const at = osrSettings(world).tidePromptAt;
  if (!enc.active || at <= 0) return [];
  const st = getOsr(world);
  const sides = new Map<string, { n: number; down: number }>();
  for (const id of enc.roster) {
    const c = own(enc.combatants, id)!;
    const s = sides.get(c.side) ?? { n: 0, down: 0 };
    const down = c.characterId !== null && (st.dead.includes(c.characterId) || sheetOf(world, c.characterId).hp <= 0);
    sides.set(c.side, { n: s.n + 1, down: s.down + (down ? 1 : 0) });
  }
  const out: EngineEvent[] = [];
  for (const [side, s] of sides) {
    if (s.n > 1 && s.down / s.n >= at && !st.tidePrompted.includes(side)) {
      out.push({ type: 'osr.tidePrompted', side } satisfies OsrEvent, { type: 'osr.moralePrompted', trigger: 'tide', text: `${s.down} of ${s.n} of ${sideWords(side)} are down: the tide looks obvious. Morale?`, side } satisfies OsrEvent);
    }
  }
  return out;
}

// ---------------------------------------------------------------- projector

/**
 * Default-deny (ADR 10): the player's OSR state is built field by field from
 * what they may read; a field added to OsrState must be listed here to show.
 * Visibility is judged on the unprojected world (`source`): a character the
 * core projector already removed is hidden, not unknown-and-therefore-shown.
 */
function project(world: World, viewer: Viewer, source: World = world): World {
  if (viewer.role === 'gm') return world;
  const st = getOsr(world);
  const seesCharacter = (id: string | null): boolean => {
    if (id === null) return true;
    const ch = Object.hasOwn(source.characters, id) ? own(source.characters, id) : undefined;
    return ch !== undefined && canSee(ch.visibility, viewer);
  };
  const enc = getEncounter(world);
  const seesCombatant = (id: string): boolean => Object.hasOwn(enc.combatants, id) && own(enc.combatants, id)!.visibility === 'visible';
  const keep = <T, U>(m: { readonly [id: string]: T }, shown: (k: string, v: T) => boolean, fields: (v: T) => U): { [id: string]: U } =>
    Object.fromEntries(Object.entries(m).filter(([k, v]) => shown(k, v)).map(([k, v]) => [k, fields(v)]));
  const byCharacter = (k: string): boolean => seesCharacter(k);
  const out: OsrState = {
    ambient: st.ambient,
    sources: keep(st.sources, (_k, v) => seesCharacter(v.owner), (v) => ({ id: v.id, kind: v.kind, owner: v.owner, label: v.label, burnsOutAt: v.burnsOutAt, remaining: v.remaining })),
    dying: keep(st.dying, byCharacter, (v) => ({ downAt: v.downAt, fight: v.fight })),
    stable: st.stable.filter(seesCharacter),
    dead: st.dead.filter(seesCharacter),
    turnsOut: st.turnsOut,
    cadence: st.cadence,
    lastThreat: null,
    restedAt: keep(st.restedAt, byCharacter, (v) => v),
    exhausted: st.exhausted.filter(seesCharacter),
    shaken: st.shaken.filter(seesCharacter),
    bodyParts: keep(st.bodyParts, byCharacter, (v) => [...v]),
    // Whoever sees a character sees it in stealth: the party knows their friend is hiding (ADR 89, addendum).
    hidden: st.hidden.filter(seesCharacter),
    corruptions: keep(
      st.corruptions,
      (_k, v) => seesCharacter(v.target),
      (v) => ({
        id: v.id,
        target: v.target,
        name: v.name,
        dc: v.dc,
        stages: v.stages.map((g) => ({ hours: g.hours, ability: g.ability, dice: g.dice, exhaustion: g.exhaustion, note: g.note })),
        stage: v.stage,
        stageEndsAt: v.stageEndsAt,
      }),
    ),
    xp: keep(st.xp, byCharacter, (v) => v),
    magicCounted: [...st.magicCounted],
    retreating: keep(st.retreating, (k, v) => seesCombatant(k) && seesCharacter(v.character), (v) => ({ combatant: v.combatant, character: v.character })),
    prompts: [],
    // Deaths this fight count hidden ones too; only the GM's morale prompt needs it.
    fightDeaths: 0,
    moved: keep(st.moved, (k) => seesCombatant(k), (m) => ({ serial: playerTurnSerial(getEncounter(source), m.serial), used: m.used, budget: m.budget })),
    scenes: st.scenes,
    tidePrompted: [],
  };
  return setOsr(world, out);
}

/**
 * The projector's rule for one id (ADR 18): a light source or corruption goes
 * with its character; entries keyed by a character or combatant (dying, body
 * parts, retreats, movement) with that character or combatant.
 */
function idStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined {
  const st = getOsr(world);
  const source = own(st.sources, id);
  const corruption = own(st.corruptions, id);
  const byCharacter = own(st.dying, id) !== undefined || own(st.bodyParts, id) !== undefined;
  const retreat = own(st.retreating, id);
  const byCombatant = retreat !== undefined || own(st.moved, id) !== undefined;
  if (source === undefined && corruption === undefined && !byCharacter && !byCombatant) return undefined;
  if (viewer.role === 'gm') return 'shown';
  const seesCharacter = (x: string | null): boolean => {
    if (x === null) return true;
    const ch = own(world.characters, x);
    return ch !== undefined && canSee(ch.visibility, viewer);
  };
  const seesCombatant = (x: string): boolean => own(getEncounter(world).combatants, x)?.visibility === 'visible';
  if (source !== undefined && seesCharacter(source.owner)) return 'shown';
  if (corruption !== undefined && seesCharacter(corruption.target)) return 'shown';
  if (byCharacter && seesCharacter(id)) return 'shown';
  if (retreat !== undefined && seesCombatant(id) && seesCharacter(retreat.character)) return 'shown';
  if (own(st.moved, id) !== undefined && seesCombatant(id)) return 'shown';
  return 'hidden';
}

export const osrModule: Module = {
  id: OSR_ID,
  commands: { ...combatCommands(osrKit.rules), ...explorationCommands(), ...hazardCommands(osrKit.rules) },
  reducers,
  reactions: [
    (w, e, env) => {
      const time = onTime(w, e, env);
      const morale = moralePrompts(w, e, env);
      const summary = fightSummary(w, e, env);
      // Most events prompt none of the three: no joined copy then.
      return morale.length === 0 && summary.length === 0 ? time : [...time, ...morale, ...summary];
    },
  ],
  project,
  // Visibility is judged on the characters and the encounter (turn numbers on the unprojected one).
  projectReads: { reads: [`ext.${OSR_ID}`, 'characters', 'ext.encounter'], writes: [`ext.${OSR_ID}`] },
  idStatus,
  queries: osrQueries,
  // Events stored before the union took the command vocabulary are read under today's names (ADR 28).
  upcasts: { eventFields: osrEventFields, eventRecords: osrEventRecords },
  // History as players read it: a foe's HP change keeps the amount's sign and its fall, not its HP (ADR 33).
  eventView: {
    'osr.hpChanged': foeNumbersView({ id: 'characterId', numbers: ['from', 'to'], delta: ['from', 'to'], fall: 'to', foe: isFoe }),
    ...eventViewsOf<OsrEvent>({
      'osr.attacked': attackedView,
      // A foe's HP after a rest are its numbers (ADR 33): players read the others' heals.
      'osr.rested': (w, e) => ({ ...e, heals: e.heals.filter((h) => !isFoe(w, h.characterId)) }),
    }),
  },
  eventViewBasis: (w) => foeBasis(w),
  // Every OSR event, each judged by the characters, corruptions, light sources and combatants it names.
  audience: sameAudience<OsrEvent>(evolve, audienceOf),
};

export { updateOsr };
