// Views carry the kernel's on-deck combatant (the web shows it; it no longer
// guesses), and a hidden combatant on deck is never named to players.
import { describe, expect, it } from 'vitest';
import type { Viewer, World } from '../../src/core/types.js';
import { OSR_ECONOMY } from '../../src/encounter/economies.js';
import { encounterModule, onDeck } from '../../src/encounter/module.js';
import { scoreSequencer } from '../../src/encounter/sequencers/score.js';
import type { EncounterRules, EncounterState } from '../../src/encounter/types.js';
import { Table } from './harness.js';

const rules: EncounterRules = { sequencer: scoreSequencer(), economy: OSR_ECONOMY, conditions: [] };
const GM: Viewer = { role: 'gm' };
const ann: Viewer = { role: 'player', seatId: 's1' };
const spectator: Viewer = { role: 'spectator' };
const SECRET = 'Zz-secret-lurker';

const encOf = (w: World): EncounterState => w.ext['encounter'] as unknown as EncounterState;
const deckFor = (t: Table, v: Viewer): string | null | undefined => encOf(t.engine.view(t.table, v).world).onDeck;

function table(): Table {
  const t = new Table([encounterModule(rules)]);
  // DEX order: ada 16, lurk 14 (hidden), orc 12, imp 9.
  t.ok({
    type: 'encounter.start',
    combatants: [
      { id: 'ada', kind: 'pc', stats: { dex: 16 } },
      { id: 'lurk', name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex: 14 } },
      { id: 'orc', name: 'Orc', kind: 'npc', stats: { dex: 12 } },
      { id: 'imp', name: 'Imp', kind: 'npc', stats: { dex: 9 } },
    ],
  });
  return t;
}

describe('on deck in the view', () => {
  it("the GM's view carries the kernel's onDeck; it is never stored in the world", () => {
    const t = table();
    expect(t.enc.current).toBe('ada');
    expect(onDeck(t.world, rules)).toBe('lurk');
    expect(deckFor(t, GM)).toBe('lurk');
    expect('onDeck' in t.enc).toBe(false);
    t.ok({ type: 'encounter.endTurn' });
    expect(deckFor(t, GM)).toBe(onDeck(t.world, rules));
    expect(deckFor(t, GM)).toBe('orc');
  });

  it('a hidden combatant on deck is not named to players: they see the next one they can see', () => {
    const t = table();
    for (const v of [ann, spectator]) {
      expect(deckFor(t, v)).toBe('orc');
      const json = JSON.stringify(t.engine.view(t.table, v));
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain('lurk');
    }
    // While the hidden one acts, players see nobody current and the orc next, as if the lurker did not exist.
    t.ok({ type: 'encounter.endTurn' });
    expect(t.enc.current).toBe('lurk');
    expect(encOf(t.engine.view(t.table, ann).world).current).toBeNull();
    expect(deckFor(t, ann)).toBe('orc');
    t.ok({ type: 'encounter.endTurn' });
    expect(deckFor(t, ann)).toBe('imp');
  });

  it('a revealed combatant on deck is shown to players too; an ended encounter has nobody on deck', () => {
    const t = table();
    t.ok({ type: 'encounter.reveal', id: 'lurk' });
    expect(deckFor(t, ann)).toBe('lurk');
    t.ok({ type: 'encounter.end' });
    expect(deckFor(t, GM)).toBeNull();
    expect(deckFor(t, ann)).toBeNull();
  });

  it('a table with no encounter gets no encounter state from the view', () => {
    const t = new Table([encounterModule(rules)]);
    expect(t.engine.view(t.table, ann).world.ext['encounter']).toBeUndefined();
  });
});

describe('encounter.setStats', () => {
  it("edits an NPC combatant's own numbers; undo restores them; a hidden one's change stays with the GM", () => {
    const t = new Table([encounterModule(rules)]);
    t.ok({
      type: 'encounter.start',
      combatants: [
        { id: 'orc', name: 'Orc', kind: 'npc', stats: { dex: 12, hp: 7, maxHp: 7 } },
        { id: 'lurk', name: SECRET, kind: 'npc', visibility: 'hidden', stats: { dex: 14, hp: 9, maxHp: 9 } },
      ],
    });
    const [e] = t.ok({ type: 'encounter.setStats', id: 'orc', stats: { hp: 5 } });
    expect(e).toEqual({ type: 'encounter.statsSet', id: 'orc', stats: { hp: 5 }, from: { hp: 7 } });
    expect(t.enc.combatants['orc']!.stats).toEqual({ dex: 12, hp: 5, maxHp: 7 });
    t.undo();
    expect(t.enc.combatants['orc']!.stats['hp']).toBe(7);
    t.ok({ type: 'encounter.setStats', id: 'lurk', stats: { hp: 4 } });
    const tx = t.table.transactions.at(-1)!;
    expect(tx.kind === 'command' && tx.audiences).toEqual([{ kind: 'gm' }]);
    const seen = t.engine.view(t.table, ann);
    expect(seen.history.some((h) => h.seq === tx.seq)).toBe(false);
    expect(JSON.stringify(seen)).not.toContain('"hp":4');
  });

  it('refuses bad input with typed errors, and players', () => {
    const t = table();
    expect(t.run({ type: 'encounter.setStats', id: 'nobody', stats: { hp: 1 } })?.code).toBe('NOT_FOUND');
    expect(t.run({ type: 'encounter.setStats', id: 'orc', stats: {} })?.code).toBe('INVALID_VALUE');
    expect(t.run({ type: 'encounter.setStats', id: 'orc', stats: { hp: { deep: 1 } } })).toMatchObject({ code: 'INVALID_VALUE', path: 'stats.hp' });
    expect(t.run({ type: 'encounter.setStats', id: 'orc', stats: Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i])) })?.code).toBe('TOO_MANY');
    expect(t.run({ type: 'encounter.setStats', id: 'orc', stats: { hp: 1 } }, ann)?.code).toBe('FORBIDDEN');
  });

  it('a stat named like an Object member is a new stat like any other (was nothing before: from null)', () => {
    const t = table();
    const [e] = t.ok({ type: 'encounter.setStats', id: 'orc', stats: { constructor: 3, toString: 'x' } });
    expect(e).toEqual({ type: 'encounter.statsSet', id: 'orc', stats: { constructor: 3, toString: 'x' }, from: { constructor: null, toString: null } });
    expect(t.enc.combatants['orc']!.stats['constructor']).toBe(3);
  });
});

describe('the economy in the view', () => {
  it('every viewer gets the ruleset\'s action economy with the encounter, never stored in the world', () => {
    const t = table();
    for (const v of [GM, ann, spectator]) expect(encOf(t.engine.view(t.table, v).world).economyDef).toEqual(OSR_ECONOMY);
    expect('economyDef' in t.enc).toBe(false);
  });
});
