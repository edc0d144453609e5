// One namespace per ruleset, equal to its id (issue 17, ADR 28): `tsw.*` became
// `36th-way.*` and `klepto.*` became `kleptonomicon.*`. Tables exported from
// main before the rename (fixtures/main-export/*.namespaces.jsonl, written by
// make-namespaces.ts) replay, re-decide and undo to the world main ended in,
// and an old client's command and query names still work.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUpcaster, seededRng, type Command, type EngineEvent, type Json, type PlainTable, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
import { engineFor } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };
const RENAMED = [
  { id: '36th-way', old: 'tsw.' },
  { id: 'kleptonomicon', old: 'klepto.' },
] as const;

function fixture(id: string): { genesis: World; txs: Transaction[]; world: World } {
  const dir = new URL('./fixtures/main-export/', import.meta.url);
  const lines = readFileSync(new URL(`${id}.namespaces.jsonl`, dir), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { [k: string]: Json });
  return {
    genesis: lines[0]!['genesis'] as unknown as World,
    txs: lines.slice(1).map((l) => l['transaction'] as unknown as Transaction),
    world: JSON.parse(readFileSync(new URL(`${id}.namespaces.world.json`, dir), 'utf8')) as World,
  };
}

/** Main's world under today's names: the log's entry kinds carry a type name, and settings keys a namespace. */
function renamedWorld(id: string, w: World): World {
  const up = createUpcaster(engineFor(id)!.modules);
  return up.world({ ...w, log: w.log.map((e) => ({ ...e, kind: up.type(e.kind) })) });
}

/** Log kinds that name a 36th Way ability: by its name since issue 20 (ADR 43), by its key before ("ward" for "Ward"). */
const ABILITY_LINES = new Set(['36th-way.sustain', '36th-way.recharge', '36th-way.restore']);

/**
 * A world without wording that came after the export: players' sentences (`shown`, ADR 33), the 36th Way's
 * ", back from dying" on a heal that ends dying (002), which the stored events already recorded as `revived`,
 * (ADR 43) an interrupted style's whole sentence and abilities named by name (compared without case), and
 * the Edge Save lines review 10 added.
 */
function withoutShown(w: World): World {
  return {
    ...w,
    // Review 10 logs each PC's Edge Saves (a line the export predates; its events already held the rolls); issue 20
    // logs the GM's ranges and sheet removals (their events were always stored).
    log: w.log.filter((e) => !LINES_ADDED_LATER.has(e.kind)).map(({ shown: _shown, ...e }) =>
      e.kind === '36th-way.healed'
        ? { ...e, text: healTail(e.text.replace(', back from dying.', '.')) }
        : e.kind === '36th-way.disengage' || e.kind === '36th-way.deathSave'
          ? // Review 9 (ADR 69) shows every die and the target as "N+": read back as the export's "natural N vs T".
            // Issue 20 names whom an ability popped the user free of.
            { ...e, text: e.text.replace(/(\d+d6(?: keep \w+ 3 \(\d+ \w+\))? \[[^\]]*\] = )(\d+) vs (\d+)\+(, first save with [^,]*)?/, 'natural $2 vs $3').replace(/ popped free( of [^(]*)? \(no disengage check\)\.$/, ' popped off.') }
          : e.kind === 'kleptonomicon.interrupted'
          ? // Review 13 says the rule's outcome in words: "; an interrupted walk brings no fall or drift, so X is unaffected."
            { ...e, text: e.text.replace(/; an interrupted \S+ brings no fall or drift, so .+ is unaffected\.$/, ': is unaffected.') }
          : ABILITY_LINES.has(e.kind)
            ? { ...e, text: issue20Words(e.text).toLowerCase() }
            : e,
    ),
  };
}

const LINES_ADDED_LATER = new Set(['kleptonomicon.edgeSaves', '36th-way.position', '36th-way.sheet']);

/** Issue 20's ability lines, read back as the export's: a Sustain roll's dice and target, downtime's plural and count. */
const issue20Words = (text: string): string =>
  text
    .replace(/ \(3d6 \[[^\]]*\] = \d+ vs \d+\+\)(: it ends with the turn)?\.$/, '.')
    .replace(/regains (\d+) recover(y|ies) after some downtime \(\d+ of \d+ now\)\./, 'regains $1 recovery(ies) after some downtime.');

/** The export's world with its ability lines compared without case (see withoutShown). */
function abilityLinesLower(w: World): World {
  return { ...w, log: w.log.map((e) => (ABILITY_LINES.has(e.kind) ? { ...e, text: e.text.toLowerCase() } : e.kind === '36th-way.healed' ? { ...e, text: healTail(e.text) } : e)) };
}

/** A heal's line from its "now N HP" on: ADR 51 names the recovery spent and its dice before it, which the export predates. */
const healTail = (text: string): string => text.replace(/^(\S+) .*?: now /, '$1: now ');

const types = (txs: Iterable<Transaction>): string[] => [...txs].flatMap((t) => (t.kind === 'command' ? [t.command.type, ...t.events.map((e) => e.type)] : []));

/**
 * Re-deciding runs today's rules, under which a fight's last round and a rest take time on the clock (ADR 44):
 * the clock and the clock lines' length are left out of the comparison (and checked to be ahead instead).
 */
function withoutTime(w: World): World {
  return { ...w, clock: { seconds: 0, counts: { ...w.clock.counts, round: 0 } }, log: w.log.map((e) => (e.kind === 'clock.advanced' ? { ...e, text: '', data: null } : e)) };
}

describe('withoutTime', () => {
  it('leaves out only the clock and its lines\' wording', () => {
    const w = { clock: { seconds: 18, counts: { round: 3, turn: 5 } }, log: [{ kind: 'clock.advanced', text: 'Time passes: 1 round, 6 seconds.', data: { seconds: 6 } }, { kind: 'log.note', text: 'hi' }] } as unknown as World;
    expect(withoutTime(w)).toEqual({ clock: { seconds: 0, counts: { round: 0, turn: 5 } }, log: [{ kind: 'clock.advanced', text: '', data: null }, { kind: 'log.note', text: 'hi' }] });
  });
});

describe.each(RENAMED)('$id tables exported before the namespace rename', ({ id, old }) => {
  const engine = engineFor(id)!;
  const f = fixture(id);

  it(`the export does use the old names (${old}*) for commands and events`, () => {
    const all = types(f.txs);
    expect(all.filter((t) => t.startsWith(old)).length).toBeGreaterThan(40);
    expect(new Set(all.filter((t) => t.startsWith(old))).size).toBeGreaterThan(25);
  });

  it('replays (as an import or a cold load does) to the world main ended in, holding only today’s names', () => {
    const t = engine.replay(f.genesis, f.txs);
    expect(withoutShown(t.world)).toEqual(abilityLinesLower(renamedWorld(id, f.world)));
    const now = types(t.transactions);
    expect(now.filter((x) => x.startsWith(old))).toEqual([]);
    expect(now.filter((x) => x.startsWith(`${id}.`)).length).toBe(types(f.txs).filter((x) => x.startsWith(old)).length);
  });

  it('its stored commands, sent again as an old client would (old types, old fields), re-decide to the same world (but for the time ADR 44 adds)', () => {
    let t = engine.replay(f.genesis, []);
    const rng = seededRng(36);
    for (const tx of f.txs) {
      if (tx.kind !== 'command') continue;
      const r = engine.execute(t, tx.command, { rng, actor: tx.actor });
      if (!r.ok) throw new Error(`${tx.command.type}: ${r.error.code} ${r.error.message}`);
      expect(r.value.transaction.kind === 'command' && r.value.transaction.command.type).toBe(tx.command.type.replace(old, `${id}.`));
      t = r.value.table;
    }
    const main = abilityLinesLower(renamedWorld(id, f.world));
    expect(withoutTime(withoutShown(t.world))).toEqual(withoutTime(main));
    expect(t.world.clock.seconds).toBeGreaterThan(main.clock.seconds);
    expect(t.world.clock.counts.round).toBeGreaterThanOrEqual(main.clock.counts.round);
  });

  it('a log read back from stored rows without replay (a snapshot and its rows) undoes the last command through today’s reducers', () => {
    const replayed = engine.replay(f.genesis, f.txs);
    const plain: PlainTable = { genesis: f.genesis, world: replayed.world, transactions: f.txs, live: replayed.live.toArray(), redoable: [] };
    const last = replayed.live.top!;
    const undone = engine.execute(plain, { type: 'history.undo' }, { rng: seededRng(1), actor: GM });
    if (!undone.ok) throw new Error(undone.error.message);
    const before = engine.replay(f.genesis, f.txs.slice(0, last - 1));
    expect(undone.value.table.world.ext).toEqual(before.world.ext);
    expect(undone.value.table.world.characters).toEqual(before.world.characters);
    // The history a client reads names today's types only.
    const seen = engine.view(plain, GM).history.flatMap((h) => h.events.map((e: EngineEvent) => e.type));
    expect(seen.some((x) => x.startsWith(`${id}.`))).toBe(true);
    expect(seen.filter((x) => x.startsWith(old))).toEqual([]);
  });
});

describe('old clients', () => {
  it('the 36th Way: tsw.damage and the tsw.attackOdds query answer as 36th-way.damage and 36th-way.attackOdds (002 "Attacks")', () => {
    const engine = engineFor('36th-way')!;
    const f = fixture('36th-way');
    const t = engine.replay(f.genesis, f.txs);
    const odds = (type: string) => engine.query(t, GM, type, { attacker: 'orc', targets: ['imp'] });
    expect(odds('tsw.attackOdds')).toEqual(odds('36th-way.attackOdds'));
    expect(odds('36th-way.attackOdds').ok).toBe(true);
    const cmd = (type: string): Command => ({ type, target: 'orc', amount: 3 });
    const a = engine.execute(t, cmd('tsw.damage'), { rng: seededRng(5), actor: GM });
    const b = engine.execute(t, cmd('36th-way.damage'), { rng: seededRng(5), actor: GM });
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.value.table.world).toEqual(b.value.table.world);
  });

  it('the Kleptonomicon: klepto.testOdds answers as kleptonomicon.testOdds; a player is refused klepto.awardXp as the GM-only command it is', () => {
    const engine = engineFor('kleptonomicon')!;
    const f = fixture('kleptonomicon');
    const t = engine.replay(f.genesis, f.txs);
    expect(engine.query(t, GM, 'klepto.testOdds', { modifier: 1 })).toEqual(engine.query(t, GM, 'kleptonomicon.testOdds', { modifier: 1 }));
    const bob = Object.values(t.world.characters).find((c) => c.name === 'Bob')!.id;
    const player: Viewer = { role: 'player', seatId: Object.keys(t.world.seats)[0]! };
    expect(engine.execute(t, { type: 'klepto.awardXp', characterId: bob, amount: 1 }, { rng: seededRng(1), actor: player })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('the published catalogue names only the new namespaces', () => {
    for (const { id, old } of RENAMED) {
      const names = engineFor(id)!.catalog.map((d) => d.type);
      expect(names.filter((n) => n.startsWith(old))).toEqual([]);
      expect(names.filter((n) => n.startsWith(`${id}.`)).length).toBeGreaterThan(20);
    }
  });
});
