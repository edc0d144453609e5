// The bestiary panel's helpers against each real ruleset engine (no browser):
// the starters are accepted by the ruleset's own stat block schema, "Goblin"
// x6 from a stat block starts an encounter with the block's numbers, a
// line-up survives the trip through a template, and the bestiary file reads
// back (or is refused with the entry named).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bestiaryOf, getCountdowns, scenario, seededRng, type BestiaryEntry, type EncounterTemplate, type EngineEvent, type Json, type Scenario, type Transaction } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { engineFor, resolveSettings, rulesetIds } from '@tablekeeper/rulesets';
import { groupNames, startersOf } from '@tablekeeper/rulesets/browser';
import { adversariesCommand, blockLine, missingStarters, draftsFromEntry, draftsFromTemplate, exportText, importPathWords, linesFromDrafts, linesFromEncounter, parseBestiaryFile, renumberedPlain, templateLine } from '../packages/web/src/lib/bestiary.ts';
import { draftsFrom, initiativeOf, startCommand, type Draft } from '../packages/web/src/lib/initiative.ts';
import { encounterOf, displayOrder } from '../packages/web/src/lib/encounter.ts';

let n = 0;
const ids = (kind: 'pc' | 'npc') => `${kind}-b${++n}`;
function table(id: string): Scenario {
  const settings = resolveSettings(id);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(id)!.modules, { rng: countingIds(seededRng(3)), rulesetId: id, settings: settings.value });
}
const first = (tx: Transaction): EngineEvent => (tx.kind === 'command' ? tx.events[0]! : { type: 'none' });
const entryOf = (s: Scenario, name: string): BestiaryEntry => Object.values(bestiaryOf(s.world.ext).entries).find((e) => e.name === name)!;

describe.each(rulesetIds)('%s', (id) => {
  it('takes its starters through bestiary.import (the note says when the rule text has none)', () => {
    const s = table(id);
    const starters = startersOf(id);
    expect(starters.note.length).toBeGreaterThan(10);
    if (starters.entries.length === 0) return expect(starters.note).toMatch(/no example foes|lists none/);
    s.run({ type: 'bestiary.import', entries: starters.entries as never });
    expect(Object.values(bestiaryOf(s.world.ext).entries).map((e) => e.name)).toEqual(starters.entries.map((e) => e.name));
  });

  it('starts an encounter with six foes from one stat block, hidden, carrying its hit points', () => {
    const s = table(id);
    s.run({ type: 'bestiary.save', name: 'Raider', block: { hp: 9 } });
    const method = initiativeOf(id);
    const d = draftsFromEntry(method, entryOf(s, 'Raider'), 6, true, ids);
    if (!d.ok) throw new Error(d.message);
    expect(d.value.map((x) => x.name)).toEqual(['Raider 1', 'Raider 2', 'Raider 3', 'Raider 4', 'Raider 5', 'Raider 6']);
    // Daggerheart tables have no initiative builder (the spotlight moves instead): the rows are still well formed.
    if (method === null) return expect(d.value.every((x) => x.hp === 9 && x.hidden)).toBe(true);
    const pc = first(s.run({ type: 'character.add', name: 'Ann', kind: 'pc' }))['id'] as string;
    const party = draftsFrom(method, { name: '', kind: 'pc', character: s.world.characters[pc]!, hp: '10', hidden: false, init: {} }, ids);
    if (!party.ok) throw new Error(party.message);
    // A teams table names the team that starts (003 gives no default): here the party's.
    const start = startCommand(method, [...party.value, ...d.value], s.world.characters, { initiating: 'Party' });
    if (!start.ok) throw new Error(start.message);
    s.run(start.value);
    const foes = displayOrder(encounterOf(s.world)!).filter((c) => c.kind === 'npc');
    expect(foes).toHaveLength(6);
    expect(foes.every((c) => c.visibility === 'hidden' && c.stats['hp'] === 9)).toBe(true);
    // The bestiary's id stays in the GM's line-up: combatants (which players may see) never carry it.
    expect(d.value.every((x) => x.entryId === entryOf(s, 'Raider').id)).toBe(true);
    expect(JSON.stringify(s.world.ext['encounter'])).not.toContain(entryOf(s, 'Raider').id);
  });
});

describe('stat blocks in the builder', () => {
  it("puts an OSR block's DEX in the initiative and its other numbers on the combatant", () => {
    const s = table('osr');
    s.run({ type: 'bestiary.save', name: 'Goblin', block: { hp: 7, dex: 14, ac: 13, damage: '1d6' } });
    const d = draftsFromEntry(initiativeOf('osr'), entryOf(s, 'Goblin'), 1, false, ids);
    expect(d.ok && d.value[0]).toMatchObject({ name: 'Goblin', hp: 7, init: { dex: 14 }, extra: { ac: 13, damage: '1d6' } });
  });

  it('groups Kleptonomicon foes by the block\'s creature type, defaulting to its name', () => {
    const s = table('kleptonomicon');
    s.run({ type: 'bestiary.save', name: 'Ghoul', block: { hp: 5, edgeSave: 2 } });
    const d = draftsFromEntry(initiativeOf('kleptonomicon'), entryOf(s, 'Ghoul'), 3, false, ids);
    expect(d.ok && d.value.map((x) => x.init)).toEqual([0, 1, 2].map(() => ({ edgeSave: 2, creatureType: 'Ghoul' })));
  });

  it('goes on counting after the ones already lined up or fighting (Goblin 7 and 8 after Goblin 1-6)', () => {
    const s = table('osr');
    s.run({ type: 'bestiary.save', name: 'Goblin', block: {} });
    const taken = ['Kira', 'Goblin 1', 'Goblin 6', 'Goblin king', 'Goblin 2b'];
    const d = draftsFromEntry(null, entryOf(s, 'Goblin'), 2, false, ids, taken);
    expect(d.ok && d.value.map((x) => x.name)).toEqual(['Goblin 7', 'Goblin 8']);
    // A lone plain "Goblin" counts as Goblin 1 (review 6): the next are Goblin 2 and 3, and the plain one is renamed Goblin 1.
    const two = draftsFromEntry(null, entryOf(s, 'Goblin'), 2, false, ids, ['Goblin']);
    expect(two.ok && two.value.map((x) => x.name)).toEqual(['Goblin 2', 'Goblin 3']);
    expect(renumberedPlain('Goblin', ['Kira', 'Goblin'])).toBe('Goblin 1');
    expect(renumberedPlain('Goblin', ['Goblin', 'Goblin 1'])).toBeNull();
    expect(renumberedPlain('Goblin', ['Goblin 1', 'Goblin king'])).toBeNull();
    const fresh = draftsFromEntry(null, entryOf(s, 'Goblin'), 1, false, ids, ['Goblin king']);
    expect(fresh.ok && fresh.value.map((x) => x.name)).toEqual(['Goblin']);
  });

  it('property: lining up groups one after another never repeats a name, and numbers only go up', () => {
    const s = table('kleptonomicon');
    s.run({ type: 'bestiary.save', name: 'Rat-thief', block: { hp: 4 } });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), (counts) => {
        let lined: string[] = ['Kira'];
        for (const count of counts) {
          const d = draftsFromEntry(initiativeOf('kleptonomicon'), entryOf(s, 'Rat-thief'), count, false, ids, lined);
          if (!d.ok) throw new Error(d.message);
          // As the builder does: the lone plain one takes "1" first.
          const rename = renumberedPlain('Rat-thief', lined);
          if (rename !== null) lined = lined.map((x) => (x === 'Rat-thief' ? rename : x));
          lined = [...lined, ...d.value.map((x) => x.name)];
        }
        expect(new Set(lined).size).toBe(lined.length);
        const total = counts.reduce((a, b) => a + b, 0);
        const rats = lined.filter((x) => x.startsWith('Rat-thief'));
        expect(rats).toEqual(total === 1 ? ['Rat-thief'] : Array.from({ length: total }, (_x, i) => `Rat-thief ${i + 1}`));
      }),
      { numRuns: 40 },
    );
  });

  it("Kleptonomicon: the rows follow 004's turn order (PCs who passed, foe group 1, the PCs after it, foe group 2...), as the sequencer runs it", () => {
    const s = table('kleptonomicon');
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({ type: 'bestiary.save', name: 'Rat-thief', block: { hp: 4, edgeSave: 1, attackModifier: 1, attackDamage: '1d4' } });
    s.run({ type: 'bestiary.save', name: 'Ogre', block: { hp: 20, edgeSave: -1 } });
    const method = initiativeOf('kleptonomicon');
    const rats = draftsFromEntry(method, entryOf(s, 'Rat-thief'), 2, false, ids);
    const ogre = draftsFromEntry(method, entryOf(s, 'Ogre'), 1, false, ids);
    if (!rats.ok || !ogre.ok) throw new Error('drafts');
    expect(rats.value[0]).toMatchObject({ extra: { attackModifier: 1, attackDamage: '1d4' } });
    // Bram (-3) fails the first Edge Save on any die but a critical 10, so at least one PC acts between foe groups.
    const pcs = (
      [
        ['Bram', -3],
        ['Kira', 0],
        ['Moss', 3],
      ] as const
    ).map(([name, edgeSave]) => {
      s.run({ type: 'character.add', name, kind: 'pc', stats: { edgeSave } });
      return Object.values(s.world.characters).find((c) => c.name === name)!;
    });
    const party = pcs.map((ch) => draftsFrom(method, { name: ch.name, kind: 'pc', character: ch, hp: '10', hidden: false, init: { edgeSave: String(ch.stats['edgeSave']) } }, ids));
    const rows = [...party.flatMap((p) => (p.ok ? p.value : [])), ...ogre.value, ...rats.value];
    expect(rows).toHaveLength(6);
    const start = startCommand(method, rows, s.world.characters);
    if (!start.ok) throw new Error(start.message);
    s.run(start.value);
    const enc = encounterOf(s.world)!;
    // Walk the turns the sequencer gives one round (choices, where PCs share a slot, by the first offered).
    const order: string[] = [];
    for (let i = 0; i < 20 && order.length < rows.length; i++) {
      const now = encounterOf(s.world)!;
      if (now.pending) {
        s.run({ type: 'encounter.choose', id: now.pending.options[0]! });
        continue;
      }
      if (now.current === null) break;
      order.push(now.current);
      s.run({ type: 'encounter.endTurn', id: now.current });
    }
    const display = displayOrder(enc).map((c) => c.id);
    // Where PCs share a slot they choose (004), so only the foes' places and each PC's slot are fixed: compare by slot.
    const slotOf = (id: string): string => {
      const p = enc.combatants[id]!.placement as { slot?: number; group?: number };
      return p.group !== undefined ? `foe ${id}` : `slot ${p.slot}`;
    };
    expect(display.map(slotOf)).toEqual(order.map(slotOf));
    expect(display.findIndex((id) => enc.combatants[id]!.kind === 'pc' && enc.combatants[id]!.name === 'Bram')).toBeGreaterThan(display.findIndex((id) => enc.combatants[id]!.kind === 'npc'));
    expect(display.filter((id) => enc.combatants[id]!.kind === 'npc').map((id) => enc.combatants[id]!.name)).toEqual(['Rat-thief 1', 'Rat-thief 2', 'Ogre']);
  });

  it('refuses counts outside 1-50 in words', () => {
    const s = table('osr');
    s.run({ type: 'bestiary.save', name: 'Goblin', block: {} });
    expect(draftsFromEntry(null, entryOf(s, 'Goblin'), 0, false)).toEqual({ ok: false, message: 'Add 1 to 50 at a time.' });
    expect(draftsFromEntry(null, entryOf(s, 'Goblin'), 51, false).ok).toBe(false);
  });

  it('shows a block in one line', () => {
    expect(blockLine({ hp: 7, attackBonus: 3, darksight: true, leader: false }, 'osr')).toBe('HP 7 · Attack bonus 3 · Darksight');
    // Every ruleset's labels as its text names them; a key no ruleset labels reads in words, capitalised.
    expect(blockLine({ hp: 9, ac: 14, pd: 12, md: 10, attackVs: 'pd' }, '36th-way')).toBe('HP 9 · AC 14 · PD 12 · MD 10 · Attack against PD');
    // A choice reads as the form's picker words it (review 10 read "band fast · … · attack reach engaged").
    expect(blockLine({ band: 'very-fast', attackName: 'Spear', attackReach: 'engaged' }, '36th-way')).toBe('Initiative band very fast · Attack name Spear · Attack reaches engaged (melee)');
    expect(blockLine({ maxEndurance: 6, maxHealth: 8, criticalThreshold: 12 }, 'teams')).toBe('Endurance 6 · Health 8 · Critical threshold 12');
    expect(blockLine({ edgeSave: 2, defense: 7, creatureType: 'guard' }, 'kleptonomicon')).toBe('Edge Save 2 · Defense 7 · Creature type guard');
    expect(blockLine({ hitDice: 2, dex: 12, oddThing: 1 }, 'osr')).toBe('Hit Dice (HD) 2 · DEX 12 · Odd thing 1');
  });
});

describe('encounter templates', () => {
  it('saves a line-up of the party and Goblin x6 as two lines and brings it back as the same rows', () => {
    const s = table('osr');
    const method = initiativeOf('osr');
    const pc = first(s.run({ type: 'character.add', name: 'Ann', kind: 'pc', stats: { dex: 12 } }))['id'] as string;
    const party = draftsFrom(method, { name: '', kind: 'pc', character: s.world.characters[pc]!, hp: '', hidden: false, init: {} }, ids);
    const goblins = draftsFrom(method, { name: 'Goblin x6', kind: 'npc', character: null, hp: '7', hidden: true, init: { dex: '14' } }, ids);
    if (!party.ok || !goblins.ok) throw new Error('drafts');
    const lines = linesFromDrafts([...party.value, ...goblins.value]);
    expect(lines).toEqual([
      { name: 'Ann', count: 1, kind: 'pc', hidden: false, characterId: pc, init: { dex: 12 } },
      { name: 'Goblin', count: 6, kind: 'npc', hidden: true, hp: 7, init: { dex: 14 } },
    ]);
    const tx = s.run({ type: 'bestiary.saveTemplate', name: 'Goblin ambush', lines: lines as never });
    const t = first(tx)['template'] as unknown as EncounterTemplate;
    expect(templateLine(t)).toBe('Ann, Goblin ×6');
    const back = draftsFromTemplate(method, t, s.world, ids);
    expect(back.skipped).toEqual([]);
    expect(back.drafts.map((d) => [d.name, d.hp, d.hidden, d.init['dex']])).toEqual([['Ann', null, false, 12], ...goblins.value.map((g) => [g.name, 7, true, 14])]);
    // The template starts a real encounter.
    const start = startCommand(method, back.drafts, s.world.characters);
    if (!start.ok) throw new Error(start.message);
    s.run(start.value);
    // And a running fight's line-up is the same two lines again.
    expect(linesFromEncounter(method, displayOrder(encounterOf(s.world)!)).map((l) => [l.name, l.count])).toEqual([
      ['Goblin', 6],
      ['Ann', 1],
    ]);
  });

  it("links a running fight's foes back to their stat block by name, so a template made mid-fight keeps its numbers", () => {
    const s = table('osr');
    s.run({ type: 'bestiary.save', name: 'Goblin', block: { hp: 7, ac: 13 } });
    const method = initiativeOf('osr');
    const d = draftsFromEntry(method, entryOf(s, 'Goblin'), 2, false, ids);
    if (!d.ok) throw new Error(d.message);
    const start = startCommand(method, d.value, s.world.characters);
    if (!start.ok) throw new Error(start.message);
    s.run(start.value);
    const lines = linesFromEncounter(method, displayOrder(encounterOf(s.world)!), Object.values(bestiaryOf(s.world.ext).entries));
    expect(lines).toEqual([{ name: 'Goblin', count: 2, kind: 'npc', hidden: false, entryId: entryOf(s, 'Goblin').id, hp: 7, init: { dex: 10 } }]);
    const back = draftsFromTemplate(method, { id: 'tpl-m', name: 'M', lines }, s.world, ids).drafts;
    expect(back.map((x) => [x.name, x.extra])).toEqual([
      ['Goblin 1', { ac: 13 }],
      ['Goblin 2', { ac: 13 }],
    ]);
  });

  it("reads a character's DEX from the sheet when a template is used: not kept at save unless typed, and an older template's number gives way (review 13 #10)", () => {
    const s = table('osr');
    const method = initiativeOf('osr');
    const kira = first(s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { dex: 10 } }))['id'] as string;
    const row = draftsFrom(method, { name: '', kind: 'pc', character: s.world.characters[kira]!, hp: '', hidden: false, init: {} }, ids);
    if (!row.ok) throw new Error(row.message);
    // Saved with the method: the sheet's DEX is the sheet's, not the template's.
    expect(linesFromDrafts(row.value, method)).toEqual([{ name: 'Kira', count: 1, kind: 'pc', hidden: false, characterId: kira }]);
    // A DEX the GM typed for the fight is kept.
    const typed = draftsFrom(method, { name: '', kind: 'pc', character: s.world.characters[kira]!, hp: '', hidden: false, init: { dex: '13' } }, ids);
    if (!typed.ok) throw new Error(typed.message);
    expect(linesFromDrafts(typed.value, method)[0]!.init).toEqual({ dex: 13 });
    // The sheet moves to 16; an older template that kept DEX 10 brings Kira back at 16, with nothing "typed here".
    s.run({ type: 'character.update', characterId: kira, stats: { dex: 16 } });
    const old: EncounterTemplate = { id: 'tpl-o', name: 'Old', lines: [{ name: 'Kira', count: 1, kind: 'pc', hidden: false, characterId: kira, init: { dex: 10 } }] };
    const back = draftsFromTemplate(method, old, s.world, ids).drafts;
    expect(back.map((d) => [d.name, d.init['dex'], d.typed ?? []])).toEqual([['Kira', 16, []]]);
  });

  it('leaves out a character that left the table, by name', () => {
    const s = table('osr');
    const t: EncounterTemplate = { id: 'tpl-x', name: 'Old', lines: [{ name: 'Gone', count: 1, kind: 'pc', hidden: false, characterId: 'ch-gone' }, { name: 'Rat', count: 2, kind: 'npc', hidden: false }] };
    const r = draftsFromTemplate(initiativeOf('osr'), t, s.world, ids);
    expect(r.skipped).toEqual(['Gone']);
    expect(r.drafts.map((d) => d.name)).toEqual(['Rat 1', 'Rat 2']);
  });

  it('property: any line-up of named groups survives linesFromDrafts and draftsFromTemplate with the same names, counts and hidden flags', () => {
    const method = initiativeOf('osr');
    const group = fc.record({ base: fc.constantFrom('Goblin', 'Orc', 'Rat', 'Wolf 2'), count: fc.integer({ min: 1, max: 8 }), hidden: fc.boolean(), dex: fc.integer({ min: 1, max: 30 }) });
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 6 }), (groups) => {
        const drafts: Draft[] = groups.flatMap((g) => {
          const d = draftsFrom(method, { name: g.count === 1 ? g.base : `${g.base} x${g.count}`, kind: 'npc', character: null, hp: '', hidden: g.hidden, init: { dex: String(g.dex) } }, ids);
          return d.ok ? d.value : [];
        });
        const t: EncounterTemplate = { id: 'tpl-p', name: 'P', lines: linesFromDrafts(drafts) };
        const back = draftsFromTemplate(method, t, { characters: {}, ext: {} }, ids).drafts;
        expect(back.map((d) => [d.name, d.hidden, d.init['dex']])).toEqual(drafts.map((d) => [d.name, d.hidden, d.init['dex']]));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the bestiary file', () => {
  it('exports without the table\'s ids and reads back into the same stat blocks', () => {
    const s = table('36th-way');
    s.run({ type: 'bestiary.save', name: 'Orc', notes: 'Loud.', block: { hp: 20, band: 'fast', ac: 16 } });
    s.run({ type: 'bestiary.save', name: 'Ogre', block: { hp: 60 } });
    const text = exportText(s.world);
    expect(text).not.toContain('be-');
    const back = parseBestiaryFile(text, '36th-way');
    expect(back).toEqual({ ok: true, entries: [{ name: 'Ogre', block: { hp: 60 } }, { name: 'Orc', notes: 'Loud.', block: { hp: 20, band: 'fast', ac: 16 } }] });
    const other = table('36th-way');
    if (back.ok) other.run({ type: 'bestiary.import', entries: back.entries as never });
    expect(exportText(other.world)).toBe(text);
  });

  it('names what is wrong, and with which stat block', () => {
    expect(parseBestiaryFile('{not json', 'osr')).toEqual({ ok: false, errors: ['The file is not a bestiary file: it is not JSON text.'] });
    expect(parseBestiaryFile('{"format":"something else"}', 'osr').ok).toBe(false);
    expect(parseBestiaryFile(JSON.stringify({ format: 'tablekeeper-bestiary', version: 1, rulesetId: 'teams', entries: [] }), 'osr')).toEqual({ ok: false, errors: ['The file holds stat blocks for Teams; this table plays OSR.'] });
    const bad = parseBestiaryFile(JSON.stringify({ format: 'tablekeeper-bestiary', version: 1, rulesetId: 'osr', entries: [{ name: 'Goblin', block: {} }, { name: '', block: 3 }, { name: 'Orc', block: {}, id: 'x' }] }), 'osr');
    expect(bad).toEqual({ ok: false, errors: ['Stat block 2: the name must be 1 to 80 characters.', 'Stat block 2: the stat block (block) must be an object of its numbers.', 'Stat block 3 (Orc): unknown field id.'] });
    expect(parseBestiaryFile('x'.repeat(600 * 1024), 'osr').ok).toBe(false);
  });

  it("words the server's path for a refused field", () => {
    const s = table('osr');
    const entries: { name: string; block: { [k: string]: Json } }[] = [{ name: 'Goblin', block: {} }, { name: 'Giant', block: { hp: 99999 } }];
    const r = s.engine.execute(s.table, { type: 'bestiary.import', entries }, { rng: s.rng, actor: { role: 'gm' } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(importPathWords(r.error.path, entries)).toBe('Stat block 2 (Giant), hp');
  });

  it('Daggerheart: a stat block becomes daggerheart.addAdversaries with its count and numbers; Bandit x3 are three hidden adversaries with its thresholds', () => {
    const s = table('daggerheart');
    s.run({ type: 'bestiary.save', name: 'Bandit', block: { hp: 5, difficulty: 12, major: 7, severe: 12, stress: 2, attack: 1, damage: '1d8+2' } });
    const cmd = adversariesCommand(entryOf(s, 'Bandit'), 3, true);
    expect(cmd).toEqual({ ok: true, value: { type: 'daggerheart.addAdversaries', name: 'Bandit', count: 3, hp: 5, difficulty: 12, major: 7, severe: 12, stress: 2, attack: 1, damage: '1d8+2', visibility: 'hidden' } });
    if (cmd.ok) s.run(cmd.value);
    const made = Object.values(s.world.characters).filter((c) => c.stats['adversary'] === true);
    expect(made.map((c) => [c.name, c.visibility, c.stats['hpMax'], c.stats['major'], c.stats['severe']])).toEqual([1, 2, 3].map((i) => [`Bandit ${i}`, 'hidden', 5, 7, 12]));
  });

  it("Daggerheart: an unhidden Bandit is shown by name; Kira's 9 damage on it reaches the players' log as major, without its thresholds or HP", () => {
    const s = table('daggerheart');
    const seat = String(first(s.run({ type: 'seat.add', name: 'Ann' }))['id']);
    s.run({ type: 'bestiary.save', name: 'Bandit', block: { hp: 5, difficulty: 12, major: 7, severe: 12 } });
    const cmd = adversariesCommand(entryOf(s, 'Bandit'), 1, false);
    if (!cmd.ok) throw new Error(cmd.message);
    const bandit = String(first(s.run(cmd.value))['id']);
    s.run({ type: 'daggerheart.takeDamage', characterId: bandit, amount: 9 });
    const seen = s.view({ role: 'player', seatId: seat }).world;
    expect(seen.characters[bandit]).toMatchObject({ name: 'Bandit', visibility: 'visible' });
    // 9 against Major 7 / Severe 12 is major: 2 HP; players read the severity, not 7/12 or the HP marked.
    expect(seen.log.filter((l) => l.kind === 'daggerheart.damage').map((l) => l.text)).toEqual(['Bandit takes 9 damage and marks HP.']);
    expect(seen.characters[bandit]!.stats).not.toHaveProperty('major');
  });

  it('Daggerheart: a stat block keeps its moves and their countdowns; the group it adds starts the countdown, and a second group goes on counting', () => {
    const s = table('daggerheart');
    const moves = [{ name: 'Pounce', text: 'leaps on a PC', countdown: { start: 3, repeat: 'loop' } }];
    s.run({ type: 'bestiary.save', name: 'Wolf', block: { hp: 4, difficulty: 11, major: 5, severe: 9, moves } });
    expect(blockLine(entryOf(s, 'Wolf').block, 'daggerheart')).toBe('HP 4 · Difficulty 11 · Major threshold 5 · Severe threshold 9 · Moves: Pounce (countdown 3, loop)');
    const cmd = adversariesCommand(entryOf(s, 'Wolf'), 2, false);
    expect(cmd).toMatchObject({ ok: true, value: { moves } });
    if (!cmd.ok) return;
    s.run(cmd.value);
    const one = adversariesCommand(entryOf(s, 'Wolf'), 1, false);
    if (!one.ok) throw new Error(one.message);
    s.run(one.value);
    const wolves = Object.values(s.world.characters).filter((c) => c.stats['adversary'] === true);
    expect(wolves.map((c) => c.name).sort()).toEqual(['Wolf 1', 'Wolf 2', 'Wolf 3']);
    expect(groupNames('Wolf', 2, wolves.map((c) => c.name))).toEqual(['Wolf 4', 'Wolf 5']);
    // Unticked "hidden": shown by name (review 6), numbers still the GM's until the foe reveal.
    expect(cmd.value['visibility']).toBe('visible');
    expect(wolves.map((c) => c.visibility)).toEqual(['visible', 'visible', 'visible']);
    const cds = Object.values(getCountdowns(s.world).countdowns);
    expect(cds.map((c) => [c.name, c.value, c.repeat, c.visibility])).toEqual([['Wolf: Pounce', 3, 'loop', 'hidden'], ['Wolf: Pounce', 3, 'loop', 'hidden']]);
  });

  it('starters: a second press adds only the missing ones', () => {
    const s = table('teams');
    const starters = startersOf('teams').entries;
    expect(missingStarters(starters, Object.values(bestiaryOf(s.world.ext).entries))).toEqual(starters);
    s.run({ type: 'bestiary.import', entries: starters as never });
    expect(missingStarters(starters, Object.values(bestiaryOf(s.world.ext).entries))).toEqual([]);
  });

  it('Daggerheart: a stat block without its thresholds is named with what to fill in, before anything is sent', () => {
    const s = table('daggerheart');
    s.run({ type: 'bestiary.save', name: 'Wolf', block: { hp: 4, difficulty: 11 } });
    expect(adversariesCommand(entryOf(s, 'Wolf'), 2, false)).toEqual({ ok: false, message: 'Wolf needs its major threshold and severe threshold before it can fight: press Edit and fill them in.' });
    expect(adversariesCommand(entryOf(s, 'Wolf'), 0, false)).toEqual({ ok: false, message: 'Add 1 to 20 adversaries at a time.' });
    // The command adds at most 20 at once: 21 is refused here, in words, not by the server's schema.
    expect(adversariesCommand(entryOf(s, 'Wolf'), 21, false)).toEqual({ ok: false, message: 'Add 1 to 20 adversaries at a time.' });
  });
});
