// Undo and redo name what they take back, with the creatures' names, in every
// ruleset (review 8): "Bram's attack on Goblin 2", "end of Kira's turn", "3
// damage to Goblin 2"; from the engine's view for the GM and, for a player's
// own step, for that player; a hidden foe's name never in a player's.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Scenario, type Viewer } from '@tablekeeper/engine';
import { kleptonomicon, osr, thirtySixthWay } from '../src/index.js';
import { boudica, enemy, table } from './teams/helpers.js';
import { DhTable, ofType } from './daggerheart/helpers.js';

const GM: Viewer = { role: 'gm' };
const words = (s: { engine: Scenario['engine']; table: Scenario['table'] }, v: Viewer = GM) => {
  const view = s.engine.view(s.table, v);
  return { undo: view.undoWords, redo: view.redoWords };
};
const idNamed = (s: Scenario, name: string) => Object.values(s.world.characters).find((c) => c.name === name)!.id;

describe('OSR', () => {
  function night() {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(7), rulesetId: 'osr' });
    s.run({ type: 'seat.add', name: 'Ann' });
    const seatId = Object.keys(s.world.seats)[0]!;
    s.run({ type: 'character.add', name: 'Bram', kind: 'pc', seatId, stats: { maxHp: 9, hp: 9, dex: 18, ac: 12, wis: 12 } });
    s.run({ type: 'character.add', name: 'Goblin 2', kind: 'npc', stats: { maxHp: 30, hp: 30, dex: 3, ac: 10 } });
    s.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { maxHp: 30, hp: 30, dex: 2, ac: 10 } });
    // A new character is named from the command itself.
    expect(words(s).undo).toBe('adding Lurker');
    const bram = idNamed(s, 'Bram');
    const gob = idNamed(s, 'Goblin 2');
    const lurker = idNamed(s, 'Lurker');
    s.run({
      type: 'encounter.start',
      combatants: [
        { name: 'Bram', kind: 'pc', side: 'party', characterId: bram },
        { name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: gob },
        { name: 'Lurker', kind: 'npc', side: 'foes', characterId: lurker, visibility: 'hidden' },
      ],
    });
    return { s, seatId, bram, gob, lurker };
  }

  it("an attack, damage, healing, a condition and the end of a turn, each with its names; redo says the same", () => {
    const { s, bram, gob } = night();
    s.run({ type: 'osr.attack', attackerId: bram, targetId: gob });
    expect(words(s).undo).toBe("Bram's attack on Goblin 2");
    s.run({ type: 'osr.damage', targetId: gob, amount: 3 });
    expect(words(s).undo).toBe('3 damage to Goblin 2');
    s.run({ type: 'osr.heal', targetId: gob, amount: 2 });
    expect(words(s).undo).toBe('healing Goblin 2 by 2');
    s.run({ type: 'condition.apply', targetId: gob, condition: 'custom:Dazed', duration: { kind: 'indefinite' } });
    expect(words(s).undo).toBe('Dazed on Goblin 2');
    s.run({ type: 'encounter.endTurn' });
    expect(words(s).undo).toBe("end of Bram's turn");
    s.run({ type: 'history.undo' });
    expect(words(s)).toEqual({ undo: 'Dazed on Goblin 2', redo: "end of Bram's turn" });
  });

  it("a player's own check names her character; the GM's steps are not hers to undo, nor named to her", () => {
    const { s, seatId, bram } = night();
    const ann: Viewer = { role: 'player', seatId };
    s.run({ type: 'osr.check', characterId: bram, ability: 'wis', difficulty: 10 }, ann);
    expect(words(s, ann).undo).toBe("Bram's check");
    s.run({ type: 'osr.damage', targetId: idNamed(s, 'Lurker'), amount: 3 });
    expect(words(s).undo).toBe('3 damage to Lurker');
    expect(words(s, ann).undo).toBeNull();
    expect(JSON.stringify(s.engine.view(s.table, ann))).not.toContain('Lurker');
  });
});

describe('The 36th Way', () => {
  it('an attack on two foes names both; damage names its target', () => {
    const s = scenario(thirtySixthWay.ruleset.modules, { rng: seededRng(3), rulesetId: '36th-way' });
    s.run({ type: '36th-way.sheet.set', sheet: { id: 'vesk', name: 'Vesk', kind: 'pc', level: 2, ac: 15 } });
    for (const id of ['ogre', 'imp']) s.run({ type: '36th-way.sheet.set', sheet: { id, name: id === 'ogre' ? 'Ogre' : 'Imp', kind: 'npc', level: 2, ac: 13, pd: 12, md: 10, maxHp: 40 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast' }, { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' }, { id: 'imp', name: 'Imp', kind: 'npc', side: 'foes', band: 'slow' }] });
    s.run({ type: '36th-way.position', a: 'vesk', b: 'ogre', range: 'engaged' });
    s.run({ type: '36th-way.position', a: 'vesk', b: 'imp', range: 'engaged' });
    s.run({ type: '36th-way.attack', attackerId: 'vesk', targetIds: ['ogre', 'imp'], basic: 'melee' });
    expect(words(s).undo).toBe("Vesk's attack on Ogre and Imp");
    s.run({ type: '36th-way.damage', targetId: 'imp', amount: 5 });
    expect(words(s).undo).toBe('5 damage to Imp');
  });
});

describe('teams', () => {
  it("whose sheet was set, Boudica's attack on the Raider, and damage by the box", () => {
    const { s, dice } = table();
    s.run({ type: 'encounter.start', combatants: [{ id: 'boudica', name: 'Boudica', kind: 'pc', side: 'players' }, { id: 'raider', name: 'Raider', kind: 'npc', side: 'foes' }], params: { teamOrder: ['players', 'foes'] } });
    const { name: _b, ...b } = boudica;
    const { name: _e, ...e } = enemy();
    s.run({ type: 'character.sheet.set', characterId: 'boudica', sheet: b });
    s.run({ type: 'character.sheet.set', characterId: 'raider', sheet: e });
    // The shared sheet command names whose sheet (review 8's night read "Undo: set a character sheet").
    expect(words(s).undo).toBe("Raider's sheet");
    dice.push(6, 6, 10, 6, 6, 10);
    s.run({ type: 'teams.attack', attackerId: 'boudica', targetId: 'raider', weapon: 'spear' });
    expect(words(s).undo).toBe("Boudica's attack on Raider");
    s.run({ type: 'teams.damage', targetId: 'raider', amount: 4, reduce: false });
    expect(words(s).undo).toBe('4 damage to Raider');
  });
});

describe('The Kleptonomicon', () => {
  it("Alice's attack on the Guard", () => {
    const s = scenario([...kleptonomicon.ruleset.modules], { rng: seededRng(2), rulesetId: 'kleptonomicon' });
    s.run({ type: 'character.add', name: 'Alice', kind: 'pc', stats: { edgeSave: 9, attackModifier: 1, attackDamage: '1d6+1', hp: 20 } });
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'encounter.start', combatants: [{ id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 0, defense: 7, hp: 12 } }, { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: idNamed(s, 'Alice') }] });
    s.run({ type: 'kleptonomicon.attack', attackerId: 'c-alice', targetId: 'guard' });
    expect(words(s).undo).toBe("Alice's attack on Guard");
  });
});

describe('Daggerheart', () => {
  it("the Bandit's attack on Kira, and damage she takes", () => {
    const t = new DhTable({ 'daggerheart.armorChoice': false });
    const seat = t.seat('Ana');
    const kira = t.pc('Kira', seat, { evasion: 10, major: 5, severe: 10, hpMax: 6, armorMax: 1 });
    const bandit = String(ofType(t.run({ type: 'daggerheart.addAdversaries', name: 'Bandit', count: 1, difficulty: 12, major: 6, severe: 11, hp: 4, attack: 1, damage: '1d8+2', visibility: 'visible' }), 'character.added')[0]!['id']);
    t.dice.queue(14, 5);
    t.run({ type: 'daggerheart.adversaryAttack', attackerId: bandit, targetId: kira });
    expect(words(t).undo).toMatch(/^Bandit( 1)?'s attack on Kira$/);
    t.run({ type: 'daggerheart.takeDamage', characterId: kira, amount: 3 });
    expect(words(t).undo).toBe('3 damage to Kira');
  });
});
