// The table's trackers (issue 21): HP, Stress and Armor slots on each sheet,
// damage against the Major / Severe thresholds with an Armor Slot's one-step
// reduction, adversary groups from a stat block (with their moves'
// countdowns), and rests with their downtime moves. Every number here is a
// published fact 000 does not print, so each is a documented setting.
import {
  audiencesOf,
  foeNumbersView,
  showsFoeNumbers,
  isFoeCharacter,
  AUDIENCE_ALL,
  appendLog,
  appendOrComplete,
  openSentence,
  clockAdvanced,
  err,
  getEncounter,
  handlerOf,
  mintId,
  newCountdownEvent,
  ok,
  own,
  reducersOf,
  type Character,
  type CommandHandler,
  type EngineEvent,
  type EventAudience,
  type Evolve,
  type Json,
  type Reducer,
  type Result,
  type World,
} from '@tablekeeper/engine';
import * as D from './declarations.js';
import { groupNames, groupNumberAfter } from './names.js';
import { MAX_DAMAGE, MAX_GROUP, MAX_MOVES, DOWNTIME_MOVES, type DowntimeMove } from './limits.js';
import { SEVERITY_WORDS, trackOf, TRACK_KEYS, TRACK_WORDS, type Severity, type TrackName } from './rules.js';
import { daggerheartSettings } from './settings.js';
import { characterAudience, controls, FORBIDDEN, getDaggerheart, hopeOf, nameOf, withStats } from './state.js';
import { hitEvents } from './hit-choice.js';

export { MAX_DAMAGE, MAX_GROUP, MAX_MOVES, DOWNTIME_MOVES, type DowntimeMove };
export { groupNumberAfter };

const slotsFor = (world: World, track: TrackName): number => {
  const s = daggerheartSettings(world);
  return track === 'hp' ? s.hpSlots : track === 'stress' ? s.stressSlots : s.armorSlots;
};

/** The events this file's commands write (STYLE 2). */
export type TrackerEvent =
  /** marked goes from -> to, within the slots; a short rest's clearing carries its 1d4 and the tier added. */
  | { readonly type: 'daggerheart.trackMarked'; readonly characterId: string; readonly track: TrackName; readonly from: number; readonly to: number; readonly reason: string; readonly dice?: readonly number[]; readonly tier?: number }
  | {
      readonly type: 'daggerheart.damageTaken';
      readonly characterId: string;
      readonly amount: number;
      readonly major: number;
      readonly severe: number;
      /** Before an Armor Slot; `marks` after it. */
      readonly severity: Severity;
      readonly marks: Severity;
      readonly armorUsed: boolean;
      readonly armorFrom: number;
      readonly armorTo: number;
      readonly hpFrom: number;
      readonly hpTo: number;
    }
  | { readonly type: 'daggerheart.restStarted'; readonly rest: 'short' | 'long' }
  | { readonly type: 'daggerheart.downtimeMove'; readonly characterId: string; readonly targetId: string; readonly move: DowntimeMove; readonly rest: 'short' | 'long' };

/** A track change as an event (marked goes from -> to, within the slots). */
const marked = (characterId: string, track: TrackName, from: number, to: number, reason: string, extra: { [k: string]: Json } = {}): EngineEvent => ({
  type: 'daggerheart.trackMarked',
  characterId,
  track,
  from,
  to,
  reason,
  ...extra,
});

/** Marks (amount > 0) or clears (amount < 0) slots; Stress past the last slot marks HP instead when the setting says so. */
function markEvents(world: World, characterId: string, track: TrackName, amount: number, reason: string): Result<EngineEvent[]> {
  const ch = world.characters[characterId]!;
  const t = trackOf(ch.stats, track, slotsFor(world, track));
  const to = Math.max(0, Math.min(t.slots, t.marked + amount));
  const events: EngineEvent[] = [];
  if (to !== t.marked) events.push(marked(characterId, track, t.marked, to, reason));
  const overflow = amount > 0 ? t.marked + amount - t.slots : 0;
  if (track === 'stress' && overflow > 0 && daggerheartSettings(world).stressOverflowMarksHp) {
    const hp = trackOf(ch.stats, 'hp', slotsFor(world, 'hp'));
    const hpTo = Math.min(hp.slots, hp.marked + overflow);
    if (hpTo !== hp.marked) events.push(marked(characterId, 'hp', hp.marked, hpTo, 'Stress past the last slot'));
  }
  if (events.length === 0) return err('DH_TRACK_UNCHANGED', `${ch.name}'s ${TRACK_WORDS[track]} is already ${amount > 0 ? 'full' : 'clear'} (${t.marked}/${t.slots})`, 'amount');
  return ok(events);
}

// ---------------------------------------------------------------- rests

const MOVE_TRACK: { readonly [m in DowntimeMove]?: TrackName } = { tendWounds: 'hp', clearStress: 'stress', repairArmor: 'armor' };
export const MOVE_WORDS: Record<DowntimeMove, string> = {
  tendWounds: 'Tend to Wounds',
  clearStress: 'Clear Stress',
  repairArmor: 'Repair Armor',
  prepare: 'Prepare',
  workOnProject: 'Work on a Project',
};

function tierOf(world: World, id: string): number {
  const v = world.characters[id]?.stats['tier'];
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 4 ? v : daggerheartSettings(world).tier;
}

// ---------------------------------------------------------------- commands

/** A character by id, or NOT_FOUND naming the field (at `path` inside a list); the schema has checked it is an id. */
function characterOf(world: World, id: string, field: string, path = field): Result<Character> {
  const ch = own(world.characters, id);
  return ch === undefined ? err('NOT_FOUND', `${field}: no character ${JSON.stringify(id).slice(0, 40)}`, path) : ok(ch);
}

export const trackerCommands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.markTrack': handlerOf(D.markTrack, {
    label: 'mark a tracker',
    // Players mark their own Stress and Armor; HP, clearing (review 13 #1: healing goes through a request) and anyone else's are the GM's.
    authorize(world, { track, characterId, amount = 1 }, actor) {
      if (actor.role === 'gm') return null;
      if (!((track === 'stress' || track === 'armor') && controls(world, actor, characterId))) return FORBIDDEN;
      return amount < 0 ? { code: 'FORBIDDEN', message: `clearing ${track === 'stress' ? 'Stress' : 'Armor'} is the GM's: ask the GM (a rest or a move clears it)`, path: 'amount' } : null;
    },
    decide(world, { characterId, track, amount = 1, reason = '' }) {
      const ch = characterOf(world, characterId, 'characterId');
      if (!ch.ok) return ch;
      if (amount === 0) return err('INVALID_VALUE', 'amount must not be 0 (positive marks, negative clears)', 'amount');
      return markEvents(world, ch.value.id, track, amount, reason.trim());
    },
  }),
  'daggerheart.takeDamage': handlerOf(D.takeDamage, {
    label: 'take damage',
    // The GM, or the player of that PC (they choose whether to mark an Armor Slot).
    authorize: (world, { characterId }, actor) => (controls(world, actor, characterId) ? null : FORBIDDEN),
    decide(world, { characterId, amount, useArmor }, env) {
      const ch = characterOf(world, characterId, 'characterId');
      if (!ch.ok) return ch;
      // Undecided (no useArmor), a hit an Armor Slot would lessen waits for the PC's choice (ADR 50).
      return hitEvents(world, ch.value, amount, useArmor, env);
    },
  }),
  'daggerheart.addAdversaries': handlerOf(D.addAdversaries, {
    label: 'add adversaries',
    decide(world, p, env) {
      const name = p.name.trim();
      if (name === '') return err('INVALID_VALUE', 'an adversary needs a name', 'name');
      const count = p.count ?? 1;
      if (p.severe < p.major) return err('INVALID_VALUE', 'the Severe threshold must be at least the Major one', 'severe');
      const damage = (p.damage ?? '').trim();
      const visibility = p.visibility ?? 'existence';
      const events: EngineEvent[] = [];
      let w = world;
      // One countdown per move of the group: the stat block's move is the group's, whichever of them makes it.
      const moveStats: Json[] = [];
      for (const [i, m] of (p.moves ?? []).entries()) {
        const moveName = m.name.trim();
        if (moveName === '') return err('INVALID_VALUE', 'a move needs a name', `moves.${i}.name`);
        const text = (m.text ?? '').trim();
        let countdownId: string | null = null;
        const cd = m.countdown ?? null;
        if (cd !== null) {
          const made = newCountdownEvent(w, { type: 'countdown.create', name: `${name}: ${moveName}`.slice(0, 80), start: cd.start, repeat: cd.repeat ?? 'once', kind: cd.kind ?? 'standard', visibility: 'hidden', effect: text }, env.rng);
          if (!made.ok) return err(made.error.code, made.error.message, `moves.${i}.countdown`);
          events.push(made.value.event);
          w = made.value.world;
          countdownId = String(made.value.event['id']);
        }
        moveStats.push({ name: moveName, text, countdownId });
      }
      const enc = getEncounter(world);
      const joined: EngineEvent[] = [];
      // A second group of the same stat block goes on counting (Bandit 4, 5 after Bandit 1-3), so no two share a name.
      const labels = groupNames(name, count, Object.values(world.characters).map((c) => c.name));
      for (let i = 0; i < count; i++) {
        const [id, next] = mintId(w, 'ch', env.rng);
        w = next;
        const label = labels[i]!;
        const stats = { adversary: true, difficulty: p.difficulty, major: p.major, severe: p.severe, hpMax: p.hp, hpMarked: 0, stressMax: p.stress ?? 0, stressMarked: 0, attack: p.attack ?? 0, damage, moves: moveStats };
        events.push({ type: 'character.added', id, name: label, kind: 'npc', seatId: null, visibility, stats });
        // In a running conflict they join at once, ready for the GM to give them the spotlight.
        if (enc.active) {
          const vis = visibility === 'reveal-on-trigger' ? 'existence' : visibility;
          const combatant = { id, name: label, kind: 'npc', side: 'adversaries', characterId: id, stats: {}, visibility: vis, incapacitated: false, unsurprisable: false, placement: {}, joined: enc.nextJoin + i, readied: null };
          joined.push({ type: 'encounter.combatantAdded', combatant });
        }
      }
      return ok([...events, ...joined]);
    },
  }),
  'daggerheart.rest': handlerOf(D.rest, {
    label: 'rest',
    decide(world, { rest, moves = [] }, env) {
      const set = daggerheartSettings(world);
      const events: EngineEvent[] = [{ type: 'daggerheart.restStarted', rest }];
      const taken = new Map<string, number>();
      let w = world;
      for (const [i, m] of moves.entries()) {
        const path = `moves.${i}`;
        const who = characterOf(w, m.characterId, 'characterId', `${path}.characterId`);
        if (!who.ok) return who;
        if (who.value.kind !== 'pc') return err('DH_NOT_A_PC', `${who.value.name} is not a PC: downtime moves are the PCs'`, `${path}.characterId`);
        if (m.move === 'workOnProject' && rest === 'short') return err('DH_LONG_REST_ONLY', 'Work on a Project is a long-rest move', `${path}.move`);
        const n = (taken.get(who.value.id) ?? 0) + 1;
        if (n > set.downtimeMoves) return err('DH_TOO_MANY_MOVES', `${who.value.name} may take ${set.downtimeMoves} downtime moves in a rest`, path);
        taken.set(who.value.id, n);
        const target = m.targetId === undefined ? who : characterOf(w, m.targetId, 'targetId', `${path}.targetId`);
        if (!target.ok) return target;
        const track = MOVE_TRACK[m.move];
        events.push({ type: 'daggerheart.downtimeMove', characterId: who.value.id, targetId: target.value.id, move: m.move, rest });
        if (track !== undefined) {
          const t = trackOf(w.characters[target.value.id]!.stats, track, slotsFor(w, track));
          // A short rest clears 1d4 + tier slots; a long rest clears them all.
          const die = rest === 'short' ? env.rng.die(4) : null;
          const clear = die === null ? t.marked : die + tierOf(w, who.value.id);
          const to = Math.max(0, t.marked - clear);
          events.push(marked(target.value.id, track, t.marked, to, `${rest} rest: ${MOVE_WORDS[m.move]}`, die === null ? {} : { dice: [die], tier: tierOf(w, who.value.id) }));
          w = withStats(w, target.value.id, { [TRACK_KEYS[track].marked]: to });
        } else if (m.move === 'prepare') {
          const from = hopeOf(w, who.value.id);
          const to = Math.min(set.hopeMax, from + 1);
          events.push({ type: 'daggerheart.hopeGained', characterId: who.value.id, amount: to - from, from, to, capped: to === from, reason: 'Prepare' });
          w = withStats(w, who.value.id, { hope: to });
        }
      }
      if (set.restGivesFear) {
        const die = env.rng.die(4);
        const pcs = Object.values(world.characters).filter((x) => x.kind === 'pc').length;
        const gain = die + (rest === 'long' ? pcs : 0);
        const from = getDaggerheart(world).fear;
        const to = Math.min(set.fearMax, from + gain);
        // `pcs` (how many PCs a long rest adds) marks the events whose line shows the dice; older ones replay as they read.
        events.push({ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to < from + gain, reason: `${rest} rest`, dice: [die], pcs: rest === 'long' ? pcs : 0 });
      }
      // The rest on the one clock: long-term countdowns tick and until-rest conditions end, as reactions in this transaction.
      events.push(clockAdvanced(world, rest === 'long' ? 'longRest' : 'shortRest', 1, rest === 'long' ? set.longRestHours * 3600 : set.shortRestMinutes * 60));
      return ok(events);
    },
  }),
};

// ---------------------------------------------------------------- reducers

const evolve: Evolve<TrackerEvent> = {
  'daggerheart.trackMarked': (w, e) => {
    const id = e.characterId;
    const next = withStats(w, id, { [TRACK_KEYS[e.track].marked]: e.to });
    const verb = e.to > e.from ? 'marks' : 'clears';
    const n = Math.abs(e.to - e.from);
    const dice = e.dice === undefined ? '' : ` (1d4 [${e.dice.join(', ')}] + tier ${String(e.tier)})`;
    const why = e.reason === '' ? '' : ` (${e.reason})`;
    const said = `${nameOf(w, id)} ${verb} ${n} ${TRACK_WORDS[e.track]}${why}${dice}`;
    // How much of a foe's track is marked is the GM's (ADR 33).
    const shown = isFoe(w, id) && !showsFoeNumbers(w) ? `${said}.` : undefined;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.track', text: `${said}: ${e.to} marked.`, ...(shown === undefined ? {} : { shown }), data: { characterId: id, track: e.track } });
  },
  'daggerheart.damageTaken': (w, e) => {
    const id = e.characterId;
    const next = withStats(w, id, { [TRACK_KEYS.hp.marked]: e.hpTo, [TRACK_KEYS.armor.marked]: e.armorTo });
    const armor = e.armorUsed ? `, an Armor Slot makes it ${SEVERITY_WORDS[e.marks]}` : '';
    // A foe's thresholds and HP are the GM's (ADR 33). Under "no numbers" players read the hit, the damage dealt and
    // the fall, but no severity: minor/major/severe, or how many HP it marks, would place the amount against its thresholds (ADR 57).
    const ch = own(w.characters, id);
    const down = ch !== undefined && e.hpTo >= trackOf(ch.stats, 'hp', slotsFor(w, 'hp')).slots;
    // The hit that marks an adversary's last HP says it is defeated, on every screen (review 12 #14: "marks 1 HP" only).
    const fell = down && e.hpTo > e.hpFrom && isFoe(w, id) ? ` ${nameOf(w, id)} is defeated.` : '';
    const text = `${nameOf(w, id)} takes ${e.amount} damage (${SEVERITY_WORDS[e.severity]}: thresholds ${e.major}/${e.severe}${armor}) and marks ${e.hpTo - e.hpFrom} HP.${fell}`;
    const marked = e.hpTo > e.hpFrom ? 'marks HP' : 'marks no HP';
    const shown = isFoe(w, id) && !showsFoeNumbers(w) ? `${nameOf(w, id)} takes ${e.amount} damage and ${marked}.${fell !== '' ? fell : down ? ` ${nameOf(w, id)} is down.` : ''}` : undefined;
    const entry = { audience: characterAudience(w, id), kind: 'daggerheart.damage', text, ...(shown === undefined ? {} : { shown }), data: { characterId: id } };
    // An adversary's attack line that dealt this damage (data.damageTo) is completed with what it did: one hit, one line.
    return appendOrComplete(next, entry, (prev) => {
      const d = prev.data;
      if (d === null || typeof d !== 'object' || Array.isArray(d) || d['damageTo'] !== id) return null;
      const result = `${SEVERITY_WORDS[e.severity]} (thresholds ${e.major}/${e.severe}${armor}), marks ${e.hpTo - e.hpFrom} HP`;
      const done = `${openSentence(prev.text)}: ${result}.`;
      if (shown !== undefined) return { text: done, shown: `${openSentence(prev.shown ?? prev.text)}, ${marked}.${down ? ` ${nameOf(w, id)} is down.` : ''}` };
      return prev.shown === undefined ? { text: done } : { text: done, shown: `${openSentence(prev.shown)}: ${result}.` };
    });
  },
  'daggerheart.restStarted': (w, e) => appendLog(w, { audience: AUDIENCE_ALL, kind: 'daggerheart.rest', text: `The party takes a ${e.rest} rest.` }),
  'daggerheart.downtimeMove': (w, e) => {
    const id = e.characterId;
    const on = e.targetId === id ? '' : ` for ${nameOf(w, e.targetId)}`;
    return appendLog(w, { audience: characterAudience(w, id), kind: 'daggerheart.downtime', text: `${nameOf(w, id)}: ${own(MOVE_WORDS, e.move) ?? e.move}${on}.` });
  },
};

export const trackerReducers: Record<string, Reducer> = reducersOf(evolve);

/** Anyone but a PC (an adversary, an NPC, one since removed): its thresholds and marked HP are the GM's (ADR 33). */
function isFoe(w: World, id: unknown): boolean {
  return typeof id !== 'string' || isFoeCharacter(w, id);
}

/** History as players read it: a foe's damage without its thresholds and marked counts (ADR 33), by the shared filter. */
export const TRACKER_EVENT_VIEW: { readonly [type: string]: (w: World, e: EngineEvent) => EngineEvent } = {
  'daggerheart.damageTaken': foeNumbersView({ id: 'characterId', numbers: ['major', 'severe', 'hpFrom', 'hpTo', 'armorFrom', 'armorTo', 'severity', 'marks', 'armorUsed'] }),
  'daggerheart.trackMarked': foeNumbersView({ id: 'characterId', numbers: ['from', 'to'], delta: ['from', 'to'] }),
};

export const TRACKER_AUDIENCE: { readonly [type: string]: EventAudience } = audiencesOf<TrackerEvent>({
  'daggerheart.trackMarked': (w, e) => characterAudience(w, e.characterId),
  'daggerheart.damageTaken': (w, e) => characterAudience(w, e.characterId),
  'daggerheart.downtimeMove': (w, e) => characterAudience(w, e.characterId),
});
