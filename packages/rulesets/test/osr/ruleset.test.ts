// The osr ruleset as the registry builds it: settings, initiative with ambush and delay, secrets in views.
import { describe, expect, it } from 'vitest';
import { seededRng } from '@tablekeeper/engine';
import { createTableFor, engineFor, rulesetInfo } from '../../src/registry.js';
import { OSR_SETTINGS } from '../../src/osr/settings.js';
import { osrTable } from './helpers.js';

describe('the registry\'s osr ruleset', () => {
  it('lists every named setting with a source, and checks overrides', () => {
    const info = rulesetInfo('osr')!;
    for (const s of OSR_SETTINGS) expect(info.settings.find((x) => x.key === s.key)).toMatchObject({ default: s.default });
    expect(OSR_SETTINGS.every((s) => s.source.includes('001') || s.source.includes('README'))).toBe(true);
    const ok = createTableFor('osr', { tableId: 't', name: 'x', settings: { 'osr.critDoubles': 'dice' } });
    expect(ok.ok && ok.value.world.settings['osr.critDoubles']).toBe('dice');
    expect(createTableFor('osr', { tableId: 't', name: 'x', settings: { 'osr.deathWindowSeconds': 'soon' } }).ok).toBe(false);
  });
  it('a table from the registry runs a travel turn', () => {
    const engine = engineFor('osr')!;
    const t = createTableFor('osr', { tableId: 't', name: 'x' });
    if (!t.ok) throw new Error('no table');
    const r = engine.execute(t.value, { type: 'osr.travelTurn' }, { rng: seededRng(1), actor: { role: 'gm' } });
    expect(r.ok && r.value.table.world.clock.seconds).toBe(3600);
  });
});

describe('initiative (001 "Initiative")', () => {
  it('DEX score order; an ambush gives the ambushers a surprise round; delay moves you lower', () => {
    const t = osrTable();
    const pc = t.add('PC', { dex: 15, maxHp: 8 });
    const gob = t.add('Goblin', { dex: 13 }, 'npc');
    const wolf = t.add('Wolf', { dex: 16 }, 'npc');
    t.run({
      type: 'encounter.start',
      combatants: [
        { id: 'p', kind: 'pc', characterId: pc, stats: { dex: 15 } },
        { id: 'g', kind: 'npc', characterId: gob, stats: { dex: 13 } },
        { id: 'w', kind: 'npc', characterId: wolf, stats: { dex: 16 } },
      ],
      surprise: { side: 'npcs' },
    });
    const enc = () => t.world.ext['encounter'] as { current: string; round: number };
    expect(enc()).toMatchObject({ round: 0, current: 'w' });
    t.run({ type: 'encounter.endTurn' });
    expect(enc().current).toBe('g');
    t.run({ type: 'encounter.endTurn' });
    expect(enc()).toMatchObject({ round: 1, current: 'w' });
    t.run({ type: 'encounter.endTurn' });
    expect(enc().current).toBe('p');
    t.run({ type: 'encounter.delay', to: { score: 10 } });
    expect(enc().current).toBe('g');
    t.run({ type: 'encounter.endTurn' });
    expect(enc().current).toBe('p');
  });
});

describe('secrets', () => {
  it('a hidden NPC\'s attack and its HP stay with the GM', () => {
    const t = osrTable();
    const pc = t.add('PC', { maxHp: 8, ac: 10 });
    const lurker = t.s.run({ type: 'character.add', name: 'Lurker', kind: 'npc', visibility: 'hidden', stats: { str: 14 } });
    const id = String(lurker.kind === 'command' ? lurker.events[0]!['id'] : '');
    t.dice.queue(15, 3);
    t.run({ type: 'osr.attack', attacker: id, target: pc, damage: '1d4' });
    const spectator = t.s.view({ role: 'spectator' });
    expect(JSON.stringify(spectator.world.log)).not.toContain('Lurker');
    expect(JSON.stringify(t.s.view({ role: 'gm' }).world.log)).toContain('Lurker');
  });
});

describe('who may do what', () => {
  it('players attack, hide, move and light sources for their own characters only; GM matters stay GM-only', () => {
    const t = osrTable();
    const seat = t.seat('Ann');
    const me = { role: 'player' as const, seatId: seat };
    const mine = t.add('Mine', { maxHp: 8 }, 'pc', seat);
    const other = t.add('Other', { maxHp: 8 });
    const orc = t.add('Orc', { maxHp: 8 }, 'npc');
    t.dice.queue(10, 3);
    t.s.run({ type: 'osr.attack', attacker: mine, target: orc }, me);
    expect(t.s.fail({ type: 'osr.attack', attacker: other, target: orc }, me).code).toBe('FORBIDDEN');
    t.s.run({ type: 'osr.lightSource', kind: 'torch', owner: mine }, me);
    expect(t.s.fail({ type: 'osr.lightSource', kind: 'torch', owner: other }, me).code).toBe('FORBIDDEN');
    expect(t.s.fail({ type: 'osr.lightSource', kind: 'torch' }, me).code).toBe('FORBIDDEN');
    for (const type of ['osr.travelTurn', 'osr.rest', 'osr.damage', 'osr.heal', 'osr.morale', 'osr.setLight', 'osr.treasure', 'osr.expose']) {
      expect(t.s.fail({ type, target: mine, character: mine, characters: [mine] }, me).code).toBe('FORBIDDEN');
    }
    expect(t.s.fail({ type: 'osr.check', character: mine, dc: 10 }, { role: 'spectator' }).code).toBe('FORBIDDEN');
  });
});
