// Issue 20's loose ends after review 11 (ADR 90), without a browser: the
// builder's PC lines read the sheet as it is now, the End click's summary
// notes and their audiences (undone with the End), the conditions a fight
// leaves on, and an OSR chase "as one group" asking one odds question.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type EncounterState, type Json, type World } from '@tablekeeper/engine';
import { engineFor } from '@tablekeeper/rulesets';
import { readKept, keepLineup, type LineupStore } from '../packages/web/src/lib/builderDraft.ts';
import { draftsFrom, initiativeOf, partyDrafts, sheetSays, startCommand, withSheets } from '../packages/web/src/lib/initiative.ts';
import { endCommands, outlastingConditions, summaryNotes } from '../packages/web/src/lib/fightSummary.ts';
import { initialForm, oddsQueriesOf, type TurnAction } from '../packages/web/src/lib/actions.ts';

const enc = (w: { ext: { [k: string]: unknown } }) => w.ext['encounter'] as unknown as EncounterState;
/** The GM's view, as the browser holds it (the condition catalogue comes with the view). */
const gmWorld = (s: { view: (v: { role: 'gm' }) => { world: World } }): World => s.view({ role: 'gm' }).world;
const idOf = (w: { characters: { [id: string]: { name: string; id: string } } }, name: string) => Object.values(w.characters).find((c) => c.name === name)!.id;

describe('the builder: a PC line reads its sheet as it is now (review 11 #9)', () => {
  it("OSR: Kira's last fight said DEX 10 and her sheet now says 16: the next line-up says 16, and a line drafted before the edit follows it", () => {
    const s = scenario(engineFor('osr')!.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 12, hp: 12 } });
    const kira = idOf(s.world, 'Kira');
    const method = initiativeOf('osr');
    // Drafted before her sheet had a DEX: the method's default, 10, and kept on this device like that.
    const before = partyDrafts(method, Object.values(s.world.characters), null, (k) => `${k}-1`);
    expect(before[0]!.init).toEqual({ dex: 10 });
    s.run({ type: 'encounter.start', combatants: [{ id: kira, name: 'Kira', kind: 'pc', side: 'pcs', characterId: kira, stats: { dex: 10 } }, { id: 'g', name: 'Goblin', kind: 'npc', side: 'npcs', stats: { dex: 12 } }] });
    s.run({ type: 'encounter.end' });
    s.run({ type: 'osr.setSheet', characterId: kira, sheet: { dex: 16 } });
    // The next fight's party: not the last fight's 10.
    expect(partyDrafts(method, Object.values(s.world.characters), enc(s.world), (k) => `${k}-2`)[0]!.init).toEqual({ dex: 16 });
    // The kept line, read back from storage as a reload would, shows and starts with 16.
    const data = new Map<string, string>();
    const store: LineupStore = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
    keepLineup(store, 't1', before);
    const kept = readKept(store, 't1')!.rows;
    const lined = withSheets(method, kept, s.world.characters);
    expect(lined[0]!.init).toEqual({ dex: 16 });
    const start = startCommand(method, lined, s.world.characters);
    expect(start.ok && (start.value.combatants[0] as { stats: { [k: string]: Json } }).stats['dex']).toBe(16);
    // A row with nothing to change is the same object (the builder re-renders on every view).
    expect(withSheets(method, lined, s.world.characters)[0]).toBe(lined[0]);
  });

  it("a DEX the GM typed for this fight stays, says what the sheet says, and survives the device's storage", () => {
    const s = scenario(engineFor('osr')!.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 12, hp: 12, dex: 16 } });
    const kira = s.world.characters[idOf(s.world, 'Kira')]!;
    const method = initiativeOf('osr');
    const d = draftsFrom(method, { name: '', kind: 'pc', character: kira, hp: '', hidden: false, init: { dex: '18' } });
    if (!d.ok) throw new Error(d.message);
    expect(d.value[0]!.typed).toEqual(['dex']);
    const data = new Map<string, string>();
    const store: LineupStore = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
    keepLineup(store, 't1', d.value);
    const row = withSheets(method, readKept(store, 't1')!.rows, s.world.characters)[0]!;
    expect(row.init).toEqual({ dex: 18 });
    expect(sheetSays(method, row, 'dex', s.world.characters)).toBe(16);
    // An untyped line has nothing to say beside its number.
    const plain = partyDrafts(method, [kira], null)[0]!;
    expect(sheetSays(method, plain, 'dex', s.world.characters)).toBeNull();
  });

  it("Kleptonomicon: Edge Save 0 (not set) in the line, +2 once the sheet says so; a foe's creature type is left alone", () => {
    const s = scenario(engineFor('kleptonomicon')!.modules, { rng: seededRng(3), rulesetId: 'kleptonomicon' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 12, hp: 12 } });
    const kira = idOf(s.world, 'Kira');
    const method = initiativeOf('kleptonomicon');
    const goblins = draftsFrom(method, { name: 'Goblin x2', kind: 'npc', character: null, hp: '8', hidden: false, init: { edgeSave: '1', creatureType: '' } });
    if (!goblins.ok) throw new Error(goblins.message);
    const rows = [...partyDrafts(method, Object.values(s.world.characters), null), ...goblins.value];
    expect(rows[0]!.init).toEqual({ edgeSave: 0 });
    s.run({ type: 'kleptonomicon.setSheet', characterId: kira, edgeSave: 2 });
    const lined = withSheets(method, rows, s.world.characters);
    expect(lined[0]!.init).toEqual({ edgeSave: 2 });
    expect(lined.slice(1)).toEqual(goblins.value);
  });
});

describe('the End click writes the fight summary to the log (review 11 #2) and says what stays on (ADR 90)', () => {
  function teamsFight() {
    const s = scenario(engineFor('teams')!.modules, { rng: seededRng(5), rulesetId: 'teams' });
    s.run({ type: 'seat.add', name: 'Ann' });
    const seatId = Object.keys(s.world.seats)[0]!;
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', seatId });
    const kira = idOf(s.world, 'Kira');
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', name: 'Kira', kind: 'pc', side: 'players', characterId: kira },
        { id: 'b1', name: 'Bandit 1', kind: 'npc', side: 'foes' },
        { id: 'lurk', name: 'Lurker', kind: 'npc', side: 'foes', visibility: 'hidden' },
      ],
      params: { teamOrder: ['players', 'foes'] },
    });
    const sheet = (name: string, more: object = {}) => ({ name, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 4, maxHealth: 6, ...more });
    s.run({ type: 'character.sheet.set', characterId: kira, sheet: sheet('Kira') });
    s.run({ type: 'character.sheet.set', characterId: 'b1', sheet: sheet('Bandit 1', { health: 0, conscious: false }) });
    s.run({ type: 'character.sheet.set', characterId: 'lurk', sheet: sheet('Lurker') });
    // Until removed on Kira and on the hidden Lurker; Guarding for a round ends with the fight.
    s.run({ type: 'condition.apply', targetId: 'kira', condition: 'prone', duration: { kind: 'indefinite' } });
    s.run({ type: 'condition.apply', targetId: 'lurk', condition: 'in-cover', duration: { kind: 'indefinite' } });
    s.run({ type: 'condition.apply', targetId: 'b1', condition: 'guarding', duration: { kind: 'rounds', rounds: 1 } });
    return { s, seatId };
  }

  it('what stays on: the two until-removed conditions, the hidden bearer marked; the round-long one is not listed', () => {
    const { s } = teamsFight();
    const w = gmWorld(s);
    const on = outlastingConditions(w, enc(w));
    expect(on.map((o) => [o.name, o.condition, o.lasts, o.clearable, o.hidden])).toEqual([
      ['Kira', 'Prone', 'until removed', true, false],
      ['Lurker', 'In cover', 'until removed', true, true],
    ]);
  });

  it("the players' note names only whom they can see; the GM's note names the hidden Lurker; one Undo takes the end and both notes back", () => {
    const { s, seatId } = teamsFight();
    const w = gmWorld(s);
    const notes = summaryNotes(w, enc(w));
    expect(notes).toEqual([
      { type: 'log.note', text: 'The fight in short: Fell: Bandit 1 (down). Still standing: the party, Kira. Still on after the fight: Kira: Prone (until removed).', audience: { kind: 'all' } },
      { type: 'log.note', text: 'Hidden from the players: Lurker (still standing). Still on after the fight: Lurker: In cover (until removed).', audience: { kind: 'gm' } },
    ]);
    const logBefore = s.world.log.length;
    s.run({ type: 'history.batch', commands: endCommands(w, enc(w)) as unknown as Json });
    expect(enc(s.world).active).toBe(false);
    const player = s.view({ role: 'player', seatId }).world.log.map((l) => l.text);
    expect(player).toContain('The fight in short: Fell: Bandit 1 (down). Still standing: the party, Kira. Still on after the fight: Kira: Prone (until removed).');
    expect(player.join('\n')).not.toContain('Lurker');
    expect(s.view({ role: 'gm' }).world.log.map((l) => l.text)).toContain('Hidden from the players: Lurker (still standing). Still on after the fight: Lurker: In cover (until removed).');
    s.undo();
    expect(enc(s.world).active).toBe(true);
    expect(s.world.log.length).toBe(logBefore);
  });

  it('"End and clear": the until-removed conditions go in the same step and the note no longer says they stay', () => {
    const { s } = teamsFight();
    const w = gmWorld(s);
    const clear = outlastingConditions(w, enc(w)).filter((o) => o.clearable).map((o) => o.conditionId);
    const cmds = endCommands(w, enc(w), clear);
    expect(cmds.map((c) => c.type)).toEqual(['encounter.end', 'condition.remove', 'condition.remove', 'log.note', 'log.note']);
    s.run({ type: 'history.batch', commands: cmds as unknown as Json });
    expect(Object.keys(enc(s.world).conditions)).toEqual([]);
    expect(s.world.log.map((l) => l.text)).toContain('The fight in short: Fell: Bandit 1 (down). Still standing: the party, Kira.');
  });

  it('OSR: the engine writes the GM summary; the End adds the players\' note only, without the hidden foe', () => {
    const s = scenario(engineFor('osr')!.modules, { rng: seededRng(3), rulesetId: 'osr' });
    s.run({ type: 'character.add', name: 'Kira', kind: 'pc', stats: { maxHp: 12, hp: 12, dex: 14 } });
    s.run({ type: 'character.add', name: 'Lurker', kind: 'npc', stats: { maxHp: 5, hp: 5, dex: 8 } });
    const kira = idOf(s.world, 'Kira');
    const lurker = idOf(s.world, 'Lurker');
    s.run({ type: 'encounter.start', combatants: [{ name: 'Kira', kind: 'pc', side: 'pcs', characterId: kira }, { name: 'Lurker', kind: 'npc', side: 'npcs', characterId: lurker, visibility: 'hidden' }] });
    const w = gmWorld(s);
    const notes = summaryNotes(w, enc(w));
    expect(notes).toEqual([{ type: 'log.note', text: 'The fight in short: Nobody fell. Still standing: the party, Kira.', audience: { kind: 'all' } }]);
  });
});

describe('an OSR chase "as one group" asks one odds question for the whole group', () => {
  it('ticked, one question with both runners and together: true; unticked, one per runner', () => {
    const chase: TurnAction = {
      id: 'chase',
      label: 'Chase',
      cost: 'a check',
      command: 'osr.chase',
      fixed: {},
      target: { field: 'characterIds', multiple: true, max: 2, options: [{ value: 'k', label: 'Kira' }, { value: 'd', label: 'Dorn' }], picked: ['k', 'd'] },
      choices: [],
      numbers: [],
      flags: [{ field: 'together', label: 'As one group', value: false }],
      texts: [],
      odds: { query: 'osr.chaseOdds', args: { characterIds: [] }, pass: ['characterIds', 'together'], togetherWhen: 'together' },
      allowed: true,
      reason: null,
    };
    const f = initialForm(chase);
    expect(oddsQueriesOf(chase, f).map((q) => q.args)).toEqual([
      { characterIds: ['k'], together: false },
      { characterIds: ['d'], together: false },
    ]);
    const grouped = oddsQueriesOf(chase, { ...f, flags: { together: true } });
    expect(grouped.map((q) => q.args)).toEqual([{ characterIds: ['k', 'd'], together: true }]);
  });
});
