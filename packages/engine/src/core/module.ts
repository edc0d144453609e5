// The core module: table, seats, characters, the one clock and GM notes.
// Every other module builds on these entities and on `clock.advanced`.
import { own } from './own.js';
import { advanceClock, clockAdvanced } from './clock.js';
import { handlerOf } from './catalog.js';
import { characterAdd, characterRemove, characterUpdate, clockAdvance, coreCatalog, diceRoll, logNote, seatAdd, seatRemove, seatRename, tableRename } from './declarations.js';
import { claimId, mintId } from './ids.js';
import { appendLog } from './log.js';
import { decideRoll, reduceRolled } from './roll.js';
import { audiencesOf, reducersOf, type EventOf, type Evolve } from './events.js';
import type { CoreEvent } from './events-core.js';
import { err, ErrorCode, ok } from './result.js';
import type { Audience, Character, ClockUnit, CommandHandler, EngineEvent, Json, Module, Result, Seat, Viewer, World } from './types.js';
import { AUDIENCE_ALL, audienceFor, AUDIENCE_GM, knowsExists } from './visibility.js';

export const CORE_ID = 'core';
export const MAX_SEATS = 64;
export const MAX_CHARACTERS = 1000;
export const MAX_STATS = 200;


function withCharacter(world: World, id: string, f: (c: Character) => Character): World {
  const c = own(world.characters, id);
  return c === undefined ? world : { ...world, characters: { ...world.characters, [id]: f(c) } };
}

function seatWith(world: World, seatId: string | null, f: (s: Seat) => Seat): World {
  if (seatId === null) return world;
  const s = own(world.seats, seatId);
  return s === undefined ? world : { ...world, seats: { ...world.seats, [seatId]: f(s) } };
}

/** Text a person typed, trimmed: the schema bounds its length, blank is refused here (as the readers did). */
function trimmed(v: string, path: string): Result<string> {
  const t = v.trim();
  return t === '' ? err(ErrorCode.INVALID_VALUE, `${path} must have at least 1 character(s)`, path) : ok(t);
}

function checkStats(stats: { readonly [k: string]: Json } | undefined): string | null {
  if (stats === undefined) return null;
  if (Object.keys(stats).length > MAX_STATS) return `stats may have at most ${MAX_STATS} keys`;
  return null;
}

function readSeatId(world: World, v: Json | undefined): { ok: true; value: string | null } | { ok: false; message: string } {
  if (v === undefined || v === null) return { ok: true, value: null };
  if (typeof v !== 'string' || own(world.seats, v) === undefined) return { ok: false, message: `no seat ${String(v)}` };
  return { ok: true, value: v };
}

/** Authorize: the GM, or any seated player (for notes to everyone). */
const gmOrSeated = (world: World, _c: unknown, actor: Viewer) =>
  actor.role === 'gm' || (actor.role === 'player' && own(world.seats, actor.seatId) !== undefined)
    ? null
    : { code: ErrorCode.FORBIDDEN, message: 'only the GM or a seated player may do this' };

const commands: Record<string, CommandHandler> = {
  'table.rename': handlerOf(tableRename, {
    decide(world, p) {
      const name = trimmed(p.name, 'name');
      if (!name.ok) return name;
      return ok([{ type: 'table.renamed', name: name.value, from: world.name }]);
    },
  }),
  'seat.add': handlerOf(seatAdd, {
    decide(world, p) {
      const name = trimmed(p.name, 'name');
      if (!name.ok) return name;
      if (Object.keys(world.seats).length >= MAX_SEATS) return err(ErrorCode.LIMIT_EXCEEDED, `a table may have at most ${MAX_SEATS} seats`);
      const [id] = mintId(world, 'seat');
      return ok([{ type: 'seat.added', id, name: name.value }]);
    },
  }),
  'seat.rename': handlerOf(seatRename, {
    decide(world, { seatId, name }) {
      const seat = own(world.seats, seatId);
      if (seat === undefined) return err(ErrorCode.NOT_FOUND, `no seat ${seatId}`, 'seatId');
      return ok([{ type: 'seat.renamed', id: seat.id, name: name.trim(), from: seat.name }]);
    },
  }),
  'seat.remove': handlerOf(seatRemove, {
    decide(world, { seatId }) {
      const seat = own(world.seats, seatId);
      if (seat === undefined) return err(ErrorCode.NOT_FOUND, `no seat ${seatId}`, 'seatId');
      return ok([{ type: 'seat.removed', id: seat.id, name: seat.name }]);
    },
  }),
  'character.add': handlerOf(characterAdd, {
    decide(world, p, env) {
      const name = trimmed(p.name, 'name');
      if (!name.ok) return name;
      const kind = p.kind ?? 'npc';
      // Enemy stats are the GM's: an NPC shows players its name only until the GM makes it visible.
      const visibility = p.visibility ?? (kind === 'npc' ? 'existence' : 'visible');
      const seat = readSeatId(world, p.seatId);
      if (!seat.ok) return err(ErrorCode.NOT_FOUND, seat.message, 'seatId');
      const bad = checkStats(p.stats);
      if (bad !== null) return err(ErrorCode.LIMIT_EXCEEDED, bad, 'stats');
      if (Object.keys(world.characters).length >= MAX_CHARACTERS) return err(ErrorCode.LIMIT_EXCEEDED, `a table may have at most ${MAX_CHARACTERS} characters`);
      const [id] = mintId(world, 'ch', env.rng);
      return ok([{ type: 'character.added', id, name: name.value, kind, seatId: seat.value, visibility, stats: p.stats ?? {} }]);
    },
  }),
  'character.update': handlerOf(characterUpdate, {
    decide(world, p) {
      const ch = own(world.characters, p.characterId);
      if (ch === undefined) return err(ErrorCode.NOT_FOUND, `no character ${p.characterId}`, 'characterId');
      const name = p.name === undefined ? undefined : trimmed(p.name, 'name');
      if (name !== undefined && !name.ok) return name;
      const merged = { ...ch.stats, ...(p.stats ?? {}) };
      const bad = checkStats(merged);
      if (bad !== null) return err(ErrorCode.LIMIT_EXCEEDED, bad, 'stats');
      const seat = p.seatId === undefined ? ({ ok: true, value: ch.seatId } as const) : readSeatId(world, p.seatId);
      if (!seat.ok) return err(ErrorCode.NOT_FOUND, seat.message, 'seatId');
      const visibility = p.visibility ?? ch.visibility;
      const e: EngineEvent = { type: 'character.updated', id: ch.id, visibility, wasVisibility: ch.visibility, seatId: seat.value, wasSeatId: ch.seatId };
      return ok([{ ...e, ...(name === undefined ? {} : { name: name.value }), ...(p.stats === undefined ? {} : { stats: p.stats }) }]);
    },
  }),
  'character.remove': handlerOf(characterRemove, {
    decide(world, { characterId }) {
      const ch = own(world.characters, characterId);
      if (ch === undefined) return err(ErrorCode.NOT_FOUND, `no character ${characterId}`, 'characterId');
      return ok([{ type: 'character.removed', id: ch.id, visibility: ch.visibility, seatId: ch.seatId }]);
    },
  }),
  'clock.advance': handlerOf(clockAdvance, {
    decide(world, { unit, count = unit === 'time' ? 0 : 1, seconds = 0 }) {
      if (count === 0 && seconds === 0) return err(ErrorCode.INVALID_VALUE, 'advance the clock by a count or some seconds', 'count');
      return ok([clockAdvanced(world, unit, count, seconds)]);
    },
  }),
  'log.note': handlerOf(logNote, {
    authorize: gmOrSeated,
    decide(world, p, env) {
      const text = trimmed(p.text, 'text');
      if (!text.ok) return text;
      const given = p.audience ?? { kind: 'all' };
      if (given.kind === 'seat' && own(world.seats, given.seatId) === undefined) return err(ErrorCode.NOT_FOUND, `no seat ${given.seatId}`, 'audience.seatId');
      const audience: Audience = given.kind === 'all' ? AUDIENCE_ALL : given.kind === 'gm' ? AUDIENCE_GM : { kind: 'seat', seatId: given.seatId };
      // Players may write to everyone or to their own seat; whispers to the GM are GM-only entries they wrote.
      if (env.actor.role === 'player' && audience.kind !== 'all' && !(audience.kind === 'seat' && audience.seatId === env.actor.seatId))
        return err(ErrorCode.FORBIDDEN, 'a player may post notes to everyone or to their own seat', 'audience');
      const by = env.actor.role === 'player' ? env.actor.seatId : 'gm';
      return ok([{ type: 'log.noted', text: text.value, audience: { ...audience }, by }]);
    },
  }),
  'dice.roll': handlerOf(diceRoll, {
    // Any seat or the GM rolls at the table; spectators may not. Only the GM may take a roll back.
    authorize: gmOrSeated,
    issuerMayRevert: false,
    decide: decideRoll,
  }),
};

const evolve: Evolve<CoreEvent> = {
  'table.renamed': (w, e) => appendLog({ ...w, name: e.name }, { audience: AUDIENCE_ALL, kind: 'table.renamed', text: `The table is now called ${e.name}.` }),
  'seat.added': (w, e) => {
    const seat: Seat = { id: e.id, name: e.name, characterIds: [] };
    return appendLog(claimId({ ...w, seats: { ...w.seats, [e.id]: seat } }, e.id), { audience: AUDIENCE_ALL, kind: 'seat.added', text: `${seat.name} took a seat.` });
  },
  'seat.renamed': (w, e) => seatWith(w, e.id, (s) => ({ ...s, name: e.name })),
  'seat.removed': (w, e) => {
    const id = e.id;
    const seats = { ...w.seats };
    delete seats[id];
    const characters: Record<string, Character> = {};
    for (const [k, c] of Object.entries(w.characters)) characters[k] = c.seatId === id ? { ...c, seatId: null } : c;
    return appendLog({ ...w, seats, characters }, { audience: AUDIENCE_ALL, kind: 'seat.removed', text: `${e.name} left the table.` });
  },
  'character.added': (w, e) => {
    const id = e.id;
    const seatId = e.seatId ?? null;
    const c: Character = { id, name: e.name, kind: e.kind === 'pc' ? 'pc' : 'npc', seatId, visibility: e.visibility, stats: e.stats ?? {} };
    let next = claimId({ ...w, characters: { ...w.characters, [id]: c } }, id);
    next = seatWith(next, seatId, (s) => ({ ...s, characterIds: [...s.characterIds, id] }));
    return appendLog(next, { audience: audienceFor(e.visibility), kind: 'character.added', text: `${c.name} joined the scene.`, data: { id } });
  },
  'character.updated': (w, e) => {
    const id = e.id;
    const seatId = e.seatId ?? null;
    const wasSeatId = e.wasSeatId ?? null;
    let next = withCharacter(w, id, (c) => ({
      ...c,
      name: e.name ?? c.name,
      visibility: e.visibility,
      seatId,
      stats: e.stats === undefined ? c.stats : { ...c.stats, ...e.stats },
    }));
    if (seatId !== wasSeatId) {
      next = seatWith(next, wasSeatId, (s) => ({ ...s, characterIds: s.characterIds.filter((x) => x !== id) }));
      next = seatWith(next, seatId, (s) => ({ ...s, characterIds: [...s.characterIds, id] }));
    }
    return next;
  },
  'character.removed': (w, e) => {
    const id = e.id;
    const c = own(w.characters, id);
    if (c === undefined) return w;
    const characters = { ...w.characters };
    delete characters[id];
    const next = seatWith({ ...w, characters }, c.seatId, (s) => ({ ...s, characterIds: s.characterIds.filter((x) => x !== id) }));
    return appendLog(next, { audience: audienceFor(c.visibility), kind: 'character.removed', text: `${c.name} left the scene.`, data: { id } });
  },
  'clock.advanced': (w, e) => {
    const { unit, count, seconds } = e;
    const next = { ...w, clock: advanceClock(w.clock, unit, count, seconds) };
    // Turns, rounds and action rolls are announced by their own modules; the core logs the long steps.
    if (unit === 'actionRoll' || unit === 'turn' || unit === 'round' || unit === 'beat') return next;
    return appendLog(next, { audience: AUDIENCE_ALL, kind: 'clock.advanced', text: clockText(unit, count, seconds), data: { unit, count, seconds } });
  },
  'log.noted': (w, e) => appendLog(w, { audience: e.audience, kind: 'note', text: e.text, data: { by: e.by } }),
  'dice.rolled': reduceRolled,
};

const reducers: Module['reducers'] = reducersOf(evolve);

const UNIT_WORDS: Record<ClockUnit, string> = {
  actionRoll: 'action roll',
  beat: 'beat',
  turn: 'turn',
  round: 'round',
  travelTurn: 'travel turn',
  shortRest: 'short rest',
  longRest: 'long rest',
  phase: 'phase',
  time: 'time',
};

function clockText(unit: ClockUnit, count: number, seconds: number): string {
  const parts: string[] = [];
  if (unit !== 'time' && count > 0) parts.push(`${count} ${UNIT_WORDS[unit]}${count === 1 ? '' : 's'}`);
  if (seconds > 0) parts.push(fictionTime(seconds));
  return `Time passes: ${parts.join(', ')}.`;
}

/** In-fiction time in people's units: "10 minutes", "1 hour 30 minutes", "2 days 4 hours", "6 seconds". */
export function fictionTime(seconds: number): string {
  const units: readonly [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  let left = Math.max(0, Math.floor(seconds));
  const out: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) out.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return out.length === 0 ? '0 seconds' : out.join(' ');
}

/** Events about a character are public only while the character is fully visible. */
const characterAudience = (_w: World, e: EventOf<CoreEvent, 'character.added' | 'character.updated'>): Audience => {
  const now = e.visibility;
  const was = ('wasVisibility' in e ? e.wasVisibility : undefined) ?? now;
  return now === 'visible' && (was === 'visible' || e.type === 'character.updated') ? AUDIENCE_ALL : AUDIENCE_GM;
};

/** Non-GM viewers: hidden characters vanish, existence-tier ones keep only their public name. */
function projectCore(world: World, viewer: Viewer): World {
  if (viewer.role === 'gm') return world;
  // Default-deny: each entry is rebuilt from the fields players may read, never copied whole.
  const characters: Record<string, Character> = {};
  for (const [id, c] of Object.entries(world.characters)) {
    if (!knowsExists(c.visibility, viewer)) continue;
    characters[id] = { id: c.id, name: c.name, kind: c.kind, seatId: c.seatId, visibility: c.visibility, stats: c.visibility === 'visible' ? c.stats : {} };
  }
  const seats: Record<string, Seat> = {};
  for (const [id, s] of Object.entries(world.seats)) seats[id] = { id: s.id, name: s.name, characterIds: s.characterIds.filter((x) => Object.hasOwn(characters, x)) };
  // nextId counts every minted id, hidden ones included: players get 0.
  return { ...world, characters, seats, nextId: 0 };
}

/** The projector's rule for one id: a character players may know exists, or any seat (seats are public). */
function coreIdStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined {
  const c = own(world.characters, id);
  if (c !== undefined) return knowsExists(c.visibility, viewer) ? 'shown' : 'hidden';
  return own(world.seats, id) === undefined ? undefined : 'shown';
}

/** Human labels for the core's commands (used by undo / redo buttons and history). */
export const CORE_LABELS: Record<string, string> = {
  'table.rename': 'rename the table',
  'seat.add': 'add a seat',
  'seat.rename': 'rename a seat',
  'seat.remove': 'remove a seat',
  'character.add': 'add a character',
  'character.update': 'update a character',
  'character.remove': 'remove a character',
  'clock.advance': 'advance the clock',
  'log.note': 'post a note',
  'dice.roll': 'roll dice',
};

export const coreModule: Module = {
  id: CORE_ID,
  commands: Object.fromEntries(Object.entries(commands).map(([type, h]) => [type, { ...h, label: CORE_LABELS[type] ?? type }])),
  // Undo words with the names (core/undo-words.ts); a new character is named from the command, it has no other yet on redo.
  words: {
    'character.add': { say: ['adding {=name}'] },
    'character.update': { say: ['changes to {by}'], by: ['characterId'] },
    'seat.add': { say: ["{=name}'s seat"] },
  },
  reducers,
  catalog: coreCatalog,
  project: projectCore,
  projectReads: { reads: ['characters', 'seats'], writes: ['characters', 'seats', 'nextId'] },
  idStatus: coreIdStatus,
  audience: audiencesOf<CoreEvent>({
    'character.added': characterAudience,
    'character.updated': characterAudience,
    'character.removed': (_w, e) => (e.visibility === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL),
    'log.noted': (_w, e) => e.audience,
    'dice.rolled': (_w, e) => e.audience,
  }),
};
