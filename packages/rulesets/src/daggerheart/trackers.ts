// The table's trackers (issue 21): HP, Stress and Armor slots on each sheet,
// damage against the Major / Severe thresholds with an Armor Slot's one-step
// reduction, adversary groups from a stat block (with their moves'
// countdowns), and rests with their downtime moves. Every number here is a
// published fact 000 does not print, so each is a documented setting.
import {
  AUDIENCE_ALL,
  appendLog,
  clockAdvanced,
  err,
  getEncounter,
  mintId,
  newCountdownEvent,
  ok,
  readEnum,
  readInt,
  type Command,
  type CommandHandler,
  type EngineEvent,
  type EventAudience,
  type Json,
  type Reducer,
  type Result,
  type Visibility,
  type World,
} from '@tablekeeper/engine';
import { armored, SEVERITY_WORDS, severityOf, thresholdsOf, trackOf, TRACK_KEYS, TRACK_WORDS, TRACKS, type Severity, type TrackName } from './rules.js';
import { daggerheartSettings } from './settings.js';
import { characterAudience, controls, FORBIDDEN, getDaggerheart, hopeOf, nameOf, num, readCharacter, readLabel, str, withStats } from './state.js';

export const MAX_DAMAGE = 500;
export const MAX_GROUP = 20;
export const MAX_MOVES = 8;
const MAX_TEXT = 300;

const slotsFor = (world: World, track: TrackName): number => {
  const s = daggerheartSettings(world);
  return track === 'hp' ? s.hpSlots : track === 'stress' ? s.stressSlots : s.armorSlots;
};

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

// ---------------------------------------------------------------- adversaries

interface Move {
  readonly name: string;
  readonly text: string;
  readonly countdown: { readonly start: number; readonly repeat: 'once' | 'loop'; readonly kind: 'standard' | 'progress' | 'consequence' } | null;
}

function readMoves(c: Command): Result<Move[]> {
  const raw = c['moves'] ?? [];
  if (!Array.isArray(raw)) return err('INVALID_VALUE', 'moves must be a list of {name, text?, countdown?}', 'moves');
  if (raw.length > MAX_MOVES) return err('LIMIT_EXCEEDED', `a stat block lists at most ${MAX_MOVES} moves`, 'moves');
  const moves: Move[] = [];
  for (let i = 0; i < raw.length; i++) {
    const m = raw[i];
    const path = `moves.${i}`;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return err('INVALID_VALUE', 'a move is {name, text?, countdown?}', path);
    const name = readLabel(m as Command, 'name');
    if (!name.ok) return err(name.error.code, name.error.message, `${path}.name`);
    if (name.value === '') return err('INVALID_VALUE', 'a move needs a name', `${path}.name`);
    const text = readLabel(m as Command, 'text', MAX_TEXT);
    if (!text.ok) return err(text.error.code, text.error.message, `${path}.text`);
    const cd = m['countdown'];
    let countdown: Move['countdown'] = null;
    if (cd !== undefined && cd !== null) {
      if (typeof cd !== 'object' || Array.isArray(cd)) return err('INVALID_VALUE', 'a countdown is {start, repeat?: "once" | "loop", kind?}', `${path}.countdown`);
      const start = readInt(cd as Command, 'start', { min: 1, max: 100 });
      if (!start.ok) return err(start.error.code, start.error.message, `${path}.countdown.start`);
      const repeat = readEnum<'once' | 'loop'>(cd as Command, 'repeat', ['once', 'loop'], 'once');
      if (!repeat.ok) return err(repeat.error.code, repeat.error.message, `${path}.countdown.repeat`);
      const kind = readEnum<'standard' | 'progress' | 'consequence'>(cd as Command, 'kind', ['standard', 'progress', 'consequence'], 'standard');
      if (!kind.ok) return err(kind.error.code, kind.error.message, `${path}.countdown.kind`);
      countdown = { start: start.value, repeat: repeat.value, kind: kind.value };
    }
    moves.push({ name: name.value, text: text.value, countdown });
  }
  return ok(moves);
}

// ---------------------------------------------------------------- rests

export type DowntimeMove = 'tendWounds' | 'clearStress' | 'repairArmor' | 'prepare' | 'workOnProject';
export const DOWNTIME_MOVES: readonly DowntimeMove[] = ['tendWounds', 'clearStress', 'repairArmor', 'prepare', 'workOnProject'];
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

export const trackerCommands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.markTrack': {
    label: 'mark a tracker',
    // Players mark their own Stress and Armor; HP and anyone else's are the GM's.
    authorize(world, c, actor) {
      if (actor.role === 'gm') return null;
      return (c['track'] === 'stress' || c['track'] === 'armor') && controls(world, actor, c['characterId']) ? null : FORBIDDEN;
    },
    decide(world, c) {
      const ch = readCharacter(world, c, 'characterId');
      if (!ch.ok) return ch;
      const track = readEnum<TrackName>(c, 'track', TRACKS);
      if (!track.ok) return track;
      const amount = readInt(c, 'amount', { min: -30, max: 30, fallback: 1 });
      if (!amount.ok) return amount;
      if (amount.value === 0) return err('INVALID_VALUE', 'amount must not be 0 (positive marks, negative clears)', 'amount');
      const reason = readLabel(c, 'reason');
      if (!reason.ok) return reason;
      return markEvents(world, ch.value.id, track.value, amount.value, reason.value);
    },
  },
  'daggerheart.takeDamage': {
    label: 'take damage',
    // The GM, or the player of that PC (they choose whether to mark an Armor Slot).
    authorize: (world, c, actor) => (controls(world, actor, c['characterId']) ? null : FORBIDDEN),
    decide(world, c) {
      const ch = readCharacter(world, c, 'characterId');
      if (!ch.ok) return ch;
      const amount = readInt(c, 'amount', { min: 0, max: MAX_DAMAGE });
      if (!amount.ok) return amount;
      const useArmor = c['useArmor'] ?? false;
      if (typeof useArmor !== 'boolean') return err('INVALID_VALUE', 'useArmor must be true or false', 'useArmor');
      const t = thresholdsOf(ch.value.stats);
      if (t === null) return err('DH_NO_THRESHOLDS', `${ch.value.name}'s sheet needs whole-number major and severe thresholds (severe at least major)`, 'characterId');
      const set = daggerheartSettings(world);
      const raw = severityOf(amount.value, t, set.massiveDamage);
      const armor = trackOf(ch.value.stats, 'armor', set.armorSlots);
      if (useArmor && armor.marked >= armor.slots) return err('DH_NO_ARMOR', `${ch.value.name} has no unmarked Armor Slot (${armor.marked}/${armor.slots})`, 'useArmor');
      // An Armor Slot only helps against a hit that would mark HP.
      const armorUsed = useArmor && raw > 0;
      const severity: Severity = armorUsed ? armored(raw) : raw;
      const hp = trackOf(ch.value.stats, 'hp', set.hpSlots);
      const hpTo = Math.min(hp.slots, hp.marked + severity);
      return ok([
        {
          type: 'daggerheart.damageTaken',
          characterId: ch.value.id,
          amount: amount.value,
          major: t.major,
          severe: t.severe,
          severity: raw,
          marks: severity,
          armorUsed,
          armorFrom: armor.marked,
          armorTo: armorUsed ? armor.marked + 1 : armor.marked,
          hpFrom: hp.marked,
          hpTo,
        },
      ]);
    },
  },
  'daggerheart.addAdversaries': {
    label: 'add adversaries',
    decide(world, c, env) {
      const name = readLabel(c, 'name');
      if (!name.ok) return name;
      if (name.value === '') return err('INVALID_VALUE', 'an adversary needs a name', 'name');
      const count = readInt(c, 'count', { min: 1, max: MAX_GROUP, fallback: 1 });
      if (!count.ok) return count;
      const numbers: { [k: string]: number } = {};
      const fields: [string, number, number, number | undefined][] = [
        ['difficulty', 1, 60, undefined],
        ['major', 1, 200, undefined],
        ['severe', 1, 400, undefined],
        ['hp', 1, 30, undefined],
        ['stress', 0, 30, 0],
        ['attack', -20, 30, 0],
      ];
      for (const [key, min, max, fallback] of fields) {
        const v = readInt(c, key, fallback === undefined ? { min, max } : { min, max, fallback });
        if (!v.ok) return v;
        numbers[key] = v.value;
      }
      if (numbers['severe']! < numbers['major']!) return err('INVALID_VALUE', 'the Severe threshold must be at least the Major one', 'severe');
      const damage = readLabel(c, 'damage', 40);
      if (!damage.ok) return damage;
      const moves = readMoves(c);
      if (!moves.ok) return moves;
      const visibility = readEnum<Visibility>(c, 'visibility', ['hidden', 'existence', 'visible', 'reveal-on-trigger'], 'existence');
      if (!visibility.ok) return visibility;
      const events: EngineEvent[] = [];
      let w = world;
      // One countdown per move of the group: the stat block's move is the group's, whichever of them makes it.
      const moveStats: Json[] = [];
      for (const [i, m] of moves.value.entries()) {
        let countdownId: string | null = null;
        if (m.countdown !== null) {
          const made = newCountdownEvent(w, { type: 'countdown.create', name: `${name.value}: ${m.name}`.slice(0, 80), start: m.countdown.start, repeat: m.countdown.repeat, kind: m.countdown.kind, visibility: 'hidden', effect: m.text }, env.rng);
          if (!made.ok) return err(made.error.code, made.error.message, `moves.${i}.countdown`);
          events.push(made.value.event);
          w = made.value.world;
          countdownId = String(made.value.event['id']);
        }
        moveStats.push({ name: m.name, text: m.text, countdownId });
      }
      const enc = getEncounter(world);
      const joined: EngineEvent[] = [];
      for (let i = 0; i < count.value; i++) {
        const [id, next] = mintId(w, 'ch', env.rng);
        w = next;
        const label = count.value === 1 ? name.value : `${name.value} ${i + 1}`;
        const stats = { adversary: true, difficulty: numbers['difficulty']!, major: numbers['major']!, severe: numbers['severe']!, hpMax: numbers['hp']!, hpMarked: 0, stressMax: numbers['stress']!, stressMarked: 0, attack: numbers['attack']!, damage: damage.value, moves: moveStats };
        events.push({ type: 'character.added', id, name: label, kind: 'npc', seatId: null, visibility: visibility.value, stats });
        // In a running conflict they join at once, ready for the GM to give them the spotlight.
        if (enc.active) {
          const vis = visibility.value === 'reveal-on-trigger' ? 'existence' : visibility.value;
          const combatant = { id, name: label, kind: 'npc', side: 'adversaries', characterId: id, stats: {}, visibility: vis, incapacitated: false, unsurprisable: false, placement: {}, joined: enc.nextJoin + i, readied: null };
          joined.push({ type: 'encounter.combatantAdded', combatant });
        }
      }
      return ok([...events, ...joined]);
    },
  },
  'daggerheart.rest': {
    label: 'rest',
    decide(world, c, env) {
      const rest = readEnum<'short' | 'long'>(c, 'rest', ['short', 'long']);
      if (!rest.ok) return rest;
      const set = daggerheartSettings(world);
      const raw = c['moves'] ?? [];
      if (!Array.isArray(raw)) return err('INVALID_VALUE', 'moves must be a list of {characterId, move, targetId?}', 'moves');
      if (raw.length > 60) return err('LIMIT_EXCEEDED', 'at most 60 downtime moves in one rest', 'moves');
      const events: EngineEvent[] = [{ type: 'daggerheart.restStarted', rest: rest.value }];
      const taken = new Map<string, number>();
      let w = world;
      for (let i = 0; i < raw.length; i++) {
        const m = raw[i];
        const path = `moves.${i}`;
        if (m === null || typeof m !== 'object' || Array.isArray(m)) return err('INVALID_VALUE', 'a downtime move is {characterId, move, targetId?}', path);
        const who = readCharacter(w, m as Command, 'characterId');
        if (!who.ok) return err(who.error.code, who.error.message, `${path}.characterId`);
        if (who.value.kind !== 'pc') return err('DH_NOT_A_PC', `${who.value.name} is not a PC: downtime moves are the PCs'`, `${path}.characterId`);
        const move = readEnum<DowntimeMove>(m as Command, 'move', DOWNTIME_MOVES);
        if (!move.ok) return err(move.error.code, move.error.message, `${path}.move`);
        if (move.value === 'workOnProject' && rest.value === 'short') return err('DH_LONG_REST_ONLY', 'Work on a Project is a long-rest move', `${path}.move`);
        const n = (taken.get(who.value.id) ?? 0) + 1;
        if (n > set.downtimeMoves) return err('DH_TOO_MANY_MOVES', `${who.value.name} may take ${set.downtimeMoves} downtime moves in a rest`, path);
        taken.set(who.value.id, n);
        const target = (m as Command)['targetId'] === undefined ? who : readCharacter(w, m as Command, 'targetId');
        if (!target.ok) return err(target.error.code, target.error.message, `${path}.targetId`);
        const track = MOVE_TRACK[move.value];
        const moveEvent: EngineEvent = { type: 'daggerheart.downtimeMove', characterId: who.value.id, targetId: target.value.id, move: move.value, rest: rest.value };
        events.push(moveEvent);
        if (track !== undefined) {
          const t = trackOf(w.characters[target.value.id]!.stats, track, slotsFor(w, track));
          // A short rest clears 1d4 + tier slots; a long rest clears them all.
          const die = rest.value === 'short' ? env.rng.die(4) : null;
          const clear = die === null ? t.marked : die + tierOf(w, who.value.id);
          const to = Math.max(0, t.marked - clear);
          const e = marked(target.value.id, track, t.marked, to, `${rest.value} rest: ${MOVE_WORDS[move.value]}`, die === null ? {} : { dice: [die], tier: tierOf(w, who.value.id) });
          events.push(e);
          w = withStats(w, target.value.id, { [TRACK_KEYS[track].marked]: to });
        } else if (move.value === 'prepare') {
          const from = hopeOf(w, who.value.id);
          const to = Math.min(set.hopeMax, from + 1);
          events.push({ type: 'daggerheart.hopeGained', characterId: who.value.id, amount: to - from, from, to, capped: to === from, reason: 'Prepare' });
          w = withStats(w, who.value.id, { hope: to });
        }
      }
      if (set.restGivesFear) {
        const die = env.rng.die(4);
        const pcs = Object.values(world.characters).filter((x) => x.kind === 'pc').length;
        const gain = die + (rest.value === 'long' ? pcs : 0);
        const from = getDaggerheart(world).fear;
        const to = Math.min(set.fearMax, from + gain);
        events.push({ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to < from + gain, reason: `${rest.value} rest`, dice: [die] });
      }
      // The rest on the one clock: long-term countdowns tick and until-rest conditions end, as reactions in this transaction.
      events.push(clockAdvanced(world, rest.value === 'long' ? 'longRest' : 'shortRest', 1, 0));
      return ok(events);
    },
  },
};

// ---------------------------------------------------------------- reducers

export const trackerReducers: Record<string, Reducer> = {
  'daggerheart.trackMarked': (w, e) => {
    const id = str(e, 'characterId');
    const track = e['track'] as TrackName;
    const next = withStats(w, id, { [TRACK_KEYS[track].marked]: num(e, 'to') });
    const verb = num(e, 'to') > num(e, 'from') ? 'marks' : 'clears';
    const n = Math.abs(num(e, 'to') - num(e, 'from'));
    const dice = Array.isArray(e['dice']) ? ` (1d4 [${e['dice'].join(', ')}] + tier ${String(e['tier'])})` : '';
    const why = e['reason'] === '' ? '' : ` (${str(e, 'reason')})`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.track', text: `${nameOf(w, id)} ${verb} ${n} ${TRACK_WORDS[track]}${why}${dice}: ${num(e, 'to')} marked.`, data: { characterId: id, track } });
  },
  'daggerheart.damageTaken': (w, e) => {
    const id = str(e, 'characterId');
    const next = withStats(w, id, { [TRACK_KEYS.hp.marked]: num(e, 'hpTo'), [TRACK_KEYS.armor.marked]: num(e, 'armorTo') });
    const sev = num(e, 'severity') as Severity;
    const armor = e['armorUsed'] === true ? `, an Armor Slot makes it ${SEVERITY_WORDS[num(e, 'marks') as Severity]}` : '';
    const text = `${nameOf(w, id)} takes ${num(e, 'amount')} damage (${SEVERITY_WORDS[sev]}: thresholds ${num(e, 'major')}/${num(e, 'severe')}${armor}) and marks ${num(e, 'hpTo') - num(e, 'hpFrom')} HP.`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.damage', text, data: { characterId: id } });
  },
  'daggerheart.restStarted': (w, e) => appendLog(w, { audience: AUDIENCE_ALL, kind: 'daggerheart.rest', text: `The party takes a ${str(e, 'rest')} rest.` }),
  'daggerheart.downtimeMove': (w, e) => {
    const id = str(e, 'characterId');
    const target = str(e, 'targetId');
    const on = target === id ? '' : ` for ${nameOf(w, target)}`;
    return appendLog(w, { audience: characterAudience(w, id), kind: 'daggerheart.downtime', text: `${nameOf(w, id)}: ${MOVE_WORDS[e['move'] as DowntimeMove] ?? str(e, 'move')}${on}.` });
  },
};

export const TRACKER_AUDIENCE: { readonly [type: string]: EventAudience } = {
  'daggerheart.trackMarked': (w, e) => characterAudience(w, e['characterId']),
  'daggerheart.damageTaken': (w, e) => characterAudience(w, e['characterId']),
  'daggerheart.downtimeMove': (w, e) => characterAudience(w, e['characterId']),
};
