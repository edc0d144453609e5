// The bound kit gives the same answers as the free helpers.
import { describe, expect, it } from 'vitest';
import { encounterKit } from '../../src/encounter/kit.js';
import { bandsEncounter } from '../../src/encounter/systems.js';
import { Table } from './harness.js';

describe('encounterKit', () => {
  it('binds the rules: net advantage, escalation, on deck, spending', () => {
    const kit = encounterKit({
      ...bandsEncounter(),
      conditions: [
        { id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } },
        { id: 'weakened', name: 'Weakened', stacking: 'refresh', effects: { 'attack.advantage': -1, 'against.attack.advantage': 1 } },
      ],
    });
    const t = new Table([kit.module]);
    t.ok({ type: 'encounter.start', combatants: [{ id: 'a', kind: 'pc', band: 'fast' }, { id: 'o', kind: 'npc', band: 'slow' }] });
    t.ok({ type: 'condition.apply', target: 'o', condition: 'dazed', duration: { kind: 'encounterEnd' } });
    t.ok({ type: 'condition.apply', target: 'o', condition: 'weakened', duration: { kind: 'encounterEnd' } });
    expect(kit.netAdvantage(t.world, 'o', 'attack')).toBe(-2);
    expect(kit.netAdvantage(t.world, 'a', 'attack', 'o')).toBe(1);
    expect(kit.escalation(t.world)).toBe(0);
    expect(kit.onDeck(t.world)).toBe('o');
    expect(kit.canAct(t.world, 'o')).toBe(true);
    const spend = kit.spend(t.world, 'a', { kind: 'standard' });
    expect(spend.ok).toBe(true);
    expect(kit.spend(t.world, 'zed', { kind: 'standard' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(kit.economy(t.world, 'a').spent['standard']).toBe(0); // only decided, not applied
  });
});
