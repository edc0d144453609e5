// A foe character's stats are the GM's (ADR 33, issue 15): a player reads an
// Orc's name but not its AC, HP or scores; its AC once the GM reveals
// defences. The attack line, the event and the odds follow the same rule.
import { describe, expect, it } from 'vitest';
import { scenario, type Json, type TableView, type Viewer } from '@tablekeeper/engine';
import { engineFor } from '../../src/registry.js';
import { scriptedRng } from './helpers.js';

const GM: Viewer = { role: 'gm' };

/** A full OSR table (the registry's engine: sheets and the foes module), a seated Fighter and a visible Orc (AC 13, 15 HP). */
function setup() {
  const dice = scriptedRng();
  const s = scenario(engineFor('osr')!.modules, { rng: dice, rulesetId: 'osr' });
  const idOf = (tx: ReturnType<typeof s.run>): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
  const seatId = idOf(s.run({ type: 'seat.add', name: 'Ann' }));
  const pc = idOf(s.run({ type: 'character.add', name: 'Fighter', kind: 'pc', seatId, stats: { str: 14, dex: 16, maxHp: 10, hp: 10, ac: 15 } }));
  const orc = idOf(s.run({ type: 'character.add', name: 'Orc', kind: 'npc', visibility: 'visible', stats: { ac: 13, maxHp: 15, hp: 15, str: 16, hd: 2 } }));
  const player: Viewer = { role: 'player', seatId };
  return { s, dice, pc, orc, player };
}

const statsIn = (v: TableView, id: string): { readonly [k: string]: Json } => v.world.characters[id]!.stats;
const lines = (v: TableView, kind: string): string[] => v.world.log.filter((e) => e.kind === kind).map((e) => e.text);
const events = (v: TableView, type: string) => v.history.flatMap((tx) => tx.events).filter((e) => e.type === type);

describe("OSR: a foe character's stats reach players by declared fields only", () => {
  it("a player and a spectator read the Orc's name, none of its stats; the Fighter's are whole", () => {
    const { s, pc, orc, player } = setup();
    for (const viewer of [player, { role: 'spectator' } as const]) {
      const v = s.view(viewer);
      expect(v.world.characters[orc]!.name).toBe('Orc');
      expect(statsIn(v, orc)).toEqual({});
      expect(statsIn(v, pc)).toEqual(statsIn(s.view(GM), pc));
    }
    expect(statsIn(s.view(GM), orc)).toMatchObject({ ac: 13, hp: 15 });
  });

  it("revealing defences shows its AC 13 only; all shows the GM's stats", () => {
    const { s, orc, player } = setup();
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(statsIn(s.view(player), orc)).toEqual({ ac: 13 });
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(statsIn(s.view(player), orc)).toEqual(statsIn(s.view(GM), orc));
  });

  it('the attack line and event keep the AC from players (d20 9 + STR 2 + proficiency 2 = 13 vs AC 13: a hit)', () => {
    const { s, dice, pc, orc, player } = setup();
    dice.queue(9, 5);
    s.run({ type: 'osr.attack', attackerId: pc, targetId: orc, kind: 'melee', proficient: true, damage: '1d8' });
    const [gmLine] = lines(s.view(GM), 'osr.attacked');
    const [seen] = lines(s.view(player), 'osr.attacked');
    expect(gmLine).toContain('AC 13');
    expect(gmLine).toContain('= 13 vs 13');
    expect(seen).toBe('Fighter attacked Orc (melee): d20 9 +4 = 13, hit for 7 (1d8 [5] + STR 2).');
    const [ev] = events(s.view(player), 'osr.attacked');
    expect(ev).not.toHaveProperty('ac');
    expect(ev!['roll']).not.toHaveProperty('dc');
    expect(ev).toMatchObject({ hit: true, roll: { total: 13 } });
    expect(events(s.view(GM), 'osr.attacked')[0]).toMatchObject({ ac: 13, roll: { dc: 13 } });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(events(s.view(player), 'osr.attacked')[0]).toMatchObject({ ac: 13, roll: { dc: 13 } });
  });

  it("the Orc's attack on the Fighter keeps its bonus from players (it shows in the total): the die and the verdict only, until every number is shown", () => {
    const { s, dice, pc, orc, player } = setup();
    dice.queue(12, 4);
    s.run({ type: 'osr.attack', attackerId: orc, targetId: pc, kind: 'melee', proficient: false, damage: '1d6' });
    const [gmLine] = lines(s.view(GM), 'osr.attacked');
    const [seen] = lines(s.view(player), 'osr.attacked');
    expect(gmLine).toMatch(/^Orc attacked Fighter \(melee, AC 15\): d20 12 \+\d+ = \d+ vs 15, /);
    // A PC's HP are public: a hit's line ends with them.
    expect(seen).toMatch(/^Orc attacked Fighter \(melee\): d20 12, (hit for \d+: HP \d+ → \d+|missed)\.$/);
    const [ev] = events(s.view(player), 'osr.attacked');
    expect(ev!['roll']).not.toHaveProperty('modifier');
    expect(ev!['roll']).not.toHaveProperty('total');
    expect(ev).toMatchObject({ ac: 15, roll: { dice: [12] } });
    expect(events(s.view(GM), 'osr.attacked')[0]!['roll']).toHaveProperty('modifier');
    s.run({ type: 'foes.reveal', reveal: 'all' });
    expect(events(s.view(player), 'osr.attacked')[0]!['roll']).toHaveProperty('total');
  });

  it("the turn order shows players the Orc's place, not its initiative score (the Fighter's DEX 16 beats the Orc's 14: Fighter first)", () => {
    const { s, pc, orc, player } = setup();
    s.run({ type: 'character.update', id: orc, stats: { dex: 14 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'f', name: 'Fighter', kind: 'pc', characterId: pc }, { id: 'o', name: 'Orc', kind: 'npc', characterId: orc }] });
    const placements = (v: TableView) => Object.fromEntries(Object.entries((v.world.ext['encounter'] as { combatants: { [id: string]: { placement: Json } } }).combatants).map(([id, c]) => [id, c.placement]));
    expect(placements(s.view(GM))).toMatchObject({ o: { score: 14 }, f: { score: 16 } });
    expect(placements(s.view(player))).toEqual({ f: { score: 16, tie: 0, order: 0 }, o: { order: 1 } });
    const started = events(s.view(player), 'encounter.started')[0]!['combatants'] as { id: string; placement: Json }[];
    expect(started.find((c) => c.id === 'o')!.placement).not.toHaveProperty('score');
    expect(started.find((c) => c.id === 'f')!.placement).toMatchObject({ score: 16 });
    expect(JSON.stringify(s.view(player).history)).not.toContain('"score":14');
  });

  it("a seat's retainer is no foe (ADR 45): players read its initiative score like a PC's; the Orc's stays hidden (DEX 16, 12, 14: Fighter, Orc, Torchbearer)", () => {
    const { s, pc, orc, player } = setup();
    s.run({ type: 'character.update', id: orc, stats: { dex: 14 } });
    const seatId = player.role === 'player' ? player.seatId : '';
    const tx = s.run({ type: 'character.add', name: 'Torchbearer', kind: 'npc', seatId, stats: { dex: 12, maxHp: 4, hp: 4, ac: 11 } });
    const hireling = String(tx.kind === 'command' ? tx.events[0]!['id'] : '');
    s.run({ type: 'encounter.start', combatants: [{ id: 'f', name: 'Fighter', kind: 'pc', characterId: pc }, { id: 'o', name: 'Orc', kind: 'npc', characterId: orc }, { id: 't', name: 'Torchbearer', kind: 'npc', characterId: hireling }] });
    const placements = (v: TableView) => Object.fromEntries(Object.entries((v.world.ext['encounter'] as { combatants: { [id: string]: { placement: Json } } }).combatants).map(([id, c]) => [id, c.placement]));
    expect(placements(s.view(player))).toEqual({ f: { score: 16, tie: 0, order: 0 }, o: { order: 1 }, t: { score: 12, tie: 1, order: 2 } });
    const started = events(s.view(player), 'encounter.started')[0]!['combatants'] as { id: string; placement: Json }[];
    expect(started.find((c) => c.id === 't')!.placement).toMatchObject({ score: 12 });
    expect(started.find((c) => c.id === 'o')!.placement).not.toHaveProperty('score');
  });

  it("a player's odds against the Orc say its AC is secret until revealed; the GM's are exact", () => {
    const { s, pc, orc, player } = setup();
    const ask = (viewer: Viewer) => s.engine.query(s.table, viewer, 'osr.attackOdds', { attackerId: pc, targetId: orc, kind: 'melee' });
    const gm = ask(GM);
    expect(gm).toMatchObject({ ok: true, value: { ac: 13 } });
    const refused = ask(player);
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'targetId' } });
    expect(JSON.stringify(refused)).not.toMatch(/13/);
    // The Orc's own attack needs its scores: refused too, and its status.
    expect(s.engine.query(s.table, player, 'osr.attackOdds', { attackerId: orc, targetId: pc })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'attackerId' } });
    expect(s.engine.query(s.table, player, 'osr.characterStatus', { id: orc })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN' } });
    // Under today's field name the refusal names it (characterId; `id` is its old name).
    expect(s.engine.query(s.table, player, 'osr.characterStatus', { characterId: orc })).toMatchObject({ ok: false, error: { code: 'VALUES_HIDDEN', path: 'characterId' } });
    s.run({ type: 'foes.reveal', reveal: 'defences' });
    expect(ask(player)).toEqual(gm);
  });
});
