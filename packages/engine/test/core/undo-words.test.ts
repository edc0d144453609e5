// Undo and redo in words with the creatures' names (review 8): the templates
// (core/undo-words.ts) and the encounter's own words through the engine's view,
// GM and player, with a hidden creature's name never in a player's.
import { describe, expect, it } from 'vitest';
import { ok, sayCommand, type CommandWords, type Module, type Viewer } from '../../src/core/index.js';
import { seededRng } from '../../src/dice/rng.js';
import { bandsSequencer } from '../../src/encounter/sequencers/bands.js';
import { BANDS_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule } from '../../src/encounter/module.js';
import { Table } from '../encounter/harness.js';

const names: { [id: string]: string } = { bram: 'Bram', g1: 'Goblin 1', g2: 'Goblin 2', g3: 'Goblin 3', g4: 'Goblin 4' };
const nameOf = (id: string): string | null => names[id] ?? null;
const attack: CommandWords = { say: ["{by}'s attack on {on}", 'an attack on {on}'], by: ['attackerId'], on: ['targetId', 'targetIds'] };

describe('sayCommand', () => {
  it('fills the first template whose blanks all fill, from the command, else its events', () => {
    expect(sayCommand(attack, { type: 'x.attack', attackerId: 'bram', targetId: 'g2' }, [], nameOf)).toBe("Bram's attack on Goblin 2");
    // No attacker named: the next template.
    expect(sayCommand(attack, { type: 'x.attack', targetId: 'g2' }, [], nameOf)).toBe('an attack on Goblin 2');
    // The attacker from the event the command made (a GM's attack defaulting to the one acting).
    expect(sayCommand(attack, { type: 'x.attack', targetId: 'g2' }, [{ type: 'x.attacked', attackerId: 'bram' }], nameOf)).toBe("Bram's attack on Goblin 2");
  });

  it('lists several targets, three at most by name', () => {
    expect(sayCommand(attack, { type: 'x', attackerId: 'bram', targetIds: ['g1', 'g2'] }, [], nameOf)).toBe("Bram's attack on Goblin 1 and Goblin 2");
    expect(sayCommand(attack, { type: 'x', attackerId: 'bram', targetIds: ['g1', 'g2', 'g3'] }, [], nameOf)).toBe("Bram's attack on Goblin 1, Goblin 2 and Goblin 3");
    expect(sayCommand(attack, { type: 'x', attackerId: 'bram', targetIds: ['g1', 'g2', 'g3', 'g4'] }, [], nameOf)).toBe("Bram's attack on Goblin 1, Goblin 2 and 2 more");
  });

  it('a name the viewer may not read fails the template: no partial names, no ids (null when none fills)', () => {
    expect(sayCommand(attack, { type: 'x', attackerId: 'bram', targetId: 'lurker-zq' }, [], nameOf)).toBeNull();
    expect(sayCommand(attack, { type: 'x', attackerId: 'bram', targetIds: ['g1', 'lurker-zq'] }, [], nameOf)).toBeNull();
  });

  it('values read as words: a rules id split, a custom condition without its prefix, a typed name as typed; event types pick the event', () => {
    const cond: CommandWords = { say: ['{=condition} on {on}'], on: ['targetId'] };
    expect(sayCommand(cond, { type: 'condition.apply', targetId: 'g1', condition: 'offBalance' }, [], nameOf)).toBe('off balance on Goblin 1');
    expect(sayCommand(cond, { type: 'condition.apply', targetId: 'g1', condition: 'custom:Dazed' }, [], nameOf)).toBe('Dazed on Goblin 1');
    expect(sayCommand({ say: ['adding {=combatant.name} to the fight'] }, { type: 'encounter.add', combatant: { name: 'Goblin 3' } }, [], nameOf)).toBe('adding Goblin 3 to the fight');
    const advance: CommandWords = { say: ["start of {by}'s turn"], by: ['encounter.turnStarted:id'] };
    const events = [{ type: 'encounter.turnSkipped', id: 'g1' }, { type: 'encounter.turnStarted', id: 'g2' }];
    expect(sayCommand(advance, { type: 'encounter.advance' }, events, nameOf)).toBe("start of Goblin 2's turn");
  });
});

describe('the encounter in words, through the view', () => {
  const rules = { sequencer: bandsSequencer(), economy: BANDS_ECONOMY, conditions: [{ id: 'dazed', name: 'Dazed', stacking: 'refresh' as const, effects: {} }] };
  const gm: Viewer = { role: 'gm' };
  const ann: Viewer = { role: 'player', seatId: 's1' };

  it('names whose turn ended or started and who is Dazed, for undo and then for redo', () => {
    const t = new Table([encounterModule(rules)], seededRng(4));
    t.ok({ type: 'encounter.start', combatants: [{ id: 'kira', name: 'Kira', kind: 'pc', band: 'fast' }, { id: 'g2', name: 'Goblin 2', kind: 'npc', band: 'slow' }] });
    expect(t.engine.view(t.table, gm).undoWords).toBe('start an encounter');
    t.ok({ type: 'encounter.endTurn' });
    expect(t.engine.view(t.table, gm)).toMatchObject({ undoLabel: 'end the turn', undoWords: "end of Kira's turn" });
    t.ok({ type: 'condition.apply', targetId: 'g2', condition: 'dazed', duration: { kind: 'indefinite' } });
    expect(t.engine.view(t.table, gm).undoWords).toBe('dazed on Goblin 2');
    t.ok({ type: 'history.undo' });
    expect(t.engine.view(t.table, gm)).toMatchObject({ undoWords: "end of Kira's turn", redoWords: 'dazed on Goblin 2' });
  });

  it("a player's own step naming a hidden creature reads as its plain label; naming one she sees, the name; the GM reads both", () => {
    // A player's command that names a creature by id (the encounter's own refuse most such for players).
    const poke: Module = {
      id: 'poke',
      commands: { 'poke.poke': { label: 'poke someone', authorize: () => null, decide: () => ok([{ type: 'poke.poked' }]) } },
      reducers: { 'poke.poked': (w) => w },
      words: { 'poke.poke': { say: ['poking {on}'], on: ['targetId'] } },
    };
    const t = new Table([encounterModule(rules), poke], seededRng(4));
    t.ok({ type: 'encounter.start', combatants: [{ id: 'lurk', name: 'The Lurker', kind: 'npc', band: 'fast', visibility: 'hidden' }, { id: 'ana', name: 'Ana', kind: 'pc', band: 'slow', characterId: 'ch-roland' }] });
    t.ok({ type: 'poke.poke', targetId: 'lurk' }, ann);
    const mine = t.engine.view(t.table, ann);
    expect(mine).toMatchObject({ canUndo: true, undoLabel: 'poke someone', undoWords: 'poke someone' });
    expect(JSON.stringify(mine)).not.toContain('Lurker');
    expect(t.engine.view(t.table, gm).undoWords).toBe('poking The Lurker');
    t.ok({ type: 'poke.poke', targetId: 'ana' }, ann);
    expect(t.engine.view(t.table, ann).undoWords).toBe('poking Ana');
    // Undone by her: the redo names Ana again, and the undo her step before it (still the plain label).
    t.ok({ type: 'history.undo' }, ann);
    expect(t.engine.view(t.table, ann)).toMatchObject({ redoWords: 'poking Ana', undoWords: 'poke someone' });
  });
});
