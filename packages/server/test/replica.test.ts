// Issue 22 (ADR 54): an instance that does not own a table keeps a replica by
// following the owner's committed transactions over the bus, and shows its own
// sockets exactly what the owner would. Over random command sequences in all
// five rulesets (undo and redo among them), the commits go through a bus (its
// encode/decode, as NATS carries them), some announcements are lost, and after
// every step the replica's views for the GM, each seat and a spectator equal
// the owner's, and the replica's phones, folding their frames, hold them too.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Command, TableView, Transaction, Viewer, World } from '@tablekeeper/engine';
import { createTableFor, engineFor, rulesetIds } from '@tablekeeper/rulesets';
import { openSqliteStore, Room, type RoomLimits } from '../src/index.js';
import { LocalBus, LocalHub } from '../src/bus/local.js';
import type { Committed } from '../src/bus/port.js';
import { sameJson } from '../src/deltas.js';
import { commandArb } from './fixtures/command-arbs.js';
import { Phone } from './fixtures/phone.js';
import { openSeatedRoom } from './fixtures/rooms.js';
import { tempDir } from './helpers.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const store = openSqliteStore(`${dir.dir}/replica.sqlite`);
afterAll(() => store.close());

const LIMITS: RoomLimits = { maxTransactions: 10_000, maxSessions: 50, snapshotEvery: 5, historyWindow: 4, historyScan: 9 };

const plain = (v: TableView): unknown => JSON.parse(JSON.stringify(v));

type Step = { kind: 'command'; make: (w: World) => Command; lost: boolean } | { kind: 'undo' | 'redo'; lost: boolean };

const stepArb = (rulesetId: string): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(commandArb(rulesetId), fc.nat(9)).map(([make, n]): Step => ({ kind: 'command', make, lost: n === 0 })) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom<'undo' | 'redo'>('undo', 'redo'), fc.nat(9)).map(([kind, n]): Step => ({ kind, lost: n === 0 })) },
  );

let tableSeq = 0;

async function play(rulesetId: string, seed: number, steps: readonly Step[]): Promise<string[]> {
  const tableId = `r${++tableSeq}`;
  const { room: owner, engine, seats: [a, b] } = openSeatedRoom(store, rulesetId, { tableId, name: 'Replica', seed, limits: LIMITS });
  const gm: Viewer = { role: 'gm' };
  // The other instance opens the table from the shared store, as it stands now, and then follows the bus.
  const replica = Room.load(store, engine, store.getTable(tableId)!, LIMITS);
  const viewers: Viewer[] = [gm, { role: 'player', seatId: a }, { role: 'player', seatId: b }, { role: 'spectator' }];
  const phones = viewers.map((v) => new Phone(v));
  for (const p of phones) replica.join(p);

  const hub = new LocalHub();
  const onOwner = new LocalBus(hub);
  const onReplica = new LocalBus(hub);
  const problems: string[] = [];
  let lose = false;
  onReplica.onCommitted(tableId, (c) => {
    if (lose) return;
    // As the shared mode will: apply what follows, and read a gap from the store before going on.
    let r = replica.follow(c.version, JSON.parse(c.tx) as Transaction);
    if (r === 'gap') {
      for (const row of store.readLog(tableId, replica.version)) if (row.version < c.version) replica.follow(row.version, row.transaction);
      r = replica.follow(c.version, JSON.parse(c.tx) as Transaction);
    }
    if (r !== 'applied') problems.push(`version ${c.version} was ${r} on a replica at ${replica.version}`);
    replica.broadcast();
  });
  await onReplica.ready();
  const publish = async (version: number, transaction: Transaction, lost: boolean): Promise<void> => {
    const msg: Committed = { tableId, version, commandId: null, actorKey: 'gm', tx: JSON.stringify(transaction) };
    lose = lost;
    await onOwner.publishCommitted(msg);
    // Delivery is a microtask on the in-process bus: let it run before the next step.
    await new Promise((r) => setTimeout(r, 0));
    lose = false;
  };

  for (const [i, step] of steps.entries()) {
    const command: Command = step.kind === 'command' ? step.make(owner.table.world) : { type: step.kind === 'undo' ? 'history.undo' : 'history.redo' };
    const r = owner.submit(gm, `c${i}`, owner.version, command);
    if (!r.ok || r.duplicate || r.transaction === undefined) continue;
    await publish(r.version, r.transaction, step.lost);
  }
  // A last announcement (never lost) brings a replica that missed the end up to date, through the store.
  const last = owner.submit(gm, 'last', owner.version, { type: 'log.note', text: 'the end' });
  if (last.ok && last.transaction !== undefined) await publish(last.version, last.transaction, false);

  if (replica.version !== owner.version) problems.push(`replica at ${replica.version}, owner at ${owner.version}`);
  for (const v of viewers) {
    if (!sameJson(plain(replica.view(v)), plain(owner.view(v)))) problems.push(`${JSON.stringify(v)}: the replica's view differs from the owner's`);
  }
  for (const p of phones) {
    problems.push(...p.problems);
    if (p.version !== replica.version || !sameJson(p.view, plain(replica.view(p.viewer)))) problems.push(`phone ${JSON.stringify(p.viewer)} folded to a view other than the replica's`);
  }
  await onOwner.close();
  await onReplica.close();
  return problems;
}

describe('a replica that follows the bus shows what the owner shows', () => {
  for (const rulesetId of rulesetIds) {
    it(`${rulesetId}: random commands, undo and redo, lost announcements`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(1_000_000), fc.array(stepArb(rulesetId), { minLength: 1, maxLength: 25 }), async (seed, steps) => {
          expect(await play(rulesetId, seed, steps)).toEqual([]);
        }),
        { numRuns: 15 },
      );
    });
  }

  it('a follow of a version it already has is "known", and one past a gap is "gap" (nothing applied)', () => {
    const engine = engineFor('osr')!;
    const made = createTableFor('osr', { tableId: 'r-direct', name: 'Direct' });
    if (!made.ok) throw new Error(made.error.message);
    store.createTable({ tableId: 'r-direct', name: 'Direct', rulesetId: 'osr', genesis: made.value.genesis, createdAt: 0 }, []);
    const owner = Room.load(store, engine, store.getTable('r-direct')!, LIMITS);
    const replica = Room.load(store, engine, store.getTable('r-direct')!, LIMITS);
    const one = owner.submit({ role: 'gm' }, null, 0, { type: 'log.note', text: 'one' });
    const two = owner.submit({ role: 'gm' }, null, 1, { type: 'log.note', text: 'two' });
    if (!one.ok || !two.ok) throw new Error('setup');
    expect(replica.follow(2, two.transaction!)).toBe('gap');
    expect(replica.version).toBe(0);
    expect(replica.follow(1, one.transaction!)).toBe('applied');
    expect(replica.follow(1, one.transaction!)).toBe('known');
    expect(replica.follow(2, two.transaction!)).toBe('applied');
    expect(replica.table.world).toEqual(owner.table.world);
  });
});
