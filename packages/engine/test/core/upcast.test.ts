// The upcaster (ADR 28): a table written under a module's old names (its
// namespace, its events' field names) replays, undoes and answers exactly as
// one written under today's names, and an old client's command type still runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, createUpcaster, ok, withUpcasts, type Command, type EngineEvent, type Json, type Module, type PlainTable, type Table, type Transaction, type Viewer, type World } from '../../src/core/index.js';

const GM: Viewer = { role: 'gm' };

/** A tally: `tally.add` adds its amount (and a die) under a name; today's names are `tally.*` with `amount`, they were `old.*` with `n`. */
const tally: Module = withUpcasts<Module>(
  {
    id: 'tally',
    commands: {
      'tally.add': {
        label: 'add to the tally',
        decide: (_w, c, env) => ok([{ type: 'tally.added', name: String(c['name'] ?? 'x'), amount: Number(c['amount'] ?? 1), die: env.rng.die(6) }]),
      },
    },
    reducers: {
      'tally.added': (w, e) => {
        const prev = (w.ext['tally'] ?? {}) as { [k: string]: number };
        const key = String(e['name']);
        return { ...w, ext: { ...w.ext, tally: { ...prev, [key]: (Object.hasOwn(prev, key) ? prev[key]! : 0) + Number(e['amount']) + Number(e['die']) } } };
      },
    },
    queries: { 'tally.total': (w, args) => ok(((w.ext['tally'] ?? {}) as { [k: string]: Json })[String(args['name'])] ?? 0) },
  },
  { namespaces: { 'old.': 'tally.' }, eventFields: { 'tally.added': { n: 'amount' } } },
);
const engine = createEngine([coreModule, tally]);

/** The transaction as a client of the old names wrote it. */
function asOld(tx: Transaction): Transaction {
  if (tx.kind !== 'command') return tx;
  const old = (t: string) => t.replace(/^tally\./, 'old.');
  const events = tx.events.map((e): EngineEvent => (e.type === 'tally.added' ? { ...Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'amount')), type: old(e.type), n: e['amount'] } : e));
  return { ...tx, command: { ...tx.command, type: old(tx.command.type) }, events };
}

function play(commands: readonly Command[], seed: number): Table {
  let t: Table = engine.createTable({ tableId: 't', name: 'Tally', rulesetId: 'x' });
  const rng = seededRng(seed);
  for (const c of commands) {
    const r = engine.execute(t, c, { rng, actor: GM });
    if (r.ok) t = r.value.table;
  }
  return t;
}

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ name: fc.constantFrom('a', 'b', '__proto__', 'constructor'), amount: fc.integer({ min: -5, max: 9 }) }).map((x): Command => ({ type: 'tally.add', ...x })),
  fc.constant<Command>({ type: 'history.undo' }),
  fc.constant<Command>({ type: 'history.redo' }),
);

describe('the upcaster', () => {
  it('an old client’s command type runs under today’s name, and is stored under it', () => {
    const t = play([], 1);
    const r = engine.execute(t, { type: 'old.add', name: 'a', amount: 2 }, { rng: seededRng(2), actor: GM });
    expect(r.ok).toBe(true);
    if (!r.ok || r.value.transaction.kind !== 'command') return;
    expect(r.value.transaction.command.type).toBe('tally.add');
    expect(r.value.transaction.events.map((e) => e.type)).toEqual(['tally.added']);
    expect(engine.query(r.value.table, GM, 'old.total', { name: 'a' })).toEqual(engine.query(r.value.table, GM, 'tally.total', { name: 'a' }));
    expect(engine.decide(t.world, { type: 'old.add', name: 'a', amount: 2 }, { rng: seededRng(2), actor: GM })).toEqual(engine.decide(t.world, { type: 'tally.add', name: 'a', amount: 2 }, { rng: seededRng(2), actor: GM }));
  });

  it('a type outside every renamed namespace is left alone, and an unknown one is still refused by its own name', () => {
    const up = createUpcaster([tally]);
    expect(up.type('old.add')).toBe('tally.add');
    expect(up.type('older.add')).toBe('older.add');
    expect(up.type('old')).toBe('old');
    const e: EngineEvent = { type: 'seat.added', id: 's', n: 3 };
    expect(up.event(e)).toBe(e);
    expect(engine.execute(play([], 1), { type: 'old.nothing' }, { rng: seededRng(1), actor: GM })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'no module handles tally.nothing' } });
  });

  it('renamed event fields: the old name moves to the new one; a field already under the new name wins; __proto__ stays a plain key', () => {
    const up = createUpcaster([tally]);
    expect(up.event({ type: 'old.added', name: 'a', n: 4, die: 1 })).toEqual({ type: 'tally.added', name: 'a', amount: 4, die: 1 });
    expect(up.event({ type: 'tally.added', name: 'a', n: 4, amount: 5, die: 1 })).toEqual({ type: 'tally.added', name: 'a', amount: 5, die: 1 });
    const odd = JSON.parse('{"type":"old.added","__proto__":{"polluted":1},"n":2}') as EngineEvent;
    const u = up.event(odd);
    expect(Object.getPrototypeOf(u)).toBe(Object.prototype);
    expect(Object.hasOwn(u, '__proto__')).toBe(true);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it('records inside an event (ADR 39): read after the type and field renames, the same event back when nothing is old; two readers of one type are a programming error', () => {
    const withHeals = withUpcasts<Module>({ id: 'heals' }, {
      namespaces: { 'was.': 'rest.' },
      eventRecords: {
        'rest.rested': (e) => {
          const heals = e['heals'] as { [k: string]: Json }[];
          if (!heals.some((h) => Object.hasOwn(h, 'id'))) return e;
          return { ...e, heals: heals.map(({ id, ...h }) => (id === undefined ? h : { characterId: id, ...h })) };
        },
      },
    });
    const up = createUpcaster([withHeals]);
    expect(up.active).toBe(true);
    expect(up.event({ type: 'was.rested', heals: [{ id: 'a', to: 3 }] })).toEqual({ type: 'rest.rested', heals: [{ characterId: 'a', to: 3 }] });
    const today: EngineEvent = { type: 'rest.rested', heals: [{ characterId: 'a', to: 3 }] };
    expect(up.event(today)).toBe(today);
    expect(() => createUpcaster([withHeals, withUpcasts<Module>({ id: 'again' }, { eventRecords: { 'rest.rested': (e) => e } })])).toThrow('again: the records of rest.rested are upcast twice');
  });

  it('a module renaming a prefix without its dot, or one prefix two ways, is a programming error named at engine creation', () => {
    expect(() => createUpcaster([withUpcasts<Module>({ id: 'bad' }, { namespaces: { old: 'new.' } })])).toThrow('bad: namespace renames map prefixes ending in a dot ("old" -> "new.")');
    expect(() => createUpcaster([tally, withUpcasts<Module>({ id: 'two' }, { namespaces: { 'old.': 'other.' } })])).toThrow('two: "old." is renamed twice');
  });

  it('property: a table recorded under the old names replays, is viewed and undoes exactly as the one recorded under today’s', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 25 }), fc.integer({ min: 1, max: 1_000 }), (commands, seed) => {
        const now = play(commands, seed);
        const oldTxs = [...now.transactions].map(asOld);
        const replayed = engine.replay(now.genesis, oldTxs);
        expect(replayed.world).toEqual(now.world);
        expect([...replayed.transactions]).toEqual([...now.transactions]);
        expect(engine.view(replayed, GM)).toEqual(engine.view(now, GM));
        // A log rebuilt from stored rows without apply (a snapshot's) still undoes through today's reducers.
        const plain: PlainTable = { genesis: now.genesis, world: now.world, transactions: oldTxs, live: now.live.toArray(), redoable: now.redoable.toArray() };
        expect(engine.view(plain, GM)).toEqual(engine.view(now, GM));
        const a = engine.execute(plain, { type: 'history.undo' }, { rng: seededRng(1), actor: GM });
        const b = engine.execute(now, { type: 'history.undo' }, { rng: seededRng(1), actor: GM });
        expect(a.ok).toBe(b.ok);
        if (a.ok && b.ok) expect(a.value.table.world as World).toEqual(b.value.table.world);
      }),
      { numRuns: 60 },
    );
  });

  it('a table without renames reads its transactions as they are (the same objects)', () => {
    const plain = createEngine([coreModule]);
    const up = createUpcaster([coreModule]);
    expect(up.active).toBe(false);
    const r = plain.execute(plain.createTable({ tableId: 't', name: 'x', rulesetId: 'x' }), { type: 'seat.add', name: 'Ann' }, { rng: seededRng(1), actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    expect(up.transaction(r.value.transaction)).toBe(r.value.transaction);
  });

  it('settings keyed by a renamed namespace read under today\'s keys (a stored genesis); a key already new wins; nothing to rename is the same object', () => {
    const engine = createEngine([coreModule, tally]);
    const stored = engine.createTable({ tableId: 't', name: 'x', rulesetId: 'x', settings: { 'old.limit': 3, 'old.mode': 'a', 'tally.mode': 'b', other: 1 } }).genesis;
    const now = engine.upcastWorld(stored);
    expect(now.settings).toEqual({ 'tally.limit': 3, 'tally.mode': 'b', other: 1 });
    expect(stored.settings['old.limit']).toBe(3);
    expect(engine.upcastWorld(now)).toBe(now);
    // A replay starts from the genesis under today's keys.
    expect(engine.replay(stored, []).genesis.settings).toEqual(now.settings);
    const plain = createEngine([coreModule]);
    expect(plain.upcastWorld(stored)).toBe(stored);
  });
});
