// The 'osr' Module: commands from the three command files, the reducers that
// keep world.ext.osr and the characters' stats, reactions on the one clock
// (torches and lanterns burning out, the death timer, corruption stages,
// morale prompts) and a projector that keeps GM matters from players.
import {
  AUDIENCE_ALL,
  AUDIENCE_GM,
  appendLog,
  canSee,
  claimId,
  encounterKit,
  getEncounter,
  osrEncounter,
  playerTurnSerial,
  type Audience,
  type Combatant,
  type ConditionDef,
  type EncounterKit,
  type EngineEvent,
  type Env,
  type Json,
  type Module,
  type Reducer,
  type Viewer,
  type World, own } from '@tablekeeper/engine';
import { abilityModifier, type Ability } from './checks.js';
import { combatCommands, naturalOneDoubles } from './combat-commands.js';
import { explorationCommands } from './exploration-commands.js';
import { hazardCommands } from './hazard-commands.js';
import { osrQueries } from './module-queries.js';
import { rollCheckDice } from './rolls.js';
import { resolveCheck } from './checks.js';
import { osrSettings } from './settings.js';
import { damageTotal, deathDue } from './combat.js';
import { checkAdvantage } from './shared.js';
import { addTo, getOsr, OSR_ID, removeFrom, setOsr, sheetOf, updateOsr, withStats, type Corruption, type OsrState } from './state.js';

/** Encounter conditions the OSR ruleset names (001 "Quick Actions": maintaining concentration; "Retreat" ends it). */
export const OSR_CONDITIONS: readonly ConditionDef[] = [{ id: 'concentrating', name: 'Concentrating', stacking: 'refresh', effects: {} }];

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

export const osrKit: EncounterKit = encounterKit({ ...osrEncounter(), conditions: OSR_CONDITIONS, canAct, canActReads: [`ext.${OSR_ID}`, 'characters'], sheetStats });

// ---------------------------------------------------------------- audiences and log

const ID_KEYS = ['id', 'character', 'target', 'attacker', 'by', 'owner'];
/** Character ids an event names, also inside the records it carries (an infection's target, a light source's owner). */
const idsIn = (e: EngineEvent): string[] => {
  const out: string[] = [];
  const scan = (o: { readonly [k: string]: Json | undefined }): void => {
    for (const k of ID_KEYS) if (typeof o[k] === 'string') out.push(o[k]);
  };
  scan(e);
  for (const k of ['corruption', 'source']) {
    const v = e[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) scan(v);
  }
  return out;
};

/** GM-only when the event names a character players cannot see; travel-turn threats and morale prompts are the GM's. */
function audienceOf(world: World, e: EngineEvent): Audience {
  if (e.type === 'osr.travelTurnRolled' || e.type === 'osr.moralePrompted' || e.type === 'osr.tidePrompted' || e.type === 'osr.sceneCounted') return AUDIENCE_GM;
  const st = getOsr(world);
  for (const named of idsIn(e)) {
    // A corruption or a light source takes its audience from the character it belongs to.
    const id = Object.hasOwn(st.corruptions, named) ? own(st.corruptions, named)!.target : Object.hasOwn(st.sources, named) ? (own(st.sources, named)!.owner ?? named) : named;
    const ch = Object.hasOwn(world.characters, id) ? own(world.characters, id) : undefined;
    if (ch !== undefined && ch.visibility !== 'visible') return AUDIENCE_GM;
  }
  const comb = e['combatant'];
  if (typeof comb === 'string') {
    const c = own(getEncounter(world).combatants, comb);
    if (c !== undefined && c.visibility !== 'visible') return AUDIENCE_GM;
  }
  return AUDIENCE_ALL;
}

const nm = (w: World, id: unknown): string => (typeof id === 'string' ? (own(w.characters, id)?.name ?? id) : 'someone');

/**
 * What a check was for, in words: a stabilize check's label holds the dying
 * character's id (stored events keep it), so the line names them instead
 * ("Kira failed to stabilize Bram", a GM review finding: the raw id reached phones).
 */
function checkWords(w: World, e: EngineEvent, passed: boolean): string {
  const label = str(e, 'label');
  if (e['kind'] === 'stabilize' && label.startsWith('stabilize ')) return `${passed ? 'stabilized' : 'failed to stabilize'} ${nm(w, label.slice('stabilize '.length))}`;
  return `${passed ? 'passed' : 'failed'} ${label}`;
}

/** The world before the event the running reducer applies (set by `on`): a removal is judged while the thing exists. */
let before: World | null = null;

function log(w: World, e: EngineEvent, text: string, data?: Json, shown?: string): World {
  const now = audienceOf(w, e);
  const audience = now.kind === 'all' && before !== null ? audienceOf(before, e) : now;
  return appendLog(w, { audience, kind: e.type, text, ...(shown !== undefined ? { shown } : {}), ...(data !== undefined ? { data } : {}) });
}

/** Anyone but a PC: its HP are the GM's; players read the damage and the fall (ADR 33). */
const isFoe = (w: World, id: unknown): boolean => typeof id !== 'string' || own(w.characters, id)?.kind !== 'pc';

/** A foe's HP change as players read it: the amount, and its fall at 0. */
function foeHpText(w: World, e: EngineEvent): string {
  const from = Number(e['from']);
  const to = Number(e['to']);
  const what = to < from ? `took ${from - to} damage` : to > from ? `regained ${to - from} HP` : 'is unhurt';
  return `${nm(w, e['id'])} ${what} (${str(e, 'reason')}).${to <= 0 && to < from ? ` ${nm(w, e['id'])} is down.` : ''}`;
}

const rollText = (roll: Json | undefined): string => {
  if (typeof roll !== 'object' || roll === null || Array.isArray(roll)) return '';
  const dice = Array.isArray(roll['dice']) ? roll['dice'].join(' / ') : '';
  const m = Number(roll['modifier']);
  return `d20 ${dice}${m === 0 ? '' : m > 0 ? ` +${m}` : ` ${m}`} = ${String(roll['total'])} vs ${String(roll['dc'])}`;
};

// ---------------------------------------------------------------- reducers

const on =
  (fn: (w: World, e: EngineEvent, st: OsrState) => World): Reducer =>
  (w, e) => {
    const outer = before;
    before = w;
    try {
      return fn(w, e, getOsr(w));
    } finally {
      before = outer;
    }
  };

const str = (e: EngineEvent, k: string): string => String(e[k]);

const reducers: { [type: string]: Reducer } = {
  'osr.sheetSet': (w, e) => log(withStats(w, str(e, 'id'), (e['stats'] ?? {}) as { [k: string]: Json }), e, `${nm(w, e['id'])}'s sheet was updated.`),
  'osr.checked': (w, e) => {
    const roll = e['roll'] as { [k: string]: Json } | undefined;
    const ok = roll?.['success'] === true;
    const why = Array.isArray(e['reasons']) && e['reasons'].length > 0 ? ` (${e['reasons'].join(', ')})` : '';
    return log(w, e, `${nm(w, e['character'])} ${checkWords(w, e, ok)}: ${rollText(roll)}${why}${e['impossible'] === true ? ', impossible in darkness' : ''}.`, { roll: roll ?? null });
  },
  'osr.attacked': (w, e) => {
    const dmg = e['damage'] as { [k: string]: Json } | undefined;
    const what = e['hit'] === true ? `${e['crit'] === true ? 'a critical hit' : 'hit'} for ${String(dmg?.['total'] ?? 0)}` : 'missed';
    return log(w, e, `${nm(w, e['attacker'])} attacked ${nm(w, e['target'])} (${str(e, 'kind')}, AC ${String(e['ac'])}): ${rollText(e['roll'])}, ${what}.`);
  },
  'osr.damageRolled': (w, e) => log(w, e, `${nm(w, e['target'])} takes ${String(e['total'])} damage (${str(e, 'dice')}${e['doubled'] === true ? (e['doubledBy'] === 'natural 1' ? ', doubled by a natural 1' : ', doubled') : ''}) from ${str(e, 'source')}.`),
  'osr.healRolled': (w, e) => log(w, e, `${nm(w, e['target'])} is healed by ${str(e, 'source')}: ${str(e, 'dice')} = ${String(e['total'])}.`),
  'osr.hpChanged': (w, e) =>
    log(withStats(w, str(e, 'id'), { hp: Number(e['to']) }), e, `${nm(w, e['id'])}: HP ${String(e['from'])} → ${String(e['to'])} (${str(e, 'reason')}).`, undefined, isFoe(w, e['id']) ? foeHpText(w, e) : undefined),
  'osr.downed': on((w, e, st) => {
    const id = str(e, 'id');
    const next = setOsr(w, { ...st, dying: { ...st.dying, [id]: { downAt: Number(e['at']), fight: e['fight'] === true } }, stable: removeFrom(st.stable, id) });
    return log(next, e, `${nm(w, id)} is at 0 HP and incapacitated: dead unless stabilized within a minute or by the end of the fight.`);
  }),
  'osr.stabilized': on((w, e, st) => {
    const id = str(e, 'id');
    const dying = { ...st.dying };
    delete dying[id];
    return log(setOsr(w, { ...st, dying, stable: addTo(st.stable, id) }), e, `${nm(w, id)} is stabilized (${str(e, 'method')}${e['by'] === null ? '' : ` by ${nm(w, e['by'])}`}).`);
  }),
  'osr.injuryRolled': on((w, e, st) => {
    const id = str(e, 'id');
    const row = str(e, 'row');
    let next = w;
    if (row === 'disadvantageUntilRest') next = setOsr(w, { ...st, shaken: addTo(st.shaken, id) });
    if (row === 'bodyPart') next = setOsr(w, { ...st, bodyParts: { ...st.bodyParts, [id]: [...(st.bodyParts[id] ?? []), 'a body part (GM to name)'] } });
    const text: { [k: string]: string } = {
      dead: 'a false hope',
      abilityLoss: 'loses ability',
      bodyPart: 'loses a body part (the GM chooses which)',
      disadvantageUntilRest: 'has disadvantage on every check until rest',
      standing: 'is back on their feet',
    };
    return log(next, e, `Injury roll for ${nm(w, id)}: ${String(e['d20'])}${e['extra'] === null ? '' : ` (${String(e['extra'])})`}: ${text[row] ?? row}.`);
  }),
  'osr.bodyPartLost': on((w, e, st) => {
    const id = str(e, 'id');
    const parts = [...(st.bodyParts[id] ?? [])];
    const i = parts.indexOf('a body part (GM to name)');
    if (i >= 0) parts[i] = str(e, 'part');
    else parts.push(str(e, 'part'));
    return log(setOsr(w, { ...st, bodyParts: { ...st.bodyParts, [id]: parts } }), e, `${nm(w, id)} has lost: ${str(e, 'part')}.`);
  }),
  'osr.abilityChanged': (w, e) =>
    log(withStats(w, str(e, 'id'), { [str(e, 'ability')]: Number(e['to']) }), e, `${nm(w, e['id'])}: ${str(e, 'ability').toUpperCase()} ${String(e['from'])} → ${String(e['to'])} (${str(e, 'reason')}).`),
  'osr.died': on((w, e, st) => {
    const id = str(e, 'id');
    const dying = { ...st.dying };
    delete dying[id];
    const enc = getEncounter(w);
    const inFight = enc.active && enc.roster.some((x) => own(enc.combatants, x)?.characterId === id);
    const corruptions = Object.fromEntries(Object.entries(st.corruptions).filter(([, k]) => k.target !== id));
    const next = setOsr(w, { ...st, dying, corruptions, dead: addTo(st.dead, id), stable: removeFrom(st.stable, id), hidden: removeFrom(st.hidden, id), fightDeaths: st.fightDeaths + (inFight ? 1 : 0) });
    return log(next, e, `${nm(w, id)} is dead (${str(e, 'reason')}).`);
  }),
  'osr.leftUnconscious': on((w, e, st) => log(setOsr(w, { ...st, stable: addTo(st.stable, str(e, 'id')) }), e, `${nm(w, e['id'])} made it back unconscious, at 0 HP.`)),
  'osr.rested': on((w, e, st) => {
    let next = w;
    const heals = (e['heals'] ?? []) as { id: string; to: number }[];
    for (const h of heals) next = withStats(next, h.id, { hp: h.to });
    const who = (e['characters'] ?? []) as string[];
    const recovered = (e['recovered'] ?? []) as string[];
    const restedAt = { ...st.restedAt };
    if (e['fed'] === true) for (const id of who) restedAt[id] = next.clock.seconds;
    const s2: OsrState = {
      ...st,
      restedAt,
      shaken: st.shaken.filter((id) => !who.includes(id)),
      exhausted: st.exhausted.filter((id) => !recovered.includes(id)),
      stable: st.stable.filter((id) => !heals.some((h) => h.id === id && h.to > 0)),
    };
    const restText = (hs: readonly { id: string; to: number }[], also: string): string =>
      `${String(e['nights'])} night(s) of ${str(e, 'kind')} rest: ${hs.map((h) => `${nm(w, h.id)} ${h.to}`).join(', ') || 'nobody'} HP${also}${recovered.length > 0 ? `; no longer exhausted: ${recovered.map((id) => nm(w, id)).join(', ')}` : ''}.`;
    const text = restText(heals, '');
    // A foe's HP after the rest are the GM's (ADR 33): players read only that it rested.
    const foes = heals.filter((h) => isFoe(w, h.id));
    const shown = foes.length === 0 ? undefined : restText(heals.filter((h) => !isFoe(w, h.id)), `; also rested: ${foes.map((h) => nm(w, h.id)).join(', ')}`);
    return log(setOsr(next, s2), e, text, undefined, shown);
  }),
  'osr.hid': on((w, e, st) => log(setOsr(w, { ...st, hidden: addTo(st.hidden, str(e, 'id')) }), e, `${nm(w, e['id'])} is in stealth.`)),
  'osr.revealed': on((w, e, st) => log(setOsr(w, { ...st, hidden: removeFrom(st.hidden, str(e, 'id')) }), e, `${nm(w, e['id'])} is no longer hidden (${str(e, 'reason')}).`)),

  // exploration
  'osr.travelTurnRolled': on((w, e, st) =>
    log(setOsr(w, { ...st, turnsOut: Number(e['turnsOut']), lastThreat: e['band'] as OsrState['lastThreat'], cadence: e['cadence'] as OsrState['cadence'] }), e, `Travel turn ${String(e['turnsOut'])}: d20 ${(e['dice'] as number[]).join(' / ')} → ${String(e['natural'])}, ${str(e, 'band')}: ${(e['prompts'] as string[]).join('; ')}.`),
  ),
  'osr.returned': on((w, e, st) => log(setOsr(w, { ...st, turnsOut: 0 }), e, 'The party is back in safety; the travel-turn count starts again.')),
  'osr.lightSet': on((w, e, st) => log(setOsr(w, { ...st, ambient: e['level'] as OsrState['ambient'] }), e, `The light is now ${str(e, 'level')}.`)),
  'osr.sourceLit': on((w, e, st) => {
    const id = str(e, 'id');
    const src = { id, kind: e['kind'] as 'torch' | 'lantern', owner: typeof e['owner'] === 'string' ? e['owner'] : null, label: str(e, 'label'), burnsOutAt: Number(e['burnsOutAt']), remaining: 0 };
    return log(claimId(setOsr(w, { ...st, sources: { ...st.sources, [id]: src } }), id), e, `${src.owner === null ? 'A' : `${nm(w, src.owner)}'s`} ${src.label} is lit (out in ${Math.round((src.burnsOutAt - w.clock.seconds) / 60)} minutes).`);
  }),
  'osr.sourceDoused': on((w, e, st) => {
    const s = own(st.sources, str(e, 'id'));
    if (s === undefined) return w;
    return log(setOsr(w, { ...st, sources: { ...st.sources, [s.id]: { ...s, burnsOutAt: null, remaining: Number(e['remaining']) } } }), e, `The ${s.label} is put out.`);
  }),
  'osr.sourceBurnedOut': on((w, e, st) => {
    const s = own(st.sources, str(e, 'id'));
    if (s === undefined) return w;
    const sources = { ...st.sources };
    delete sources[s.id];
    return log(setOsr(w, { ...st, sources }), e, `${s.owner === null ? 'The' : `${nm(w, s.owner)}'s`} ${s.label} has burned out.`);
  }),
  'osr.timeRolled': (w, e) => log(w, e, `Time dice ${(e['faces'] as number[]).join(', ')}: ${String(e['hour']).padStart(2, '0')}:00, ${str(e, 'quarter')}.`),
  'osr.returnRolled': (w, e) => {
    const r = e['roll'] as { [k: string]: Json };
    const id = str(e, 'character');
    let next = w;
    let tail = 'made it back safely';
    if (r['success'] !== true) {
      if (typeof e['loadLost'] === 'number') {
        next = withStats(w, id, { load: Math.max(0, sheetOf(w, id).load - e['loadLost']) });
        tail = `dropped ${e['loadLost']} load on the way (the GM picks the items, least valuable first)`;
      } else {
        const dmg = e['damage'] as { total: number; doubled?: boolean } | undefined;
        tail = `took ${String(dmg?.total ?? 0)} damage on the way${dmg?.doubled === true ? ' (doubled by a natural 1)' : ''}`;
      }
    }
    return log(next, e, `${nm(w, id)} rolls to return: ${rollText(r)}, ${tail}.`);
  },
  'osr.traveled': (w, e) => log(w, e, `The party travels ${str(e, 'mode')} for ${String(e['days'])} day(s): ${String(e['milesPerDay'])} miles a day, ${String(e['miles'])} in all.`),

  // hazards
  'osr.moraleRolled': (w, e) => {
    const group = (e['group'] ?? []) as string[];
    const who = group.length > 1 ? `${nm(w, e['character'])}'s group (${group.length})` : nm(w, e['character']);
    return log(w, e, `Morale for ${who} (${str(e, 'trigger')}): ${rollText(e['roll'])}: ${e['held'] === true ? 'they stand and fight' : 'they surrender or flee'}.`);
  },
  'osr.moralePrompted': on((w, e, st) => log(setOsr(w, { ...st, prompts: [...st.prompts, { trigger: str(e, 'trigger'), text: str(e, 'text') }].slice(-20) }), e, `Morale? ${str(e, 'text')}`)),
  'osr.chased': (w, e) => log(w, e, `${nm(w, e['character'])} ${e['direction'] === 'flee' ? 'flees' : 'gives chase'} (${str(e, 'ability').toUpperCase()}, DC ${String(e['dc'])}): ${rollText(e['roll'])}: ${e['success'] === true ? (e['direction'] === 'flee' ? 'escaped' : 'caught it') : e['direction'] === 'flee' ? 'caught' : 'it got away'}.`),
  'osr.exhausted': on((w, e, st) => log(setOsr(w, { ...st, exhausted: addTo(st.exhausted, str(e, 'id')) }), e, `${nm(w, e['id'])} is exhausted (${str(e, 'reason')}): disadvantage on all checks, 0' speed until a safe rest with food.`)),
  'osr.infected': on((w, e, st) => {
    const k = e['corruption'] as unknown as Corruption;
    return log(claimId(setOsr(w, { ...st, corruptions: { ...st.corruptions, [k.id]: k } }), k.id), e, `${nm(w, k.target)} is infected by ${k.name}.`);
  }),
  'osr.stageEnded': on((w, e, st) => {
    const k = own(st.corruptions, str(e, 'id'));
    if (k === undefined) return w;
    const next = typeof e['nextStage'] === 'number' ? { ...k, stage: e['nextStage'], stageEndsAt: Number(e['nextEndsAt']) } : k;
    const dmg = e['damage'] as { ability: string; total: number; doubled?: boolean } | null;
    const why = Array.isArray(e['reasons']) && e['reasons'].length > 0 ? ` (${e['reasons'].join(', ')})` : '';
    const hurt = dmg === null ? '' : `, ${dmg.total} ${dmg.ability.toUpperCase()} damage${dmg.doubled === true ? ' (doubled by a natural 1)' : ''}`;
    return log(setOsr(w, { ...st, corruptions: { ...st.corruptions, [k.id]: next } }), e, `${k.name}, stage ${k.stage + 1} ends for ${nm(w, k.target)}: ${rollText(e['roll'])}${why}${hurt}.`);
  }),
  'osr.corruptionEnded': on((w, e, st) => {
    const corruptions = { ...st.corruptions };
    const k = corruptions[str(e, 'id')];
    delete corruptions[str(e, 'id')];
    return log(setOsr(w, { ...st, corruptions }), e, `${k?.name ?? 'The corruption'} no longer afflicts ${nm(w, e['target'])} (${str(e, 'reason')}).`);
  }),
  'osr.retreatStarted': on((w, e, st) => {
    const c = str(e, 'combatant');
    return log(setOsr(w, { ...st, retreating: { ...st.retreating, [c]: { combatant: c, character: typeof e['character'] === 'string' ? e['character'] : null } } }), e, `${nm(w, e['character'])} tries to retreat.`);
  }),
  'osr.retreatFailed': on((w, e, st) => {
    const retreating = { ...st.retreating };
    delete retreating[str(e, 'combatant')];
    return log(setOsr(w, { ...st, retreating }), e, `The retreat fails (${str(e, 'reason')}): they stop moving.`);
  }),
  'osr.escaped': on((w, e, st) => {
    const retreating = { ...st.retreating };
    delete retreating[str(e, 'combatant')];
    return log(setOsr(w, { ...st, retreating }), e, `${nm(w, e['character'])} escapes the battle.`);
  }),
  'osr.treasureShared': on((w, e, st) => {
    const xp = { ...st.xp };
    for (const id of e['characters'] as string[]) xp[id] = (xp[id] ?? 0) + Number(e['xpEach']);
    return log(setOsr(w, { ...st, xp }), e, `${String(e['gp'])} gp shared, ${String(e['each'])} each${e['earned'] === true ? ` (+${String(e['xpEach'])} XP each)` : ' (unearned: no XP)'}.`);
  }),
  'osr.magicItemCaptured': on((w, e, st) => {
    const xp = { ...st.xp };
    for (const id of e['characters'] as string[]) xp[id] = (xp[id] ?? 0) + Number(e['xpEach']);
    return log(setOsr(w, { ...st, xp, magicCounted: addTo(st.magicCounted, str(e, 'item')) }), e, `${str(e, 'item')} captured (fair value ${String(e['value'])} gp)${e['alreadyCounted'] === true ? ': already counted for XP' : `: +${String(e['xpEach'])} XP each`}.`);
  }),
  'osr.moved': on((w, e, st) => {
    const c = str(e, 'combatant');
    // The mover's own turn, counted here rather than carried in the event (players must not count hidden turns).
    const enc = getEncounter(w);
    const moved = { ...st.moved, [c]: { serial: own(enc.lastTurn, c) ?? enc.turnSerial, used: Number(e['used']), budget: Number(e['budget']) } };
    return log(setOsr(w, { ...st, moved }), e, `${typeof e['character'] === 'string' ? nm(w, e['character']) : c} moves ${String(e['feet'])}'${e['mode'] === 'walk' ? '' : ` (${str(e, 'mode')}, half speed)`}: ${String(e['used'])}' of ${String(e['budget'])}' used this turn.`);
  }),
  'osr.strained': on((w, e, st) => {
    const id = str(e, 'id');
    const restedAt = { ...st.restedAt, [id]: (st.restedAt[id] ?? 0) - Number(e['hours']) * 3600 };
    // The text asks the GM to tell the player: logged to everyone who may see the character.
    return log(setOsr(w, { ...st, restedAt }), e, `${nm(w, id)} loses ${String(e['hours'])} hour(s) of resilience (${str(e, 'reason')}).`);
  }),
  'osr.sceneCounted': on((w, e, st) => setOsr(w, { ...st, scenes: Number(e['scenes']) })),
  'osr.treated': on((w, e, st) => log(setOsr(w, { ...st, shaken: removeFrom(st.shaken, str(e, 'id')) }), e, `${nm(w, e['id'])}'s wounds are tended: no more disadvantage from the injury.`)),
  'osr.lootRolled': (w, e) => log(w, e, `Carried loot (${String(e['hd'])} HD): ${String(e['gp'])} gp.`),

  // The fight the dying went down in is over: the minute alone decides now.
  'encounter.ended': on((w, _e, st) => {
    const dying: { [id: string]: { downAt: number; fight: boolean } } = {};
    for (const [id, d] of Object.entries(st.dying)) dying[id] = { ...d, fight: false };
    return setOsr(w, { ...st, dying, fightDeaths: 0, retreating: {}, hidden: [], moved: {}, tidePrompted: [] });
  }),
  'encounter.started': on((w, _e, st) => setOsr(w, { ...st, fightDeaths: 0, tidePrompted: [] })),
  'osr.tidePrompted': on((w, e, st) => setOsr(w, { ...st, tidePrompted: addTo(st.tidePrompted, str(e, 'side')) })),
};

// ---------------------------------------------------------------- reactions

/** Corruption stages whose end the clock has passed: roll the check (and the damage) for each, in order. */
function corruptionEvents(world: World, env: Env): EngineEvent[] {
  const st = getOsr(world);
  const set = osrSettings(world);
  const now = world.clock.seconds;
  const out: EngineEvent[] = [];
  for (const k0 of Object.values(st.corruptions)) {
    if (k0.stageEndsAt > now || st.dead.includes(k0.target)) continue;
    let k: Corruption = k0;
    const ab: { [a: string]: number } = { ...sheetOf(world, k.target) } as unknown as { [a: string]: number };
    let exhausted = st.exhausted.includes(k.target);
    for (let guard = 0; guard < 500 && k.stageEndsAt <= now; guard++) {
      const stage = k.stages[k.stage]!;
      const con = ab['con'] ?? 10;
      // Resisting a stage is a check like any other: every automatic source (load over STR, exhaustion, injury) applies,
      // read from the abilities as earlier stages left them (001 "Movement Actions": disadvantage on all checks).
      const asNow = withStats(world, k.target, ab);
      const adv = checkAdvantage(exhausted && !st.exhausted.includes(k.target) ? updateOsr(asNow, (o) => ({ ...o, exhausted: addTo(o.exhausted, k.target) })) : asNow, k.target, {});
      const dice = rollCheckDice(env.rng, adv.advantage);
      const r = resolveCheck(dice, adv.advantage, abilityModifier(con), k.dc);
      if (r.success && set.corruptionCureOnSuccess) {
        out.push({ type: 'osr.stageEnded', id: k.id, roll: r as unknown as Json, reasons: adv.reasons, damage: null, nextStage: null, nextEndsAt: null });
        out.push({ type: 'osr.corruptionEnded', id: k.id, target: k.target, reason: 'fought it off' });
        break;
      }
      let damage: { ability: Ability; faces: number[]; doubled: boolean; total: number } | null = null;
      if (!r.success && stage.ability !== null && stage.dice > 0) {
        const faces = Array.from({ length: stage.dice }, () => env.rng.die(6));
        // Ability damage is damage the PC suffers: a natural 1 doubles it (001 "Critical Failure").
        const doubled = naturalOneDoubles(world, k.target, r.natural);
        damage = { ability: stage.ability, faces, doubled, total: damageTotal(faces, 0, doubled, set.critDoubles) };
      }
      const last = k.stage + 1 >= k.stages.length;
      const nextIndex = last ? (set.corruptionRepeatsLastStage ? k.stage : null) : k.stage + 1;
      const nextEndsAt = nextIndex === null ? null : k.stageEndsAt + k.stages[nextIndex]!.hours * 3600;
      out.push({ type: 'osr.stageEnded', id: k.id, roll: r as unknown as Json, reasons: adv.reasons, damage: damage as unknown as Json, nextStage: nextIndex, nextEndsAt });
      if (damage !== null) {
        const from = ab[damage.ability] ?? 10;
        const to = Math.max(0, from - damage.total);
        ab[damage.ability] = to;
        out.push({ type: 'osr.abilityChanged', id: k.target, ability: damage.ability, from, to, reason: k.name });
        if (to === 0 && set.deathAtZeroAbility) {
          out.push({ type: 'osr.died', id: k.target, reason: `${k.name}: ${damage.ability.toUpperCase()} fell to 0` });
          break;
        }
      }
      if (nextIndex === null) {
        out.push({ type: 'osr.corruptionEnded', id: k.id, target: k.target, reason: 'ran its course' });
        break;
      }
      if (k.stages[nextIndex]!.exhaustion && !exhausted) {
        out.push({ type: 'osr.exhausted', id: k.target, reason: k.name });
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
  for (const s of Object.values(st.sources)) if (s.burnsOutAt !== null && s.burnsOutAt <= now) out.push({ type: 'osr.sourceBurnedOut', id: s.id, at: s.burnsOutAt });
  const fightOn = getEncounter(world).active;
  const window = osrSettings(world).deathWindowSeconds;
  for (const [id, d] of Object.entries(st.dying)) if (deathDue(d.downAt, now, d.fight && fightOn, window)) out.push({ type: 'osr.died', id, reason: 'not stabilized in time' });
  out.push(...corruptionEvents(world, env));
  return out;
}

/** 001 "When To Check Morale": prompts for the GM when a battle begins, at the first death, when a leader falls. */
function moralePrompts(world: World, e: EngineEvent): EngineEvent[] {
  if (e.type === 'encounter.started') return [{ type: 'osr.moralePrompted', trigger: 'battle-begins', text: 'the battle begins: call for morale checks?' }];
  if (e.type === 'osr.downed' || e.type === 'osr.hpChanged') return tidePrompts(world);
  if (e.type !== 'osr.died') return [];
  const enc = getEncounter(world);
  const id = str(e, 'id');
  if (!enc.active || !enc.roster.some((x) => own(enc.combatants, x)?.characterId === id)) return [];
  const out: EngineEvent[] = [];
  if (getOsr(world).fightDeaths === 1) out.push({ type: 'osr.moralePrompted', trigger: 'first-death', text: `${nm(world, id)} is the first to die in this fight: morale?` });
  if (own(world.characters, id)?.stats['leader'] === true) out.push({ type: 'osr.moralePrompted', trigger: 'leader-killed', text: `${nm(world, id)}, a leader, is dead: morale for their side?` });
  return out;
}

/** The tide is obvious once a share of a side (setting tidePromptAt) is down or dead: one prompt per side per fight. */
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
      out.push({ type: 'osr.tidePrompted', side }, { type: 'osr.moralePrompted', trigger: 'tide', text: `${s.down} of ${s.n} of side "${side}" are down: the tide looks obvious. Morale?` });
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
  reactions: [(w, e, env) => [...onTime(w, e, env), ...moralePrompts(w, e)]],
  project,
  // Visibility is judged on the characters and the encounter (turn numbers on the unprojected one).
  projectReads: { reads: [`ext.${OSR_ID}`, 'characters', 'ext.encounter'], writes: [`ext.${OSR_ID}`] },
  idStatus,
  queries: osrQueries,
  // History as players read it: a foe's HP change keeps the amount's sign and its fall, not its HP (ADR 33).
  eventView: {
    'osr.hpChanged': (w, e) => {
      if (!isFoe(w, e['id'])) return e;
      const { from, to, ...rest } = e;
      const delta = typeof from === 'number' && typeof to === 'number' ? to - from : 0;
      return typeof to === 'number' && to <= 0 ? { ...rest, delta, to: 0 } : { ...rest, delta };
    },
    'osr.rested': (w, e) => (Array.isArray(e['heals']) ? { ...e, heals: e['heals'].filter((h) => h !== null && typeof h === 'object' && !Array.isArray(h) && !isFoe(w, h['id'])) } : e),
  },
  audience: Object.fromEntries(
    Object.keys(reducers)
      .filter((t) => t.startsWith('osr.'))
      .map((t) => [t, audienceOf]),
  ),
};

export { updateOsr };
