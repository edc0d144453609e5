// The TV display's model (issue 20), read from a real spectator projection:
// turn order with the current turn and defeated foes, the round, visible
// countdowns (name only when the GM shows only that), and nothing hidden.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { tvModel } from '../packages/web/src/lib/tv.ts';
import { tvLink, wantsTv } from '../packages/web/src/lib/tv-link.ts';

const SPECTATOR = { role: 'spectator' } as const;

function osrTable() {
  const settings = resolveSettings('osr');
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor('osr')!.modules, { rng: countingIds(seededRng(5)), rulesetId: 'osr', settings: settings.value });
}

describe('the TV model', () => {
  it('shows the DEX order of a fight, the current turn and the round, and never the hidden foe', () => {
    const s = osrTable();
    s.run({ type: 'table.rename', name: 'Friday' });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'a', name: 'Kira', kind: 'pc', side: 'pcs', stats: { dex: 12 }, visibility: 'visible' },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'npcs', stats: { dex: 14, hp: 7, maxHp: 7 }, visibility: 'visible' },
        { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'npcs', stats: { dex: 8, hp: 7, maxHp: 7 }, visibility: 'visible' },
        { id: 'x', name: 'Secret lurker', kind: 'npc', side: 'npcs', stats: { dex: 20, hp: 9 }, visibility: 'hidden' },
      ],
    });
    const m = tvModel(s.view(SPECTATOR).world);
    expect(m.table).toBe('Friday');
    expect(m.round).toBe('Round 1');
    // 001 "Initiative": highest DEX first (the lurker's 20 is not shown at all).
    expect(m.order.map((r) => r.name)).toEqual(['Goblin 1', 'Kira', 'Goblin 2']);
    expect(JSON.stringify(m)).not.toContain('lurker');
    expect(m.turn === null || ['Goblin 1', 'Kira', 'Goblin 2'].includes(m.turn)).toBe(true);
    expect(m.order.filter((r) => r.current).length).toBeLessThanOrEqual(1);
  });

  it('marks a foe at 0 HP defeated, and says when the fight is over', () => {
    const s = osrTable();
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'a', name: 'Kira', kind: 'pc', side: 'pcs', stats: { dex: 12 }, visibility: 'visible' },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'npcs', stats: { dex: 14, hp: 7, maxHp: 7 }, visibility: 'visible' },
      ],
    });
    s.run({ type: 'encounter.damage', id: 'g1', amount: 7 });
    expect(tvModel(s.view(SPECTATOR).world).order.find((r) => r.name === 'Goblin 1')?.defeated).toBe(true);
    s.run({ type: 'encounter.end' });
    const m = tvModel(s.view(SPECTATOR).world);
    expect([m.round, m.order, m.idle]).toEqual([null, [], 'The encounter has ended.']);
  });

  it("shows each visible creature's health track and conditions as the phones read them, no foe's HP (the GM's, as on the phones), and nothing of a hidden foe", () => {
    const s = osrTable();
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'a', name: 'Kira', kind: 'pc', side: 'pcs', stats: { dex: 12, hp: 8, maxHp: 8 }, visibility: 'visible' },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'npcs', stats: { dex: 14, hp: 8, maxHp: 8 }, visibility: 'visible' },
        { id: 'x', name: 'Secret lurker', kind: 'npc', side: 'npcs', stats: { dex: 20, hp: 9, maxHp: 9 }, visibility: 'hidden' },
      ],
    });
    s.run({ type: 'encounter.damage', id: 'a', amount: 3 });
    s.run({ type: 'encounter.damage', id: 'g1', amount: 5 });
    s.run({ type: 'condition.apply', targetId: 'g1', condition: 'custom:Shaken', duration: { kind: 'rounds', rounds: 2 } });
    s.run({ type: 'condition.apply', targetId: 'x', condition: 'custom:Invisible', duration: { kind: 'indefinite' } });
    const row = (name: string) => tvModel(s.view(SPECTATOR).world).order.find((r) => r.name === name)!;
    // 8 - 3 = 5 of 8: the PC's numbers are the party's, shown as on the phones.
    expect(row('Kira').tracks).toEqual([{ label: 'HP', value: 5, max: 8, states: [] }]);
    // A foe's hit points stay with the GM (the encounter projection drops them): no track, its condition as a chip.
    expect(row('Goblin 1').tracks).toEqual([]);
    expect(row('Goblin 1').conditions).toEqual(['Shaken · 2 rounds left']);
    const m = tvModel(s.view(SPECTATOR).world);
    expect(m.order.map((r) => r.name).sort()).toEqual(['Goblin 1', 'Kira']);
    expect(JSON.stringify(m)).not.toMatch(/lurker|Invisible/);
  });

  it('lists visible countdowns with their value, name-only ones without, hidden ones not at all', () => {
    const s = osrTable();
    s.run({ type: 'countdown.create', name: 'Torches gutter', start: 4, visibility: 'visible' });
    s.run({ type: 'countdown.create', name: 'Something stirs', start: 3, visibility: 'existence' });
    s.run({ type: 'countdown.create', name: 'Secret reinforcements', start: 2, visibility: 'hidden' });
    const m = tvModel(s.view(SPECTATOR).world);
    expect(m.countdowns.map((c) => [c.name, c.value, c.start])).toEqual([
      ['Torches gutter', 4, 4],
      ['Something stirs', null, null],
    ]);
    expect(m.idle).toBe('No fight right now.');
  });
});

describe('the TV link', () => {
  it('is the spectator link with view=tv, once', () => {
    const link = 'http://h:1/#spectator=abc';
    expect(tvLink(link)).toBe('http://h:1/#spectator=abc&view=tv');
    expect(tvLink(tvLink(link))).toBe('http://h:1/#spectator=abc&view=tv');
    expect(wantsTv('#spectator=abc&view=tv')).toBe(true);
    expect(wantsTv('#spectator=abc')).toBe(false);
  });
});
