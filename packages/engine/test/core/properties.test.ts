// Properties over random command sequences (valid and invalid, GM and players):
// replay reproduces the table, undo removes every effect, redo restores it,
// tables survive JSON, and no non-GM view ever carries a GM-only canary.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, ownTable, type Command, type PlainTable, type Table, type Transaction, type Viewer } from '../../src/core/index.js';
import { CANARY, diceyModule } from './fixtures.js';

const engine = createEngine([coreModule, diceyModule]);
const GM: Viewer = { role: 'gm' };
const seats = ['seat-1', 'seat-2', 'seat-9'];

const actor: fc.Arbitrary<Viewer> = fc.oneof(
  fc.constant<Viewer>(GM),
  fc.constantFrom(...seats).map((seatId): Viewer => ({ role: 'player', seatId })),
  fc.constant<Viewer>({ role: 'spectator' }),
);

const charId = fc.integer({ min: 1, max: 12 }).map((n) => `ch-${n}`);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.string({ maxLength: 8 }).map((name): Command => ({ type: 'table.rename', name })),
  fc.constant<Command>({ type: 'seat.add', name: 'Ann' }),
  fc.constantFrom(...seats).map((id): Command => ({ type: 'seat.remove', id })),
  fc.record({ vis: fc.constantFrom('hidden', 'existence', 'visible', 'reveal-on-trigger'), hp: fc.integer({ min: 0, max: 30 }) }).map(
    ({ vis, hp }): Command => ({ type: 'character.add', name: vis === 'hidden' ? `${CANARY} hidden` : 'Public name', visibility: vis, stats: { hp, note: vis === 'visible' ? 'plain' : CANARY } }),
  ),
  fc.record({ id: charId, hp: fc.integer({ min: -5, max: 30 }) }).map(({ id, hp }): Command => ({ type: 'character.update', id, stats: { hp } })),
  charId.map((id): Command => ({ type: 'character.remove', id })),
  fc.record({ unit: fc.constantFrom('turn', 'round', 'shortRest', 'time', 'eon'), seconds: fc.integer({ min: -1, max: 100 }) }).map(({ unit, seconds }): Command => ({ type: 'clock.advance', unit, seconds })),
  fc.constantFrom<Command>({ type: 'log.note', text: `${CANARY} gm note`, audience: { kind: 'gm' } }, { type: 'log.note', text: 'hello' }),
  fc.integer({ min: 1, max: 12 }).map((sides): Command => ({ type: 'dicey.roll', sides })),
  fc.constant<Command>({ type: 'secret.add' }),
  fc.constant<Command>({ type: 'history.undo' }),
  fc.constant<Command>({ type: 'history.redo' }),
  fc.constant<Command>({ type: 'no.such' }),
);

const steps = fc.array(fc.tuple(command, actor), { maxLength: 40 });
const json = (v: unknown) => JSON.stringify(v);

function play(list: readonly [Command, Viewer][], seed: number, each?: (before: Table, after: Table, c: Command, a: Viewer) => void): Table {
  const rng = seededRng(seed);
  let t = engine.createTable({ tableId: 't', name: 'Prop', rulesetId: 'test' });
  for (const [c, a] of list) {
    const r = engine.execute(t, c, { rng, actor: a });
    if (!r.ok) continue;
    each?.(t, r.value.table, c, a);
    t = r.value.table;
  }
  return t;
}

describe('engine properties', () => {
  it('replay(genesis, transactions) reproduces the live table byte for byte, also after a JSON round-trip', () => {
    fc.assert(
      fc.property(steps, fc.integer(), (list, seed) => {
        const t = play(list, seed);
        expect(json(engine.replay(t.genesis, t.transactions))).toBe(json(t));
        const parsed = JSON.parse(json(t)) as Table;
        expect(json(engine.replay(parsed.genesis, parsed.transactions))).toBe(json(t));
      }),
      { numRuns: 150 },
    );
  });

  it('a snapshot (the table as JSON at any version) continued with apply() reaches the same table', () => {
    fc.assert(
      fc.property(steps, fc.integer(), fc.nat(), (list, seed, cut) => {
        const t = play(list, seed);
        const k = t.transactions.length === 0 ? 0 : cut % (t.transactions.length + 1);
        let snap = JSON.parse(json(engine.replay(t.genesis, t.transactions.slice(0, k)))) as Table;
        for (const tx of t.transactions.slice(k)) snap = engine.apply(snap, JSON.parse(json(tx)) as Transaction);
        expect(json(snap)).toBe(json(t));
      }),
      { numRuns: 100 },
    );
  });

  it('undo restores the world before the command (log included); redo restores the world after it', () => {
    fc.assert(
      fc.property(steps, fc.integer(), (list, seed) => {
        play(list, seed, (before, after, c) => {
          if (c.type === 'history.undo' || c.type === 'history.redo') return;
          const u = engine.execute(after, { type: 'history.undo' }, { rng: seededRng(0), actor: GM });
          if (!u.ok) throw new Error(u.error.message);
          expect(json(u.value.table.world)).toBe(json(before.world));
          const r = engine.execute(u.value.table, { type: 'history.redo' }, { rng: seededRng(0), actor: GM });
          if (!r.ok) throw new Error(r.error.message);
          expect(json(r.value.table.world)).toBe(json(after.world));
        });
      }),
      { numRuns: 100 },
    );
  });

  it('no player or spectator view (world, log, history, labels) contains a GM-only canary', () => {
    fc.assert(
      fc.property(steps, fc.integer(), (list, seed) => {
        const check = (t: Table) => {
          for (const v of [{ role: 'spectator' } as Viewer, ...seats.map((seatId): Viewer => ({ role: 'player', seatId }))]) {
            expect(json(engine.view(t, v))).not.toContain(CANARY);
          }
        };
        const t = play(list, seed, (_b, after) => check(after));
        check(t);
      }),
      { numRuns: 100 },
    );
  });

  it('any payload at all returns a typed error or a transaction, never a throw', () => {
    const types = ['table.rename', 'seat.add', 'seat.rename', 'seat.remove', 'character.add', 'character.update', 'character.remove', 'clock.advance', 'log.note', 'dicey.roll', 'dice.roll', 'history.undo', 'history.redo'];
    const payload = fc.oneof(
      fc.anything(),
      fc.record({ type: fc.constantFrom(...types) }).chain((base) => fc.dictionary(fc.constantFrom('name', 'id', 'unit', 'count', 'seconds', 'text', 'audience', 'stats', 'visibility', 'seatId', 'kind', 'sides', 'notation', 'label'), fc.anything(), { maxKeys: 5 }).map((d) => ({ ...d, ...base }))),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(payload, actor), { maxLength: 15 }), (list) => {
        let t = engine.createTable({ tableId: 't', name: 'Fuzz', rulesetId: 'test' });
        const rng = seededRng(3);
        for (const [c, a] of list) {
          const r = engine.execute(t, c as Command, { rng, actor: a });
          if (r.ok) t = r.value.table;
          else expect(typeof r.error.code).toBe('string');
        }
        expect(json(engine.replay(t.genesis, t.transactions))).toBe(json(t));
      }),
      { numRuns: 200 },
    );
  });

  it('the canary is really planted: the GM view shows it whenever a secret exists', () => {
    const t = play([[{ type: 'secret.add' }, GM], [{ type: 'character.add', name: `${CANARY} x`, visibility: 'hidden' }, GM]], 1);
    expect(json(engine.view(t, GM)).split(CANARY).length).toBeGreaterThan(3);
  });

  it('a table survives a JSON round trip: the copy rebuilds to the same JSON and the same views', () => {
    fc.assert(
      fc.property(steps, fc.integer(), (list, seed) => {
        const t = play(list, seed);
        const back = ownTable(JSON.parse(json(t)) as PlainTable);
        expect(json(back)).toBe(json(t));
        expect(engine.view(back, GM)).toStrictEqual(engine.view(t, GM));
      }),
      { numRuns: 50 },
    );
  });
});
