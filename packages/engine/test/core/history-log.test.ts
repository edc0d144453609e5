// The append-only transaction log and the persistent undo / redo stacks:
// apply copies neither, so replay is linear; these check that the state is
// still exactly what a naive replay of the live transactions gives, and that
// older versions of a table never see later appends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import {
  coreModule,
  createEngine,
  emptyTable,
  ownTable,
  SeqStack,
  TransactionLog,
  UNDO_CHECKPOINT_EVERY,
  type Command,
  type PlainTable,
  type Table,
  type Transaction,
  type Viewer,
} from '../../src/core/index.js';
import { diceyModule, liveReplay } from './fixtures.js';

const engine = createEngine([coreModule, diceyModule]);
const GM: Viewer = { role: 'gm' };
const json = (v: unknown) => JSON.stringify(v);


const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }).map((sides): Command => ({ type: 'dicey.roll', sides })) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }).map((name): Command => ({ type: 'table.rename', name })) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'log.note', text: 'a note' }) },
  { weight: 1, arbitrary: fc.constant<Command>({ type: 'character.add', name: 'Ann', visibility: 'visible', stats: { hp: 3 } }) },
  { weight: 3, arbitrary: fc.constant<Command>({ type: 'history.undo' }) },
  { weight: 2, arbitrary: fc.constant<Command>({ type: 'history.redo' }) },
);

function run(t: Table, c: Command, seed: number): Table {
  const r = engine.execute(t, c, { rng: seededRng(seed), actor: GM });
  return r.ok ? r.value.table : t;
}

describe('transaction log and undo stacks', () => {
  it('after every transaction of a random session, the world equals a naive replay of the live transactions', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 300 }), fc.integer(), (list, seed) => {
        let t = engine.createTable({ tableId: 't', name: 'Log', rulesetId: 'test' });
        list.forEach((c, i) => {
          t = run(t, c, seed + i);
          expect(json(t.world)).toBe(json(liveReplay(engine, t)));
        });
        expect(json(engine.replay(t.genesis, t.transactions))).toBe(json(t));
      }),
      { numRuns: 60 },
    );
  });

  it(`undoing ${3 * UNDO_CHECKPOINT_EVERY + 5} commands one by one walks back through every earlier world, warm and after a JSON cold load`, () => {
    let t = engine.createTable({ tableId: 't', name: 'Deep', rulesetId: 'test' });
    const worlds: string[] = [json(t.world)];
    const n = 3 * UNDO_CHECKPOINT_EVERY + 5;
    for (let i = 0; i < n; i++) {
      t = run(t, i % 3 === 0 ? { type: 'log.note', text: `note ${i}` } : { type: 'dicey.roll', sides: 6 + (i % 7) }, i);
      worlds.push(json(t.world));
    }
    // A cold copy (as from a snapshot) has no kept worlds but the genesis: the first undo replays and rebuilds checkpoints.
    let cold = ownTable(JSON.parse(json(t)) as PlainTable);
    let warm = t;
    for (let k = n - 1; k >= 0; k--) {
      warm = run(warm, { type: 'history.undo' }, 0);
      cold = run(cold, { type: 'history.undo' }, 0);
      expect(json(warm.world)).toBe(worlds[k]);
      expect(json(cold.world)).toBe(worlds[k]);
    }
    expect(warm.live.length).toBe(0);
    expect(json(warm.world)).toBe(json(t.genesis));
    // And redo walks forward again to the last world.
    for (let k = 1; k <= n; k++) warm = run(warm, { type: 'history.redo' }, 0);
    expect(json(warm.world)).toBe(worlds[n]);
    expect(json(engine.replay(warm.genesis, warm.transactions))).toBe(json(warm));
  });

  it('a stack rebuilt from its seqs and its newest kept worlds (an import\'s snapshot) undoes to the same worlds as the live one, past the kept ones too', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 220 }), fc.integer(), fc.integer({ min: 0, max: 4 }), (list, seed, keep) => {
        let t = engine.createTable({ tableId: 't', name: 'Kept', rulesetId: 'test' });
        list.forEach((c, i) => (t = run(t, c, seed + i)));
        const kept = t.live.keptWorlds(keep);
        expect(kept.length).toBeLessThanOrEqual(keep);
        let rebuilt: Table = { ...t, live: SeqStack.from(t.live.toArray(), t.genesis, new Map(kept)) };
        expect(rebuilt.live.toArray()).toEqual(t.live.toArray());
        let live = t;
        // Undo may rewind everything the list did: walk the whole stack down.
        while (live.live.length > 0) {
          live = run(live, { type: 'history.undo' }, 0);
          rebuilt = run(rebuilt, { type: 'history.undo' }, 0);
          expect(json(rebuilt.world)).toBe(json(live.world));
        }
        expect(rebuilt.live.length).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('an older table version never sees later appends, and a second branch from it starts its own log', () => {
    const base = run(engine.createTable({ tableId: 't', name: 'Branch', rulesetId: 'test' }), { type: 'table.rename', name: 'Base' }, 1);
    const a = run(base, { type: 'table.rename', name: 'A' }, 2);
    const b = run(base, { type: 'log.note', text: 'B' }, 3);
    expect(base.transactions.length).toBe(1);
    expect(base.transactions.toArray().map((tx) => tx.kind === 'command' && tx.command.type)).toEqual(['table.rename']);
    expect(a.transactions.at(-1)?.kind === 'command' && a.transactions.at(-1)).toMatchObject({ command: { type: 'table.rename', name: 'A' } });
    expect(b.transactions.at(-1)?.kind === 'command' && b.transactions.at(-1)).toMatchObject({ command: { type: 'log.note', text: 'B' } });
    expect(a.world.name).toBe('A');
    expect(b.world.name).toBe('Base');
    expect(json(engine.replay(a.genesis, a.transactions))).toBe(json(a));
    expect(json(engine.replay(b.genesis, b.transactions))).toBe(json(b));
    // Undo on the base after both branches exist still restores the genesis.
    expect(run(base, { type: 'history.undo' }, 0).world.name).toBe('Branch');
  });

  it('a plain JSON table (a stored snapshot or a test copy) is accepted by apply and gives the same result as the live one', () => {
    let t = engine.createTable({ tableId: 't', name: 'Plain', rulesetId: 'test' });
    for (let i = 0; i < 10; i++) t = run(t, { type: 'dicey.roll', sides: 8 }, i);
    const tx: Transaction = { seq: 11, kind: 'undo', actor: GM, target: 10 };
    const plain = JSON.parse(json(t)) as PlainTable;
    expect(json(engine.apply(plain, tx))).toBe(json(engine.apply(t, tx)));
  });

  it('a redo or undo that does not match the stacks is refused with its seq', () => {
    const t = run(emptyTable(engine.createTable({ tableId: 't', name: 'X', rulesetId: 'test' }).genesis), { type: 'dicey.roll', sides: 4 }, 1);
    expect(() => engine.apply(t, { seq: 2, kind: 'undo', actor: GM, target: 5 })).toThrow(/undo 2 targets 5/);
    expect(() => engine.apply(t, { seq: 2, kind: 'redo', actor: GM, target: 1 })).toThrow(/redo 2 targets 1/);
  });

  it('the log and the stack read like arrays (at, slice, seqs oldest first) and store as plain arrays', () => {
    const log = TransactionLog.empty().append({ seq: 1, kind: 'undo', actor: GM, target: 1 }).append({ seq: 2, kind: 'redo', actor: GM, target: 1 });
    expect(log.length).toBe(2);
    expect(log.at(-1)?.seq).toBe(2);
    expect(log.bySeq(1)?.seq).toBe(1);
    expect(log.bySeq(3)).toBeUndefined();
    expect([...log.newestFirst()].map((t) => t.seq)).toEqual([2, 1]);
    expect(JSON.parse(json(log))).toHaveLength(2);
    const stack = SeqStack.empty().push(3).push(5).push(8).pop();
    expect(stack.toArray()).toEqual([3, 5]);
    expect(stack.top).toBe(5);
    expect(json(stack)).toBe('[3,5]');
  });
});
