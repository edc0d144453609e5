// Foes hidden until they act (issue 20, ADR 71), in every ruleset's turn
// order: a hidden Goblin marked "reveal when it acts" stays out of players'
// views (no byte of it) until its turn starts; then it is revealed, logged for
// everyone. Undo of that turn start hides it again with its mark; replay agrees.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getEncounter, revealMarks, type Viewer } from '@tablekeeper/engine';
import { rulesetIds } from '../src/registry.js';
import { startThree, turnTable, type TurnTable } from './turn-table.js';

const ANN: Viewer = { role: 'player', seatId: 'nobody' };
const SPECTATOR: Viewer = { role: 'spectator' };

const table = (rulesetId: string): TurnTable => turnTable(rulesetId, { name: 'Night', seed: 5 });
/** Ann and Bo, and a hidden Lurker last in every order. */
const start = (t: TurnTable, rulesetId: string) => startThree(t, rulesetId, { id: 'lurk', name: 'Lurker', hidden: true });

/**
 * Moves the turn on once: end the current turn, or answer a waiting choice (`prefer` when it is offered, else the
 * order's default, else the first option), or start the next. A default never names a hidden creature (ADR 77).
 */
function step(t: TurnTable, prefer?: string) {
  const enc = getEncounter(t.table.world);
  if (enc.current !== null) return t.try({ type: 'encounter.endTurn' });
  if (enc.pending !== null) return t.try({ type: 'encounter.choose', id: prefer !== undefined && enc.pending.options.includes(prefer) ? prefer : (enc.pending.default ?? enc.pending.options[0]!) });
  return t.try({ type: 'encounter.advance' });
}

describe.each(rulesetIds)('%s: reveal when it acts', (rulesetId) => {
  it('keeps the Lurker from players until its turn starts, then reveals it for everyone', () => {
    const t = table(rulesetId);
    start(t, rulesetId);
    t.run({ type: 'revealWhenActs.set', characterId: 'lurk', on: true });
    expect(revealMarks(t.table.world)).toEqual(['lurk']);
    // Turns move on until the Lurker's starts (choices prefer it where the order asks who goes next).
    for (let i = 0; i < 12 && getEncounter(t.table.world).current !== 'lurk'; i++) {
      for (const v of [ANN, SPECTATOR]) expect(t.seen(v)).not.toMatch(/Lurker|lurk/);
      step(t, 'lurk');
    }
    expect(getEncounter(t.table.world).current).toBe('lurk');
    expect(getEncounter(t.table.world).combatants['lurk']!.visibility).toBe('visible');
    expect(revealMarks(t.table.world)).toEqual([]);
    const playerLog = t.engine.view(t.table, ANN).world.log.map((e) => e.text);
    expect(playerLog).toContain('Lurker is revealed.');
    expect(getEncounter(t.engine.view(t.table, ANN).world).current).toBe('lurk');
    // Undo takes the turn start back: hidden again, and marked again.
    t.run({ type: 'history.undo' });
    expect(getEncounter(t.table.world).combatants['lurk']!.visibility).toBe('hidden');
    expect(revealMarks(t.table.world)).toEqual(['lurk']);
    for (const v of [ANN, SPECTATOR]) expect(t.seen(v)).not.toMatch(/Lurker|lurk/);
  });
});

describe('revealWhenActs.set', () => {
  it('refuses a visible combatant, a second mark, an unmark of none, an unknown one and a player, in words', () => {
    const t = table('osr');
    start(t, 'osr');
    expect(t.try({ type: 'revealWhenActs.set', characterId: 'a', on: true })).toMatchObject({ ok: false, error: { path: 'characterId', message: 'Ann is already visible to the players' } });
    expect(t.try({ type: 'revealWhenActs.set', characterId: 'lurk', on: false })).toMatchObject({ ok: false, error: { path: 'on', message: 'Lurker is not set to be revealed when it acts' } });
    t.run({ type: 'revealWhenActs.set', characterId: 'lurk', on: true });
    expect(t.try({ type: 'revealWhenActs.set', characterId: 'lurk', on: true })).toMatchObject({ ok: false, error: { path: 'on' } });
    expect(t.try({ type: 'revealWhenActs.set', characterId: 'nobody', on: true })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'characterId' } });
    expect(t.try({ type: 'revealWhenActs.set', characterId: 'lurk', on: false }, ANN)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    t.run({ type: 'revealWhenActs.set', characterId: 'lurk', on: false });
    expect(revealMarks(t.table.world)).toEqual([]);
  });

  it('a Lurker unmarked stays hidden through its turn', () => {
    const t = table('osr');
    start(t, 'osr');
    for (let i = 0; i < 8 && getEncounter(t.table.world).current !== 'lurk'; i++) step(t);
    expect(getEncounter(t.table.world).current).toBe('lurk');
    expect(getEncounter(t.table.world).combatants['lurk']!.visibility).toBe('hidden');
    expect(t.seen(ANN)).not.toMatch(/Lurker|lurk/);
  });
});

describe('OSR: a foe with its own character', () => {
  it('shows the character with the foe, so the phones can target it (as the Reveal button does)', () => {
    const t = table('osr');
    t.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { hp: 5, maxHp: 5, ac: 12, dex: 6 } });
    const ch = Object.values(t.table.world.characters).find((c) => c.name === 'Lurker')!.id;
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'a', name: 'Ann', kind: 'pc', side: 'party', stats: { dex: 14, hp: 5, maxHp: 5 } },
        { id: 'lurk', name: 'Lurker', kind: 'npc', side: 'foes', visibility: 'hidden', characterId: ch, stats: { dex: 6, hp: 5, maxHp: 5 } },
      ],
    });
    t.run({ type: 'revealWhenActs.set', characterId: 'lurk', on: true });
    for (let i = 0; i < 6 && getEncounter(t.table.world).current !== 'lurk'; i++) {
      expect(t.seen(ANN)).not.toMatch(/Lurker|lurk/);
      step(t);
    }
    expect(getEncounter(t.table.world).current).toBe('lurk');
    expect(t.table.world.characters[ch]!.visibility).toBe('visible');
    expect(Object.values(t.engine.view(t.table, ANN).world.characters).map((c) => c.name)).toContain('Lurker');
  });
});

describe('property', () => {
  it('whatever the GM does: a Lurker never yet revealed never reaches a player; a marked one whose turn has started is visible; replay rebuilds the world', () => {
    const op = fc.constantFrom('step', 'mark', 'unmark', 'undo', 'redo', 'hide', 'reveal');
    fc.assert(
      fc.property(fc.constantFrom(...rulesetIds), fc.array(op, { maxLength: 20 }), (rulesetId, ops) => {
        const t = table(rulesetId);
        start(t, rulesetId);
        // Once shown, players have seen it (history keeps a reveal even after a hide or an undo): the check is until then.
        let shown = false;
        for (const o of ops) {
          if (o === 'step') step(t);
          else if (o === 'mark' || o === 'unmark') t.try({ type: 'revealWhenActs.set', characterId: 'lurk', on: o === 'mark' });
          else if (o === 'undo' || o === 'redo') t.try({ type: `history.${o}` });
          else t.try({ type: `encounter.${o}`, characterId: 'lurk' });
          const enc = getEncounter(t.table.world);
          shown ||= enc.combatants['lurk']?.visibility === 'visible';
          // An undone start leaves no Lurker at all: nothing of it may show then either.
          if (!shown) for (const v of [ANN, SPECTATOR]) expect(t.seen(v)).not.toMatch(/Lurker|lurk/);
          // A mark never outlives the Lurker's own turn start.
          if (enc.current === 'lurk' && revealMarks(t.table.world).includes('lurk')) expect.fail('a marked Lurker is taking its turn unrevealed');
        }
        const again = t.engine.replay(t.table.genesis, JSON.parse(JSON.stringify(t.table.transactions)) as never);
        expect(again.world).toEqual(t.table.world);
      }),
      { numRuns: 60 },
    );
  });
});
