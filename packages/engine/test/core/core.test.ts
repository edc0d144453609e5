import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import {
  AUDIENCE_ALL,
  audienceAllows,
  canSee,
  claimId,
  coreModule,
  createEngine,
  DEFAULT_LOG_LIMIT,
  LOG_LIMIT_SETTING,
  MAX_CLOCK_SECONDS,
  MAX_REACTION_DEPTH,
  mintId,
  relativeCommands,
  scenario,
  type Command,
  type Transaction,
  type Viewer,
} from '../../src/core/index.js';
import { CANARY, diceyModule, loopModule } from './fixtures.js';

const GM: Viewer = { role: 'gm' };
const ann: Viewer = { role: 'player', seatId: 'seat-1' };
const bob: Viewer = { role: 'player', seatId: 'seat-2' };
const spectator: Viewer = { role: 'spectator' };

/** The id the transaction's first event carries (a minted id is random: read it, never guess it). */
const idOf = (tx: Transaction): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');

function seated() {
  const s = scenario([diceyModule]);
  s.run({ type: 'seat.add', name: 'Ann' });
  s.run({ type: 'seat.add', name: 'Bob' });
  return s;
}

describe('results and ids', () => {
  it('mints ids from nextId and claims them in reducers', () => {
    const s = scenario([]);
    const [id, w] = mintId(s.world, 'ch');
    expect(id).toBe('ch-1');
    expect(w.nextId).toBe(2);
    expect(claimId(s.world, 'x-41').nextId).toBe(42);
    // A random id counts as one mint (ADR 10).
    expect(claimId(s.world, 'no-suffix').nextId).toBe(2);
  });
  it('mints random ids from the Rng\'s id stream without moving its dice (ADR 10)', () => {
    const s = scenario([]);
    const rng = seededRng(5);
    const twin = seededRng(5);
    const [a, w] = mintId(s.world, 'ch', rng);
    const [b] = mintId(w, 'ch', rng);
    expect(a).toMatch(/^ch-[a-z]{12}$/);
    expect(b).not.toBe(a);
    expect(rng.die(20)).toBe(twin.die(20));
  });
});

describe('table and seats', () => {
  it('renames the table and logs it', () => {
    const s = scenario([]);
    const tx = s.run({ type: 'table.rename', name: '  Dragon Heist ' });
    expect(tx.kind).toBe('command');
    expect(s.world.name).toBe('Dragon Heist');
    expect(s.world.log.at(-1)).toMatchObject({ tx: 1, kind: 'table.renamed', audience: AUDIENCE_ALL });
  });
  it('refuses empty and over-long names with the limit in the message', () => {
    const s = scenario([]);
    expect(s.fail({ type: 'table.rename', name: '' })).toMatchObject({ code: 'INVALID_VALUE', path: 'name' });
    expect(s.fail({ type: 'table.rename', name: 'x'.repeat(101) }).message).toContain('100');
    expect(s.fail({ type: 'table.rename' }).code).toBe('INVALID_VALUE');
  });
  it('adds, renames and removes seats; removing unseats their characters', () => {
    const s = seated();
    expect(Object.keys(s.world.seats)).toEqual(['seat-1', 'seat-2']);
    s.run({ type: 'seat.rename', id: 'seat-1', name: 'Annie' });
    expect(s.world.seats['seat-1']!.name).toBe('Annie');
    const roland = idOf(s.run({ type: 'character.add', name: 'Roland', kind: 'pc', seatId: 'seat-1' }));
    expect(s.world.seats['seat-1']!.characterIds).toEqual([roland]);
    s.run({ type: 'seat.remove', id: 'seat-1' });
    expect(s.world.seats['seat-1']).toBeUndefined();
    expect(s.world.characters[roland]!.seatId).toBeNull();
    expect(s.fail({ type: 'seat.rename', id: 'seat-9', name: 'x' }).code).toBe('NOT_FOUND');
    expect(s.fail({ type: 'seat.remove', id: 'seat-9' }).code).toBe('NOT_FOUND');
  });
  it('seat and character commands are GM only', () => {
    const s = seated();
    expect(s.fail({ type: 'seat.add', name: 'Eve' }, ann).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'table.rename', name: 'Mine' }, spectator).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'character.add', name: 'Me' }, ann).code).toBe('FORBIDDEN');
  });
});

describe('characters', () => {
  it('adds a character with defaults, updates stats by merging and moves seats', () => {
    const s = seated();
    const roland = idOf(s.run({ type: 'character.add', name: 'Roland', kind: 'pc', seatId: 'seat-1', stats: { hp: 10, str: 16 } }));
    expect(s.world.characters[roland]).toEqual({ id: roland, name: 'Roland', kind: 'pc', seatId: 'seat-1', visibility: 'visible', stats: { hp: 10, str: 16 } });
    s.run({ type: 'character.update', id: roland, stats: { hp: 7 }, seatId: 'seat-2', name: 'Ro' });
    expect(s.world.characters[roland]).toMatchObject({ name: 'Ro', seatId: 'seat-2', stats: { hp: 7, str: 16 } });
    expect(s.world.seats['seat-1']!.characterIds).toEqual([]);
    expect(s.world.seats['seat-2']!.characterIds).toEqual([roland]);
    s.run({ type: 'character.remove', id: roland });
    expect(s.world.characters[roland]).toBeUndefined();
    expect(s.world.seats['seat-2']!.characterIds).toEqual([]);
  });
  it('rejects bad kinds, visibilities, seats and unknown ids', () => {
    const s = seated();
    expect(s.fail({ type: 'character.add', name: 'X', kind: 'dragon' }).path).toBe('kind');
    expect(s.fail({ type: 'character.add', name: 'X', visibility: 'secret' }).path).toBe('visibility');
    expect(s.fail({ type: 'character.add', name: 'X', seatId: 'seat-9' })).toMatchObject({ code: 'NOT_FOUND', path: 'seatId' });
    expect(s.fail({ type: 'character.add', name: 'X', stats: [1] }).path).toBe('stats');
    expect(s.fail({ type: 'character.update', id: 'ch-9' }).code).toBe('NOT_FOUND');
    expect(s.fail({ type: 'character.remove', id: 'ch-9' }).code).toBe('NOT_FOUND');
  });
  it('hides hidden characters from players and strips existence-tier stats', () => {
    const s = seated();
    const hidden = idOf(s.run({ type: 'character.add', name: CANARY, visibility: 'hidden', stats: { hp: 99 } }));
    const shadow = idOf(s.run({ type: 'character.add', name: 'Shadow', visibility: 'existence', stats: { hp: 12 } }));
    const pv = s.view(ann);
    expect(pv.world.characters[hidden]).toBeUndefined();
    expect(pv.world.characters[shadow]).toMatchObject({ name: 'Shadow', stats: {} });
    expect(pv.world.nextId).toBe(0);
    expect(JSON.stringify(pv)).not.toContain(CANARY);
    expect(JSON.stringify(s.view(GM))).toContain(CANARY);
    // Revealing it makes the update event and the character public.
    s.run({ type: 'character.update', id: shadow, visibility: 'visible' });
    expect(s.view(ann).world.characters[shadow]!.stats).toEqual({ hp: 12 });
    expect(s.view(ann).history.at(-1)!.events).toHaveLength(1);
  });
});

describe('the clock', () => {
  it('advances by units and seconds, recording from and to', () => {
    const s = scenario([]);
    const tx = s.run({ type: 'clock.advance', unit: 'shortRest', seconds: 3600 });
    expect(tx.kind === 'command' && tx.events[0]).toEqual({ type: 'clock.advanced', unit: 'shortRest', count: 1, seconds: 3600, from: 0, to: 3600 });
    s.run({ type: 'clock.advance', unit: 'turn', count: 3, seconds: 30 });
    expect(s.world.clock.seconds).toBe(3630);
    expect(s.world.clock.counts.turn).toBe(3);
    expect(s.world.clock.counts.shortRest).toBe(1);
    s.run({ type: 'clock.advance', unit: 'time', seconds: 60 });
    expect(s.world.clock.counts.time).toBe(0);
    expect(s.world.log.map((e) => e.text)).toEqual(['Time passes: 1 short rest, 1 hour.', 'Time passes: 1 minute.']);
  });
  it('refuses unknown units, negative, fractional and over-limit values, and empty advances', () => {
    const s = scenario([]);
    expect(s.fail({ type: 'clock.advance', unit: 'fortnight' }).path).toBe('unit');
    expect(s.fail({ type: 'clock.advance', unit: 'turn', count: -1 }).path).toBe('count');
    expect(s.fail({ type: 'clock.advance', unit: 'turn', count: 1.5 }).path).toBe('count');
    expect(s.fail({ type: 'clock.advance', unit: 'time', seconds: MAX_CLOCK_SECONDS + 1 }).message).toContain(String(MAX_CLOCK_SECONDS));
    expect(s.fail({ type: 'clock.advance', unit: 'time' }).code).toBe('INVALID_VALUE');
    expect(s.fail({ type: 'clock.advance', unit: 'turn' }, ann).code).toBe('FORBIDDEN');
  });
});

describe('log notes', () => {
  it('the GM may address all, the GM or a seat; players only all or their own seat', () => {
    const s = seated();
    s.run({ type: 'log.note', text: `${CANARY} GM eyes only`, audience: { kind: 'gm' } });
    s.run({ type: 'log.note', text: 'for Bob', audience: { kind: 'seat', seatId: 'seat-2' } });
    s.run({ type: 'log.note', text: 'hello all' }, ann);
    s.run({ type: 'log.note', text: 'note to self', audience: { kind: 'seat', seatId: 'seat-1' } }, ann);
    expect(s.fail({ type: 'log.note', text: 'psst', audience: { kind: 'gm' } }, ann).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'log.note', text: 'x', audience: { kind: 'seat', seatId: 'seat-2' } }, ann).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'log.note', text: 'x' }, spectator).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'log.note', text: 'x', audience: { kind: 'everyone' } }).path).toBe('audience.kind');
    expect(s.fail({ type: 'log.note', text: 'x'.repeat(2001) }).message).toContain('2000');
    const texts = (v: Viewer) => s.view(v).world.log.filter((e) => e.kind === 'note').map((e) => e.text);
    expect(texts(ann)).toEqual(['hello all', 'note to self']);
    expect(texts(bob)).toEqual(['for Bob', 'hello all']);
    expect(texts(spectator)).toEqual(['hello all']);
    expect(texts(GM)).toHaveLength(4);
    expect(JSON.stringify(s.view(bob))).not.toContain(CANARY);
  });
  it('caps the log at the named setting, dropping the oldest entries', () => {
    expect(DEFAULT_LOG_LIMIT).toBe(1000);
    const s = scenario([], { settings: { [LOG_LIMIT_SETTING]: 3 } });
    for (let i = 1; i <= 5; i++) s.run({ type: 'log.note', text: `n${i}` });
    expect(s.world.log.map((e) => [e.text, e.tx])).toEqual([['n3', 3], ['n4', 4], ['n5', 5]]);
  });
});

describe('commands the engine refuses', () => {
  it('unknown commands, missing types, non-JSON and oversized payloads', () => {
    const s = scenario([]);
    expect(s.fail({ type: 'nope.nope' }).code).toBe('UNKNOWN_COMMAND');
    expect(s.fail({} as unknown as Command).code).toBe('INVALID_COMMAND');
    expect(s.fail(null as unknown as Command).code).toBe('INVALID_COMMAND');
    expect(s.fail({ type: 'table.rename', name: Number.NaN } as unknown as Command).code).toBe('INVALID_COMMAND');
    expect(s.fail({ type: 'table.rename', name: new Date(0) } as unknown as Command).code).toBe('INVALID_COMMAND');
    expect(s.fail({ type: 'table.rename', name: 'x'.repeat(70_000) }).code).toBe('LIMIT_EXCEEDED');
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(s.fail({ type: 'table.rename', name: deep } as Command).code).toBe('INVALID_COMMAND');
    expect(s.table.transactions).toHaveLength(0);
  });
  it('decide() alone does not apply anything and reports unknown commands', () => {
    const e = createEngine([coreModule]);
    const t = e.createTable({ tableId: 't', name: 'n', rulesetId: 'r' });
    const r = e.decide(t.world, { type: 'table.rename', name: 'B' }, { rng: seededRng(1), actor: GM });
    expect(r).toEqual({ ok: true, value: [{ type: 'table.renamed', name: 'B', from: 'n' }] });
    expect(e.decide(t.world, { type: 'x' }, { rng: seededRng(1), actor: GM }).ok).toBe(false);
    expect(e.evolve(t.world, { type: 'unheard.of' })).toBe(t.world);
  });
  it('a reaction loop is a typed REACTION_LOOP error, not a hang', () => {
    const s = scenario([loopModule]);
    const e = s.fail({ type: 'loop.start' });
    expect(e.code).toBe('REACTION_LOOP');
    expect(e.message).toContain(String(MAX_REACTION_DEPTH));
    expect(s.table.transactions).toHaveLength(0);
  });
  it('refuses duplicate command handlers and module ids at construction', () => {
    expect(() => createEngine([coreModule, coreModule])).toThrow(/twice/);
    expect(() => createEngine([coreModule, { id: 'other', commands: { 'table.rename': coreModule.commands!['table.rename']! } }])).toThrow(/both/);
  });
});

describe('transactions, reactions and the log', () => {
  it('one command is one transaction with its reactions, stamped on the log', () => {
    const s = scenario([diceyModule], { rng: { kind: 'seeded', die: () => 4, snapshot: () => null } });
    const tx = s.run({ type: 'dicey.roll', sides: 6 });
    expect(tx.kind === 'command' && tx.events.map((e) => e.type)).toEqual(['dicey.rolled', 'dice.echoed', 'clock.advanced']);
    expect(s.world.clock.counts.actionRoll).toBe(1);
    expect(s.world.log.every((e) => e.tx === 1)).toBe(true);
  });
});

describe('undo and redo', () => {
  it('undo removes the command and everything it caused; redo restores it exactly', () => {
    const s = scenario([diceyModule], { rng: { kind: 'seeded', die: () => 2, snapshot: () => null } });
    s.run({ type: 'table.rename', name: 'A' });
    const before = JSON.stringify(s.world);
    s.run({ type: 'dicey.roll', sides: 6 });
    const after = JSON.stringify(s.world);
    const u = s.undo();
    expect(u).toEqual({ seq: 3, kind: 'undo', actor: GM, target: 2 });
    expect(JSON.stringify(s.world)).toBe(before);
    s.redo();
    expect(JSON.stringify(s.world)).toBe(after);
    expect(s.table.live.toArray()).toEqual([1, 2]);
    expect(s.table.transactions.map((t) => t.kind)).toEqual(['command', 'command', 'undo', 'redo']);
  });
  it('nothing to undo or redo are typed errors; a new command clears redo', () => {
    const s = scenario([]);
    expect(s.fail({ type: 'history.undo' }).code).toBe('NOTHING_TO_UNDO');
    expect(s.fail({ type: 'history.redo' }).code).toBe('NOTHING_TO_REDO');
    s.run({ type: 'table.rename', name: 'A' });
    s.undo();
    expect(s.view(GM)).toMatchObject({ canRedo: true, redoLabel: 'rename the table' });
    s.run({ type: 'table.rename', name: 'B' });
    expect(s.fail({ type: 'history.redo' }).code).toBe('NOTHING_TO_REDO');
    expect(s.view(GM).canRedo).toBe(false);
  });
  it('undo and redo are declared (relative: never resent after a conflict); an unknown key is INVALID_VALUE naming it, and nothing is undone (ADR 47)', () => {
    const s = scenario([]);
    const engine = createEngine([coreModule]);
    expect(engine.catalog.filter((d) => d.type === 'history.undo' || d.type === 'history.redo').map((d) => [d.type, d.kind, d.who, d.kind === 'command' && d.relative === true])).toEqual([
      ['history.undo', 'command', 'anyone', true],
      ['history.redo', 'command', 'anyone', true],
    ]);
    expect(relativeCommands(engine.catalog)).toEqual(['history.redo', 'history.undo']);
    s.run({ type: 'table.rename', name: 'A' });
    const before = JSON.stringify(s.world);
    const e = s.fail({ type: 'history.undo', steps: 2 } as Command);
    expect([e.code, e.path, e.message]).toEqual(['INVALID_VALUE', 'steps', 'steps: is not a field here (objects are strict: check the spelling)']);
    expect(JSON.stringify(s.world)).toBe(before);
    s.undo();
    expect(s.fail({ type: 'history.redo', all: true } as Command)).toMatchObject({ code: 'INVALID_VALUE', path: 'all' });
    expect(s.view(GM).canRedo).toBe(true);
  });
  it('a player may undo only their own last live command; the GM anything', () => {
    const s = seated();
    s.run({ type: 'dicey.roll', sides: 20 }, ann);
    expect(s.view(ann)).toMatchObject({ canUndo: true, undoLabel: 'roll a die' });
    expect(s.view(bob)).toMatchObject({ canUndo: false, undoLabel: null });
    expect(s.view(spectator).canUndo).toBe(false);
    expect(s.fail({ type: 'history.undo' }, bob).code).toBe('FORBIDDEN');
    expect(s.fail({ type: 'history.undo' }, spectator).code).toBe('FORBIDDEN');
    s.undo(ann);
    expect(s.view(ann)).toMatchObject({ canRedo: true, redoLabel: 'roll a die' });
    expect(s.fail({ type: 'history.redo' }, bob).code).toBe('FORBIDDEN');
    s.redo(ann);
    s.run({ type: 'table.rename', name: 'GM was here' });
    expect(s.fail({ type: 'history.undo' }, ann).code).toBe('FORBIDDEN');
    s.undo(GM);
    s.undo(GM);
    expect(s.world.log.some((e) => e.kind === 'dicey.rolled')).toBe(false);
  });
  it('replay of every transaction (undo and redo included) reproduces the table byte for byte', () => {
    const s = seated();
    s.run({ type: 'dicey.roll', sides: 6 }, ann);
    s.run({ type: 'secret.add' });
    s.undo();
    s.run({ type: 'clock.advance', unit: 'round' });
    s.undo();
    s.redo();
    const again = s.engine.replay(s.table.genesis, JSON.parse(JSON.stringify(s.table.transactions)));
    expect(JSON.stringify(again)).toBe(JSON.stringify(s.table));
  });
  it('apply refuses transactions out of order', () => {
    const s = scenario([]);
    s.run({ type: 'table.rename', name: 'A' });
    const tx = s.table.transactions.at(0)!;
    expect(() => s.engine.apply(s.table, tx)).toThrow(/out of order/);
  });
});

describe('views', () => {
  it('history drops hidden transactions entirely and hides other actors’ commands', () => {
    const s = seated();
    s.run({ type: 'secret.add' });
    s.run({ type: 'dicey.roll', sides: 6 }, ann);
    s.undo(GM);
    const hv = s.view(bob).history;
    expect(hv.map((h) => h.kind)).toEqual(['command', 'command', 'command', 'undo']);
    expect(hv[2]).toMatchObject({ label: 'roll a die', actor: ann });
    expect(hv[2]!.command).toBeUndefined();
    expect(s.view(ann).history[2]!.command).toEqual({ type: 'dicey.roll', sides: 6 });
    expect(hv[3]).toMatchObject({ label: 'undo: roll a die', target: 4 });
    expect(JSON.stringify(s.view(bob))).not.toContain(CANARY);
    expect(s.view(GM).history).toHaveLength(5);
    expect(s.view(bob).version).toBe(5);
  });
  it('an event keeps the audience it had when it happened: a later reveal does not expose the hidden past', () => {
    const s = seated();
    const hidden = idOf(s.run({ type: 'character.add', name: CANARY, visibility: 'hidden', stats: { hp: 3 } }));
    s.run({ type: 'character.update', id: hidden, stats: { hp: 1 } });
    s.run({ type: 'character.update', id: hidden, visibility: 'visible', name: 'Revealed' });
    const tx = s.table.transactions.at(2)!;
    expect(tx.kind === 'command' && tx.audiences).toEqual([{ kind: 'gm' }]);
    const hv = s.view(ann).history;
    expect(hv.map((h) => h.seq)).toEqual([1, 2, 5]);
    expect(JSON.stringify(s.view(ann))).not.toContain(CANARY);
    // Removing a hidden character is judged while it exists, so it stays GM-only.
    const lurker = idOf(s.run({ type: 'character.add', name: 'Lurker', visibility: 'hidden' }));
    s.run({ type: 'character.remove', id: lurker });
    expect(s.view(ann).history.map((h) => h.seq)).toEqual([1, 2, 5]);
  });
  it('transactions stored without audiences fall back to the modules’ audience hooks', () => {
    const s = seated();
    s.run({ type: 'secret.add' });
    const legacy = s.table.transactions.map((t) => (t.kind === 'command' ? { seq: t.seq, kind: t.kind, actor: t.actor, command: t.command, events: t.events } : t));
    const t = s.engine.replay(s.table.genesis, legacy);
    expect(s.engine.view(t, ann).history.map((h) => h.seq)).toEqual([1, 2]);
    expect(s.engine.view(t, GM).history.map((h) => h.seq)).toEqual([1, 2, 3]);
  });
  it('canSee and audienceAllows follow the four tiers', () => {
    expect(canSee('hidden', GM)).toBe(true);
    expect(canSee('hidden', ann)).toBe(false);
    expect(canSee('existence', ann)).toBe(false);
    expect(canSee('visible', spectator)).toBe(true);
    expect(canSee('reveal-on-trigger', ann)).toBe(false);
    expect(canSee('reveal-on-trigger', ann, true)).toBe(true);
    expect(audienceAllows({ kind: 'seat', seatId: 'seat-1' }, ann)).toBe(true);
    expect(audienceAllows({ kind: 'seat', seatId: 'seat-1' }, bob)).toBe(false);
    expect(audienceAllows({ kind: 'seat', seatId: 'seat-1' }, spectator)).toBe(false);
    expect(audienceAllows({ kind: 'gm' }, GM)).toBe(true);
    expect(audienceAllows({ kind: 'gm' }, ann)).toBe(false);
  });
});
