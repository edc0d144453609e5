// The browser's sheet selectors (issue 17, ADR 39): the web reads the sheets the
// 36th Way and teams keep through these, never through world.ext. Checked on
// real tables: what a selector reads back is what the sheet command stored, a
// sheet read back is one the command takes again, and a viewer's selectors see
// only what their projected world holds.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Json, type Table, type Transaction, type Viewer } from '@tablekeeper/engine';
import { hasKeptSheet, keptSheetAsEntered, keptSheetOf, keptSheetRulesOf, keptSheets, keptSheetTrack, SHEET_PLAY_STATE } from '../src/browser.js';
import { engineFor, resolveSettings, rulesetIds } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };

function table(rulesetId: string) {
  const engine = engineFor(rulesetId)!;
  const settings = resolveSettings(rulesetId);
  if (!settings.ok) throw new Error(settings.error.message);
  const rng = seededRng(5);
  let t: Table = engine.createTable({ tableId: 't', name: 'Selectors', rulesetId, settings: settings.value });
  const run = (c: Command): Transaction => {
    const r = engine.execute(t, c, { rng, actor: GM });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    t = r.value.table;
    return r.value.transaction;
  };
  const minted = (tx: Transaction) => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');
  return { engine, run, minted, get table() { return t; }, view: (v: Viewer) => engine.view(t, v).world };
}

const SHEETS: { readonly [rules: string]: { readonly [k: string]: Json } } = {
  '36th-way': { level: 2, maxHp: 24, ac: 15, pd: 13, md: 11, abilities: [{ id: 'odd', name: 'Odd Strike', frequency: 'at-will', action: 'quick', escalation: { min: 0, parity: 'odd' } }] },
  teams: { evasion: 6, constitution: 5, maxHealth: 12, maxEndurance: 9 },
};

describe('kept-sheet selectors', () => {
  it.each(rulesetIds)('%s: only the 36th Way and teams keep sheets of their own', (rulesetId) => {
    const t = table(rulesetId);
    const id = t.minted(t.run({ type: 'character.add', name: 'Ann', kind: 'pc' }));
    expect(keptSheetRulesOf(rulesetId)).toBe(rulesetId === '36th-way' || rulesetId === 'teams' ? rulesetId : null);
    if (keptSheetRulesOf(rulesetId) === null) {
      expect(keptSheets(t.table.world)).toEqual({});
      expect(keptSheetOf(t.table.world, id, id)).toBeNull();
    }
  });

  it('teams (003 "Death"): an unconscious sheet reads unconscious, with what may come next, for the card (review 13 #8)', () => {
    const t = table('teams');
    const seat = t.minted(t.run({ type: 'seat.add', name: 'Ann' }));
    const id = t.minted(t.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: seat }));
    t.run({ type: 'character.sheet.set', characterId: id, sheet: { ...SHEETS['teams']!, conscious: false } });
    const track = keptSheetTrack(t.table.world, id, id);
    expect(track).toMatchObject({ unconscious: true });
    expect(track['lifeNote']).toBe('cannot act until conscious again; more damage past their health risks death, and an enemy may try a killing strike');
  });

  it.each(['36th-way', 'teams'] as const)('%s: a sheet set by character.sheet.set reads back through the selectors, and what they read back the command takes again', (rules) => {
    const t = table(rules);
    const seat = t.minted(t.run({ type: 'seat.add', name: 'Ann' }));
    const id = t.minted(t.run({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: seat }));
    t.run({ type: 'character.sheet.set', characterId: id, sheet: SHEETS[rules]! });
    const world = t.table.world;
    expect(hasKeptSheet(world, id) || Object.values(keptSheets(world)).some((s) => s['characterId'] === id)).toBe(true);
    const stored = keptSheetOf(world, id, id)!;
    expect(stored).not.toBeNull();
    for (const [k, v] of Object.entries(SHEETS[rules]!)) if (k !== 'abilities') expect(stored[k], k).toEqual(v);
    // The tracker reads hit points off the sheet: a fresh sheet starts at its maximum.
    const track = keptSheetTrack(world, id, id);
    if (rules === '36th-way') expect(track).toMatchObject({ hp: 24, maxHp: 24 });
    else expect(track).toMatchObject({ health: 12, maxHealth: 12, endurance: 9, maxEndurance: 9 });
    // Standing, nobody is dying or unconscious, and no note is read out.
    expect(track).not.toHaveProperty('lifeNote');
    // As entered: the 36th Way's abilities come back as the list the command takes.
    const entered = keptSheetAsEntered(rules, stored, { withoutPlayState: true });
    for (const k of SHEET_PLAY_STATE[rules]) expect(Object.hasOwn(entered, k), k).toBe(false);
    if (rules === '36th-way') expect(entered['abilities']).toEqual([expect.objectContaining({ id: 'odd', name: 'Odd Strike', frequency: 'at-will' })]);
    const before = JSON.stringify(keptSheets(t.table.world));
    t.run({ type: 'character.sheet.set', characterId: id, sheet: Object.fromEntries(Object.entries(entered).filter(([k]) => k !== 'id' && k !== 'characterId' && k !== 'name' && k !== 'kind')), patch: true });
    expect(JSON.stringify(keptSheets(t.table.world))).toBe(before);
    // The player's own view holds it too.
    expect(keptSheetOf(t.view({ role: 'player', seatId: seat }), id, id)).not.toBeNull();
  });

  it.each(['36th-way', 'teams'] as const)("%s: a hidden foe's sheet is in no player's or spectator's selectors", (rules) => {
    const t = table(rules);
    t.run({ type: 'seat.add', name: 'Ann' });
    const foe = t.minted(t.run({ type: 'character.add', name: 'Whisper', kind: 'npc', visibility: 'hidden' }));
    t.run({ type: 'character.sheet.set', characterId: foe, sheet: SHEETS[rules]! });
    expect(keptSheetOf(t.table.world, foe, foe)).not.toBeNull();
    for (const v of [{ role: 'player', seatId: 'x' }, { role: 'spectator' }] as const) {
      const w = t.view(v);
      expect(keptSheetOf(w, foe, foe)).toBeNull();
      expect(JSON.stringify(keptSheets(w))).not.toContain('Whisper');
    }
  });
});
