// The engine writes tables out field by field where a spread would cost (ADR 109): execute, emptyTable, ownTable.
// A field added to Table must not be dropped there. The guard is a type (EveryField, checked by tsc over this file
// too); the tests below show it refuses what it must, and that every way to a table gives the same fields.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/dice/rng.js';
import { coreModule, createEngine, emptyTable, genesisWorld, ownTable, SeqStack, TransactionLog, type EveryField, type Table, type Viewer } from '../../src/core/index.js';

const engine = createEngine([coreModule]);
const GM: Viewer = { role: 'gm' };

describe('EveryField', () => {
  it('refuses a written-out table without one of its fields, and one that misses a new optional field', () => {
    const genesis = genesisWorld({ tableId: 't', name: 'T', rulesetId: 'core' });
    const whole = { genesis, world: genesis, transactions: TransactionLog.empty(), live: SeqStack.empty(), redoable: SeqStack.empty() } satisfies EveryField<Table>;
    // @ts-expect-error the redo stack is missing
    const noRedo = { genesis, world: genesis, transactions: TransactionLog.empty(), live: SeqStack.empty() } satisfies EveryField<Table>;
    // A field a later change adds as optional is still demanded where a table is written out.
    interface Later extends Table {
      readonly snapshotAt?: number;
    }
    // @ts-expect-error snapshotAt is not carried
    const forgot = { ...whole } satisfies EveryField<Later>;
    const carried = { ...whole, snapshotAt: undefined } satisfies EveryField<Later>;
    expect(Object.keys(whole).sort()).toEqual(['genesis', 'live', 'redoable', 'transactions', 'world']);
    expect(Object.keys(noRedo)).not.toContain('redoable');
    expect(Object.keys(forgot)).not.toContain('snapshotAt');
    expect(Object.keys(carried)).toContain('snapshotAt');
  });
});

describe('the tables the engine writes out', () => {
  it('carry the same fields as the tables apply and undo build by spreading', () => {
    const fields = (t: object) => Object.keys(t).sort();
    const made = engine.createTable({ tableId: 't', name: 'T', rulesetId: 'core' });
    const first = engine.execute(made, { type: 'log.note', text: 'one' }, { rng: seededRng(1), actor: GM });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const executed = first.value.table;
    const undone = engine.execute(executed, { type: 'history.undo' }, { rng: seededRng(2), actor: GM });
    expect(undone.ok).toBe(true);
    if (!undone.ok) return;
    const applied = engine.apply(made, first.value.transaction);
    const owned = ownTable(JSON.parse(JSON.stringify(executed)) as Table);
    const expected = fields(emptyTable(made.genesis));
    expect(expected).toEqual(['genesis', 'live', 'redoable', 'transactions', 'world']);
    for (const t of [made, executed, undone.value.table, applied, owned]) expect(fields(t)).toEqual(expected);
    // The written-out table is the one apply gives for the same transaction.
    expect(JSON.stringify(executed)).toBe(JSON.stringify(applied));
    expect(JSON.stringify(owned)).toBe(JSON.stringify(executed));
  });
});
