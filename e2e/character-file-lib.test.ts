// A character as a file (issue 20): exported from one table and imported at
// another of the same rules through the real engine, with the ruleset's own
// sheet where it keeps one (36th Way, teams); a bad file is refused with the
// field named.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Transaction, type Command, type Scenario } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings } from '@tablekeeper/rulesets';
import { addCommand, characterExport, exportGroups, freeName, importCommand, namesake, parseCharacterFile, replaceCommand } from '../packages/web/src/lib/characterFile.ts';

const idOf = (tx: Transaction): string => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');

function table(id: string, seed: number): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(seed)), rulesetId: id, settings: settings.value });
}
const added = (s: Scenario, c: Command): string => idOf(s.run(c)) as string;

/** Export from one table, import at a fresh one; returns the new table and the new id. */
function roundTrip(rulesetId: string, setup: (s: Scenario, id: string) => void, stats: { [k: string]: number | string | boolean } = {}): { from: Scenario; to: Scenario; fromId: string; toId: string } {
  const from = table(rulesetId, 1);
  const fromId = added(from, { type: 'character.add', name: 'Kira', kind: 'pc', stats });
  setup(from, fromId);
  const text = JSON.stringify(characterExport(from.world, fromId));
  const parsed = parseCharacterFile(text, rulesetId);
  if (!parsed.ok) throw new Error(parsed.errors.join(' '));
  const to = table(rulesetId, 99);
  to.run({ type: 'character.add', name: 'Someone else', kind: 'pc' });
  // The import is one command (a batch when a sheet comes with it): the new id is the character.added event's.
  const toId = added(to, importCommand(to.world, parsed.file) as Command);
  return { from, to, fromId, toId };
}

describe('a character file', () => {
  it('carries an OSR character\'s sheet (its stats) to another table', () => {
    const { to, toId } = roundTrip('osr', () => undefined, { hp: 9, maxHp: 9, str: 14, dex: 12, level: 2 });
    expect(to.world.characters[toId]).toMatchObject({ name: 'Kira', kind: 'pc', stats: { hp: 9, maxHp: 9, str: 14, dex: 12, level: 2 } });
  });

  it('carries a Kleptonomicon Edge Save and Sneaky (kept on the character)', () => {
    const { to, toId } = roundTrip('kleptonomicon', (s, id) => void s.run({ type: 'kleptonomicon.setSheet', characterId: id, edgeSave: 3, sneaky: true }));
    expect(to.world.characters[toId]!.stats).toMatchObject({ edgeSave: 3, sneaky: true });
  });

  it('carries a teams sheet, linked to the new character', () => {
    const { from, fromId, to, toId } = roundTrip('teams', (s, id) =>
      void s.run({ type: 'character.sheet.set', characterId: id, sheet: { name: 'Kira', attributes: { strength: 8 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: {} } }),
    );
    const sheetOf = (s: Scenario, id: string) => (s.world.ext['teams'] as { sheets: { [k: string]: { [k: string]: unknown } } }).sheets[id]!;
    expect(sheetOf(to, toId)).toMatchObject({ characterId: toId, evasion: 5, maxEndurance: 12, attributes: { strength: 8 } });
    expect(JSON.stringify(characterExport(from.world, fromId))).not.toContain(fromId);
  });

  it('is one change: one Undo takes back the character and its sheet (teams, the 36th Way)', () => {
    const teams = roundTrip('teams', (s, id) =>
      void s.run({ type: 'character.sheet.set', characterId: id, sheet: { name: 'Kira', attributes: { strength: 8 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: {} } }),
    );
    const tsw = roundTrip('36th-way', (s, id) => void s.run({ type: '36th-way.sheet.set', sheet: { id, name: 'Kira', kind: 'pc', characterId: id, level: 2, volition: 1, ac: 15, pd: 13, md: 11, maxHp: 30, abilities: [] } }));
    for (const [{ to, toId }, ext] of [[teams, 'teams'], [tsw, '36th-way']] as const) {
      const sheets = () => (to.world.ext[ext] as { sheets?: { [k: string]: unknown } } | undefined)?.sheets ?? {};
      expect(Object.hasOwn(sheets(), toId)).toBe(true);
      to.run({ type: 'history.undo' });
      expect(Object.hasOwn(to.world.characters, toId)).toBe(false);
      expect(Object.hasOwn(sheets(), toId)).toBe(false);
      expect(Object.values(to.world.characters).map((c) => c.name)).toEqual(['Someone else']);
    }
  });

  it('without a sheet, the import is the plain character.add', () => {
    const parsed = parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: 'Bram', kind: 'pc', stats: { hp: 4 } } }), 'osr');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(importCommand({ rulesetId: 'osr' }, parsed.file)).toEqual(addCommand(parsed.file));
  });

  it('carries a 36th Way sheet under the new id', () => {
    const { to, toId } = roundTrip('36th-way', (s, id) => void s.run({ type: '36th-way.sheet.set', sheet: { id, name: 'Kira', kind: 'pc', characterId: id, level: 2, volition: 1, ac: 15, pd: 13, md: 11, maxHp: 30, abilities: [] } }));
    const sheet = (to.world.ext['36th-way'] as { sheets: { [k: string]: { [k: string]: unknown } } }).sheets[toId]!;
    expect(sheet).toMatchObject({ id: toId, characterId: toId, level: 2, ac: 15, maxHp: 30 });
  });

  it('names what is wrong with a bad file', () => {
    expect(parseCharacterFile('nope', 'osr')).toEqual({ ok: false, errors: ['The file is not a character file: it is not JSON text.'] });
    expect(parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'teams', character: {} }), 'osr')).toEqual({
      ok: false,
      errors: ['The file holds a character for Teams; this table plays OSR.'],
    });
    expect(parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: '', kind: 'hero', stats: [] }, extra: 1 }), 'osr')).toEqual({
      ok: false,
      errors: ['character.name: the name must be 1 to 100 characters.', 'character.kind: must be pc or npc.', "character.stats: must be an object of the sheet's numbers.", 'unknown field extra.'],
    });
  });

  it('finds the namesake already at the table, offers the next free "Kira N", and replaces onto the same id (seat kept)', () => {
    const s = table('osr', 4);
    const seat = idOf(s.run({ type: 'seat.add', name: 'Ann' }));
    const kira = added(s, { type: 'character.add', name: 'Kira', kind: 'pc', seatId: seat, stats: { hp: 6, maxHp: 8, dex: 10 } });
    s.run({ type: 'character.add', name: 'Kira 2', kind: 'pc' });
    const parsed = parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: ' kira ', kind: 'pc', stats: { hp: 8, maxHp: 8, dex: 16 } } }), 'osr');
    if (!parsed.ok) throw new Error(parsed.errors.join(' '));
    expect(namesake(s.world, parsed.file)?.id).toBe(kira);
    // "Kira 2" is taken: the next free name is "Kira 3".
    expect(freeName(s.world, 'Kira')).toBe('Kira 3');
    s.run(replaceCommand(s.world, parsed.file, kira) as Command);
    expect(s.world.characters[kira]).toMatchObject({ name: 'Kira', seatId: seat, stats: { hp: 8, maxHp: 8, dex: 16 } });
    expect(Object.values(s.world.characters).map((c) => c.name).sort()).toEqual(['Kira', 'Kira 2']);
    const other = added(s, importCommand(s.world, parsed.file, freeName(s.world, 'kira')) as Command);
    expect(s.world.characters[other]!.name).toBe('kira 3');
    expect(namesake(table('osr', 5).world, parsed.file)).toBeNull();
  });

  it('replaces a 36th Way sheet in place: the character keeps its id and takes the file\'s sheet', () => {
    const { to, toId } = roundTrip('36th-way', (s, id) => void s.run({ type: '36th-way.sheet.set', sheet: { id, name: 'Kira', kind: 'pc', characterId: id, level: 2, volition: 1, ac: 15, pd: 13, md: 11, maxHp: 30, abilities: [] } }));
    const file = characterExport(to.world, toId)!;
    const changed = { ...file, sheet: { ...file.sheet!, ac: 17 } };
    to.run(replaceCommand(to.world, changed, toId) as Command);
    const sheet = (to.world.ext['36th-way'] as { sheets: { [k: string]: { [k: string]: unknown } } }).sheets[toId]!;
    expect(sheet).toMatchObject({ characterId: toId, ac: 17, maxHp: 30 });
    expect(Object.keys(to.world.characters)).toHaveLength(2);
  });

  it('groups the export list: party, the last fight\'s foes, past foes still standing; a fallen past foe is left out', () => {
    const s = table('osr', 6);
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { dex: 14, hp: 8, maxHp: 8 } });
    const old1 = added(s, { type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { dex: 10, hp: 0, maxHp: 5 } });
    const old2 = added(s, { type: 'character.add', name: 'Goblin 2', kind: 'npc', stats: { dex: 10, hp: 5, maxHp: 5 } });
    const new1 = added(s, { type: 'character.add', name: 'Goblin 1', kind: 'npc', stats: { dex: 10, hp: 5, maxHp: 5 } });
    s.run({ type: 'encounter.start', combatants: [{ name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: new1, stats: { dex: 10, hp: 5, maxHp: 5 } }] });
    const groups = exportGroups(s.world);
    expect(groups.map((g) => [g.label, g.options.map((o) => o.label)])).toEqual([
      ['Party', ['Kira']],
      ['Foes in this fight', ['Goblin 1']],
      ['Foes of past fights', ['Goblin 2']],
    ]);
    const ids = groups.flatMap((g) => g.options.map((o) => o.id));
    expect(ids).toContain(old2);
    expect(ids).not.toContain(old1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses more than 200 stats before sending; a value the core takes as it is goes through', () => {
    const s = table('osr', 3);
    const stats = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, i]));
    const parsed = parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: 'Big', kind: 'pc', stats } }), 'osr');
    expect(parsed.ok).toBe(false);
    const ok = parseCharacterFile(JSON.stringify({ format: 'tablekeeper-character', version: 1, rulesetId: 'osr', character: { name: 'x'.repeat(100), kind: 'pc', stats: { hp: 'lots' } } }), 'osr');
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(s.engine.execute(s.table, addCommand(ok.file) as Command, { rng: s.rng, actor: { role: 'gm' } }).ok).toBe(true);
  });
});
