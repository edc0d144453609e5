// Whom the GM's kept-sheet damage box reaches (ADR 110, ADR 119), without a DOM:
// between fights every character with a kept sheet; while a fight runs, only
// those no combatant of it plays (their tracker rows carry the box).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { EncounterState, World } from '@tablekeeper/engine';
import { outsideTheFight } from '../packages/web/src/lib/keptParty.ts';

const ch = (id: string, name: string, kind: 'pc' | 'npc' = 'pc') => ({ id, name, kind, stats: {} });
// Kira's sheet under her own id; Boudica's under a combatant id naming her; Vesna (an NPC) has one; Dorn has none.
const characters = { kira: ch('kira', 'Kira'), 'ch-b': ch('ch-b', 'Boudica'), vesna: ch('vesna', 'Vesna', 'npc'), dorn: ch('dorn', 'Dorn') };
const sheets = { kira: { name: 'Kira' }, 'c-boudica': { name: 'Boudica', characterId: 'ch-b' }, vesna: { name: 'Vesna' }, gob: { name: 'Goblin' } };
const world = (rulesetId: string, encounter?: unknown): World => ({ rulesetId, characters, ext: { [rulesetId]: { sheets }, ...(encounter !== undefined ? { encounter } : {}) } }) as unknown as World;
const fight = (roster: string[], combatants: { [id: string]: string | null }, active = true) =>
  ({ active, roster, combatants: Object.fromEntries(Object.entries(combatants).map(([id, characterId]) => [id, { id, characterId }])) }) as unknown as EncounterState;
const names = (w: World, enc: EncounterState | null) => outsideTheFight(w, enc).map((m) => `${m.ch.name}@${m.sheetId}`);

describe('the kept-sheet box: whom it lists', () => {
  it('between fights: every character with a kept sheet (a PC or an NPC), by the sheet that names her; none without one', () => {
    for (const r of ['teams', '36th-way']) expect(names(world(r), null)).toEqual(['Kira@kira', 'Boudica@c-boudica', 'Vesna@vesna']);
  });
  it('while a fight runs: those it holds are left to their rows, by the combatant id or the character it plays', () => {
    // Brak-like: Kira fights under her own id; Boudica's combatant is 'c-boudica' (the sheet's key) and plays ch-b.
    expect(names(world('teams'), fight(['kira', 'gob'], { kira: 'kira', gob: null }))).toEqual(['Boudica@c-boudica', 'Vesna@vesna']);
    expect(names(world('teams'), fight(['c-boudica'], { 'c-boudica': 'ch-b' }))).toEqual(['Kira@kira', 'Vesna@vesna']);
    // A combatant under another id that plays Vesna holds her too.
    expect(names(world('36th-way'), fight(['x1'], { x1: 'vesna' }))).toEqual(['Kira@kira', 'Boudica@c-boudica']);
  });
  it('a combatant removed from the roster is out of the fight; an ended fight holds no one', () => {
    expect(names(world('teams'), fight(['gob'], { kira: 'kira', gob: null }))).toEqual(['Kira@kira', 'Boudica@c-boudica', 'Vesna@vesna']);
    expect(names(world('teams'), fight(['kira'], { kira: 'kira' }, false))).toEqual(['Kira@kira', 'Boudica@c-boudica', 'Vesna@vesna']);
  });
  it('nothing where the rules keep no sheet (the kernel, OSR, the Kleptonomicon)', () => {
    for (const r of ['osr', 'kleptonomicon', 'daggerheart']) expect(names(world(r), null)).toEqual([]);
  });
  it('for any fight: a listed character is never played by one of its combatants, and every unlisted one with a sheet is', () => {
    const ids = ['kira', 'ch-b', 'vesna', 'dorn', 'c-boudica', 'gob'];
    fc.assert(
      fc.property(fc.subarray(ids), fc.dictionary(fc.constantFrom(...ids), fc.option(fc.constantFrom(...ids))), fc.boolean(), (roster, links, active) => {
        const enc = fight(roster, { ...Object.fromEntries(roster.map((id) => [id, null])), ...links }, active);
        const listed = outsideTheFight(world('teams'), enc);
        const playing = new Set(active ? roster.flatMap((id) => [id, enc.combatants[id]!.characterId ?? id]) : []);
        for (const m of listed) expect(playing.has(m.ch.id) || playing.has(m.sheetId)).toBe(false);
        const withSheet = outsideTheFight(world('teams'), null);
        for (const m of withSheet) if (!listed.some((l) => l.ch.id === m.ch.id)) expect(playing.has(m.ch.id) || playing.has(m.sheetId)).toBe(true);
      }),
    );
  });
});
