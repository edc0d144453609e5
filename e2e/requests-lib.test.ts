// The phone's request form and the GM's queue without a DOM (issue 20, ADR 29):
// what the form sends is what the engine accepts, and the words each side reads.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Table, type Viewer } from '@tablekeeper/engine';
import { createTableFor, engineFor } from '@tablekeeper/rulesets';
import { actionOddsArgs, approveCommand, myRequests, queueOf, requestCommand, requestKinds, requestRefusal, type RequestForm } from '../packages/web/src/lib/requests.ts';
import { encounterOf } from '../packages/web/src/lib/encounter.ts';
import { CUSTOM } from '../packages/web/src/lib/turns.ts';

const form = (f: Partial<RequestForm>): RequestForm => ({ kind: 'damage', amount: '', choice: CUSTOM, custom: '', duration: 'rounds', rounds: '1', note: '', ...f });

describe('requestCommand (the phone form)', () => {
  it('damage and healing take a whole number from 1 to 10000, with an optional note', () => {
    expect(requestCommand('ch-1', form({ amount: '7', note: ' spikes ' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'damage', amount: 7, note: 'spikes' } });
    expect(requestCommand('ch-1', form({ kind: 'heal', amount: '3' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'heal', amount: 3 } });
    for (const bad of ['', '0', '2.5', 'x', '10001']) expect(requestCommand('ch-1', form({ amount: bad }))).toEqual({ ok: false, message: 'Type a whole number from 1 to 10000.' });
  });

  it('a condition takes a catalogue id or a custom name, and a duration (rounds 1 to 100)', () => {
    expect(requestCommand('ch-1', form({ kind: 'condition', choice: 'prone', duration: 'encounterEnd' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'condition', condition: 'prone', duration: 'encounterEnd' } });
    expect(requestCommand('ch-1', form({ kind: 'condition', custom: 'Soaked', rounds: '2' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'condition', condition: 'custom:Soaked', duration: 'rounds', rounds: 2 } });
    expect(requestCommand('ch-1', form({ kind: 'condition', custom: '' }))).toMatchObject({ ok: false, message: 'Type a name for the condition (up to 40 characters).' });
    expect(requestCommand('ch-1', form({ kind: 'condition', custom: 'Wet', rounds: '101' }))).toMatchObject({ ok: false, message: 'Rounds must be a whole number from 1 to 100.' });
  });
});

describe('a declared action (Daggerheart): the phone names it, the GM sets the difficulty', () => {
  it('the form sends the action and its bonus; blank or too long is refused in words; only Daggerheart offers it', () => {
    expect(requestCommand('ch-1', form({ kind: 'action', action: ' climb the wall ', bonus: '2' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'action', action: 'climb the wall', bonus: 2 } });
    expect(requestCommand('ch-1', form({ kind: 'action', action: 'leap', bonus: '' }))).toEqual({ ok: true, value: { type: 'request.make', characterId: 'ch-1', kind: 'action', action: 'leap' } });
    expect(requestCommand('ch-1', form({ kind: 'action', action: '' }))).toEqual({ ok: false, message: 'Say what your character tries (up to 80 characters).' });
    expect(requestCommand('ch-1', form({ kind: 'action', action: 'leap', bonus: '31' }))).toEqual({ ok: false, message: 'The bonus must be a whole number from -30 to 30.' });
    expect(requestKinds('daggerheart').map(([k]) => k)).toEqual(['damage', 'heal', 'condition', 'action']);
    expect(requestKinds('osr').map(([k]) => k)).toEqual(['damage', 'heal', 'condition']);
  });

  it('through the real Daggerheart engine: the queue row needs a difficulty; approving at 12 rolls it and Ana reads the approval', () => {
    const engine = engineFor('daggerheart')!;
    const made = createTableFor('daggerheart', { tableId: 't-act', name: 'Act' });
    if (!made.ok) throw new Error(made.error.message);
    let table: Table = made.value;
    const run = (c: Command, actor: Viewer = { role: 'gm' }) => {
      const r = engine.execute(table, c, { rng: seededRng(4), actor });
      if (!r.ok) throw new Error(`${c.type}: ${r.error.message}`);
      table = r.value.table;
      return r.value.transaction;
    };
    const first = (tx: ReturnType<typeof run>) => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    const seat = first(run({ type: 'seat.add', name: 'Ana' }));
    const kira = first(run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: {} }));
    const ana: Viewer = { role: 'player', seatId: seat };
    const c = requestCommand(kira, form({ kind: 'action', action: 'climb the wall', bonus: '2' }));
    if (!c.ok) throw new Error(c.message);
    run(c.value, ana);
    const [row] = queueOf(engine.view(table, { role: 'gm' }).world, null);
    expect([row!.text, row!.needsDifficulty]).toEqual(['Kira (Ana): an action roll to climb the wall at +2', true]);
    expect(approveCommand(row!, '')).toEqual({ ok: false, message: 'Set the difficulty (a whole number from 1 to 60) before approving the roll.' });
    const approve = approveCommand(row!, '12');
    expect(approve).toEqual({ ok: true, value: { type: 'request.approve', id: row!.id, difficulty: 12 } });
    if (approve.ok) run(approve.value);
    const phone = engine.view(table, ana).world;
    expect(myRequests(phone, null).map((r) => [r.text, r.status])).toEqual([['an action roll to climb the wall at +2', 'approved']]);
    expect(phone.log.map((l) => l.text)).toContain('The GM approved an action roll to climb the wall at +2 for Kira at difficulty 12.');
  });
});

describe('queue and phone list, through the real OSR engine', () => {
  it('Ana asks twice; the GM queue words both with seat names; after one approval and one decline Ana reads each fate', () => {
    const engine = engineFor('osr')!;
    let table: Table = (createTableFor('osr', { tableId: 't', name: 'Night' }) as { ok: true; value: Table }).value;
    const rng = seededRng(5);
    const run = (c: Command, actor: Viewer = { role: 'gm' }) => {
      const r = engine.execute(table, c, { rng, actor });
      if (!r.ok) throw new Error(r.error.message);
      table = r.value.table;
      return r.value.transaction;
    };
    const first = (c: Command) => {
      const tx = run(c);
      return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    };
    const seat = first({ type: 'seat.add', name: 'Ana' });
    const kira = first({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: { hp: 10, maxHp: 10 } });
    run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', characterId: kira, stats: { hp: 10, maxHp: 10, dex: 12 } }] });
    const ana: Viewer = { role: 'player', seatId: seat };
    for (const f of [form({ amount: '4', note: 'fell' }), form({ kind: 'heal', amount: '2' })]) {
      const c = requestCommand(kira, f);
      if (!c.ok) throw new Error(c.message);
      run(c.value, ana);
    }
    const gm = engine.view(table, { role: 'gm' }).world;
    const queue = queueOf(gm, encounterOf(gm));
    expect(queue.map((q) => [q.text, q.note])).toEqual([
      ['Kira (Ana): 4 damage', 'fell'],
      ['Kira (Ana): 2 healing', null],
    ]);
    run({ type: 'request.approve', id: queue[0]!.id });
    run({ type: 'request.decline', id: queue[1]!.id, reason: 'not yet' });
    const phone = engine.view(table, ana).world;
    expect(myRequests(phone, encounterOf(phone)).map((r) => [r.text, r.status, r.pending])).toEqual([
      ['2 healing', 'declined: not yet', false],
      ['4 damage', 'approved', false],
    ]);
    expect(queueOf(engine.view(table, { role: 'gm' }).world, null)).toEqual([]);
  });
});

describe("the GM's odds for a declared action", () => {
  it('asks at the typed difficulty with the request\'s bonus and advantage; nothing while the box is empty or out of range', () => {
    const row = { roll: { bonus: 2, advantage: -1 } };
    expect(actionOddsArgs(row, '12')).toEqual({ bonus: 2, difficulty: 12, advantage: -1 });
    expect(actionOddsArgs(row, '')).toBe(null);
    expect(actionOddsArgs(row, '61')).toBe(null);
    expect(actionOddsArgs(row, '1.5')).toBe(null);
    expect(actionOddsArgs({}, '12')).toBe(null);
  });
});


describe('what the phone offers outside a fight is what the engine takes (review 13 #4, ADR 104)', () => {
  const STATS: { [rulesetId: string]: { [k: string]: number } } = {
    osr: { hp: 6, maxHp: 10, ac: 12 },
    kleptonomicon: { hp: 6, maxHp: 10 },
    daggerheart: { hpMax: 6, major: 3, severe: 6 },
    '36th-way': { hp: 6, maxHp: 10 },
    teams: { hp: 6, maxHp: 10 },
  };
  for (const rulesetId of Object.keys(STATS)) {
    it(`${rulesetId}: each kind the phone greys out is refused after Send, each it offers is taken`, () => {
      const engine = engineFor(rulesetId)!;
      let table: Table = (createTableFor(rulesetId, { tableId: 't', name: 'Night' }) as { ok: true; value: Table }).value;
      const rng = seededRng(5);
      const run = (c: Command, actor: Viewer = { role: 'gm' }) => {
        const r = engine.execute(table, c, { rng, actor });
        if (r.ok) table = r.value.table;
        return r;
      };
      const first = (c: Command) => {
        const r = run(c);
        if (!r.ok) throw new Error(r.error.message);
        const tx = r.value.transaction;
        return String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
      };
      const seat = first({ type: 'seat.add', name: 'Ana' });
      const kira = first({ type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: STATS[rulesetId]! });
      // The 36th Way and teams keep HP on a sheet of their own, which the invite gives a new PC (ADR 73) and fights read (ADR 110).
      const SHEETS: { [rulesetId: string]: { [k: string]: number } } = { '36th-way': { maxHp: 10, hp: 6 }, teams: { maxHealth: 10, health: 6 } };
      if (SHEETS[rulesetId] !== undefined) first({ type: 'character.sheet.set', characterId: kira, sheet: SHEETS[rulesetId] });
      const ana: Viewer = { role: 'player', seatId: seat };
      const said: string[] = [];
      for (const kind of ['damage', 'heal', 'condition'] as const) {
        const why = requestRefusal(encounterOf(engine.view(table, ana).world), kira, 'Kira', kind);
        const c = requestCommand(kira, form({ kind, amount: '2', choice: CUSTOM, custom: 'Soaked', duration: 'indefinite' }));
        if (!c.ok) throw new Error(c.message);
        const r = run(c.value, ana);
        // Where the phone offers it, a refusal may only be the ruleset's own (nothing marked to clear), never the fight's.
        if (why === null) expect([kind, r.ok ? '' : r.error.message]).not.toEqual([kind, expect.stringMatching(/fight/)]);
        if (why === null && rulesetId !== 'daggerheart') expect([kind, r.ok]).toEqual([kind, true]);
        if (why !== null) expect([kind, r.ok]).toEqual([kind, false]);
        if (why !== null) said.push(why);
      }
      // A condition is never taken outside a fight; damage and healing are, in every ruleset (ADR 110).
      expect(said).toEqual(["Kira is in no running fight: conditions are kept on a fight's combatants and wear off by their turns, so a condition can be asked for during an encounter."]);
    });
  }
});
