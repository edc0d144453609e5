// The browser entry's selectors and capabilities (issue 17, ADR 47): the web
// asks these instead of reading world.ext or switching on a ruleset id. Each is
// checked on real tables played through the engine, and on the viewer's own
// projection where a phone reads it.
import { describe, expect, it } from 'vitest';
import { seededRng, type Command, type Json, type Table, type Transaction, type Viewer } from '@tablekeeper/engine';
import { capabilitiesOf, damageBoxCommand, kleptoAwaiting, foeSheetCommandOf, foeTargetOf, hasPanel, keptSheetCommandFor, keptSheetCommandFromText, keptSheetRulesOf, keptSheetTemplate, oddsShapeOf, oddsShapesOf, quickStatsOf, recoveryRowsOf, teamsAwaiting, tswRangesFrom, type Panel } from '../src/browser.js';
import { engineFor, resolveSettings, rulesetIds } from '../src/registry.js';
import { boudica, enemy, fight, table as teamsTable } from './teams/helpers.js';

const GM: Viewer = { role: 'gm' };

function table(rulesetId: string) {
  const engine = engineFor(rulesetId)!;
  const settings = resolveSettings(rulesetId);
  if (!settings.ok) throw new Error(settings.error.message);
  const rng = seededRng(7);
  let t: Table = engine.createTable({ tableId: 't', name: 'Selectors', rulesetId, settings: settings.value });
  const run = (c: Command, actor: Viewer = GM): Transaction => {
    const r = engine.execute(t, c, { rng, actor });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    t = r.value.table;
    return r.value.transaction;
  };
  const minted = (tx: Transaction) => (tx.kind === 'command' ? String(tx.events[0]!['id']) : '');
  return { engine, run, minted, get world() { return t.world; }, view: (v: Viewer) => engine.view(t, v).world };
}

describe('capabilities: what each ruleset\'s screens offer, declared by the ruleset', () => {
  const PANELS: readonly Panel[] = ['episode', 'daggerheart', 'exploration', 'lights', 'fightSummary', 'rowActions', 'recoveries', 'ranges'];

  it.each(rulesetIds)('%s declares its own capabilities (a ruleset left out would fall back to the shared screens)', (id) => {
    expect(capabilitiesOf(id)).not.toBe(capabilitiesOf('no-such-ruleset'));
  });

  it('each ruleset panel belongs to the ruleset whose rules it shows: exploration, lights, the fight summary and row actions to OSR (001); recoveries to the 36th Way (002); the Episode to the Kleptonomicon (004); the Daggerheart board to Daggerheart (000)', () => {
    const owners = Object.fromEntries(PANELS.map((p) => [p, rulesetIds.filter((id) => hasPanel(id, p))]));
    expect(owners).toEqual({
      episode: ['kleptonomicon'],
      daggerheart: ['daggerheart'],
      exploration: ['osr'],
      lights: ['osr'],
      fightSummary: ['osr'],
      rowActions: ['osr'],
      recoveries: ['36th-way'],
      ranges: ['36th-way'],
    });
  });

  it('the 36th Way says "staggered" at half HP (002), every other ruleset "bloodied"; only Daggerheart turns by the spotlight and lets a phone ask for an action roll (000)', () => {
    expect(rulesetIds.map((id) => [id, capabilitiesOf(id).halfHpWord])).toEqual(rulesetIds.map((id) => [id, id === '36th-way' ? 'staggered' : null]));
    expect(rulesetIds.filter((id) => capabilitiesOf(id).spotlightTurns)).toEqual(['daggerheart']);
    expect(rulesetIds.filter((id) => capabilitiesOf(id).actionRequests)).toEqual(['daggerheart']);
    expect(rulesetIds.filter((id) => capabilitiesOf(id).foesFromStatBlocks)).toEqual(['daggerheart']);
    expect(rulesetIds.filter((id) => capabilitiesOf(id).foeVisibilityOnCharacter)).toEqual(['osr']);
  });

  it.each(rulesetIds)("%s names the shape of every odds query it declares, and only of those (the web words odds by shape, ADR 58)", (id) => {
    const declared = engineFor(id)!.catalog.filter((d) => d.kind === 'query' && d.type.endsWith('Odds') && d.type.startsWith(`${id}.`)).map((d) => d.type);
    expect(declared.length).toBeGreaterThan(0);
    expect(Object.keys(oddsShapesOf(id)).sort()).toEqual(declared.sort());
    for (const q of declared) expect(oddsShapeOf(q)).toBe(oddsShapesOf(id)[q]);
    expect(oddsShapeOf('no-such.attackOdds')).toBeNull();
  });

  it('only Daggerheart keeps HP as slots, up to 30 (000): the invite asks for slots and the tracker shows no other HP', () => {
    expect(rulesetIds.filter((id) => capabilitiesOf(id).hpSlots !== null)).toEqual(['daggerheart']);
    expect(capabilitiesOf('daggerheart').hpSlots).toBe(30);
  });

  it("the rulesets that keep sheets of their own name them, and the 36th Way and teams give an invited PC one at once (the teams' HP is its health)", () => {
    for (const id of rulesetIds) expect(capabilitiesOf(id).sheetTitle !== null, id).toBe(keptSheetRulesOf(id) !== null);
    expect(capabilitiesOf('36th-way').sheetTitle).toBe('a 36th Way sheet');
    expect(rulesetIds.filter((id) => capabilitiesOf(id).inviteSheet !== null)).toEqual(['36th-way', 'teams']);
    expect(capabilitiesOf('teams').inviteSheet).toEqual(['maxHealth']);
  });

  it('an unknown ruleset gets the shared screens only', () => {
    expect(capabilitiesOf('chess')).toMatchObject({ panels: [], spotlightTurns: false, halfHpWord: null, sheetTitle: null });
    expect(hasPanel('__proto__', 'episode')).toBe(false);
  });
});

describe('foes as targets: what an attack on a foe reads, declared by the ruleset', () => {
  it('OSR attacks name characters (001), the 36th Way and teams read a kept sheet, the others the combatant; the quick stats are the numbers those attacks read', () => {
    expect(rulesetIds.map((id) => [id, foeTargetOf(id)])).toEqual(rulesetIds.map((id) => [id, id === 'osr' ? 'character' : keptSheetRulesOf(id) !== null ? 'kept-sheet' : 'combatant']));
    expect(rulesetIds.map((id) => [id, quickStatsOf(id).map((q) => q.key)])).toEqual(
      rulesetIds.map((id) => [id, ({ osr: ['ac'], '36th-way': ['ac', 'pd', 'md'], teams: ['evasion'], kleptonomicon: ['defense', 'attackModifier', 'attackDamage'] } as Record<string, string[]>)[id] ?? []]),
    );
    expect(quickStatsOf('__proto__')).toEqual([]);
  });

  it("a kept-sheet foe's sheet command is one its ruleset takes: an Ogre with AC 14 on the 36th Way, a Raider with Evasion 6 and 10 health in teams", () => {
    const tsw = table('36th-way');
    tsw.run({ type: 'encounter.start', combatants: [{ id: 'ogre', kind: 'npc', name: 'Ogre', band: 'slow' }] });
    const ogre = foeSheetCommandOf('36th-way', { id: 'ogre', name: 'Ogre', hp: 20, block: { ac: 14 } });
    expect(ogre).toMatchObject({ type: '36th-way.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', ac: 14, maxHp: 20 } });
    tsw.run(ogre as Command);
    const teams = table('teams');
    teams.run({ type: 'encounter.start', combatants: [{ id: 'raider', kind: 'npc', name: 'Raider', side: 'raiders' }], params: { teamOrder: ['raiders'] } });
    const raider = foeSheetCommandOf('teams', { id: 'raider', name: 'Raider', hp: 10, block: { evasion: 6 } });
    expect(raider).toMatchObject({ type: 'character.sheet.set', characterId: 'raider', sheet: { name: 'Raider', evasion: 6, maxHealth: 10 } });
    teams.run(raider as Command);
    expect(foeSheetCommandOf('teams', { id: 'x', name: 'X', hp: null, block: {} })).toBeNull();
    expect(foeSheetCommandOf('osr', { id: 'x', name: 'X', hp: 5, block: { ac: 12 } })).toBeNull();
  });
});

describe("recoveryRowsOf: the 36th Way quick rest's rows (002 \"Recoveries\")", () => {
  it('PCs by name with what one recovery heals (level d8s plus the bonus); a foe is left out', () => {
    const t = table('36th-way');
    const add = (name: string, kind: 'pc' | 'npc') => t.minted(t.run({ type: 'character.add', name, kind }));
    const kira = add('Kira', 'pc');
    const bram = add('Bram', 'pc');
    const orc = add('Orc', 'npc');
    t.run({ type: 'character.sheet.set', characterId: kira, sheet: { level: 2, maxHp: 30, recoveries: 5, maxRecoveries: 8, recoveryBonus: 3 } });
    t.run({ type: 'character.sheet.set', characterId: bram, sheet: { level: 1, maxHp: 20 } });
    t.run({ type: 'character.sheet.set', characterId: orc, sheet: { level: 1, maxHp: 12 } });
    const rows = recoveryRowsOf(t.world);
    expect(rows.map((r) => [r.name, r.hp, r.maxHp, r.recoveries, r.maxRecoveries, r.dice])).toEqual([
      ['Bram', 20, 20, 8, 8, '1d8'],
      ['Kira', 30, 30, 5, 8, '2d8+3'],
    ]);
    expect(rows.map((r) => r.id)).toEqual([bram, kira]);
  });

  it('is empty on any other ruleset', () => {
    for (const id of rulesetIds.filter((x) => x !== '36th-way')) expect(recoveryRowsOf(table(id).world), id).toEqual([]);
  });

  it('lists the abilities a PC has spent (what downtime may give back), by name', () => {
    const t = table('36th-way');
    const kira = t.minted(t.run({ type: 'character.add', name: 'Kira', kind: 'pc' }));
    const abilities = [{ id: 'flare', name: 'Flare', frequency: 'daily' }, { id: 'ward', name: 'Ward', frequency: 'encounter' }, { id: 'jab', name: 'Jab', frequency: 'at-will' }];
    t.run({ type: 'character.sheet.set', characterId: kira, sheet: { level: 1, maxHp: 20, abilities } });
    expect(recoveryRowsOf(t.world)[0]!.expended).toEqual([]);
    t.run({ type: '36th-way.useAbility', characterId: kira, ability: 'flare' });
    t.run({ type: '36th-way.useAbility', characterId: kira, ability: 'jab' });
    expect(recoveryRowsOf(t.world)[0]!.expended).toEqual([{ id: 'flare', name: 'Flare' }]);
  });
});

describe('tswRangesFrom: the ranges the GM\'s range tool shows (002 "Positioning and Movement")', () => {
  it('engaged and far pairs from either side; nearby (the default) is left out; nothing off the 36th Way', () => {
    const t = table('36th-way');
    for (const [id, name] of [['ann', 'Ann'], ['orc', 'Orc'], ['imp', 'Imp']] as const) t.run({ type: '36th-way.sheet.set', sheet: { id, name, kind: 'npc', maxHp: 10 } });
    t.run({ type: '36th-way.position', fromId: 'orc', toId: 'ann', range: 'engaged' });
    t.run({ type: '36th-way.position', fromId: 'ann', toId: 'imp', range: 'far' });
    expect(tswRangesFrom(t.world, 'ann')).toEqual({ orc: 'engaged', imp: 'far' });
    expect(tswRangesFrom(t.world, 'orc')).toEqual({ ann: 'engaged' });
    t.run({ type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'nearby' });
    expect(tswRangesFrom(t.world, 'ann')).toEqual({ imp: 'far' });
    expect(tswRangesFrom(table('osr').world, 'ann')).toEqual({});
  });
});

describe('kept-sheet commands: the ruleset chooses how a sheet is stored (ADR 58)', () => {
  const kira = { id: 'cb-kira', name: 'Kira', kind: 'pc', characterId: 'ch-kira' } as const;
  const foe = { id: 'cb-foe', name: 'Raider', kind: 'npc', characterId: null } as const;

  it("the 36th Way's own command carries the creature's id, name, kind and link; teams sends character.sheet.set to the character it plays, or the foe's own id", () => {
    expect(keptSheetCommandFor('36th-way', kira, { maxHp: 20 })).toEqual({ type: '36th-way.sheet.set', sheet: { maxHp: 20, id: 'cb-kira', name: 'Kira', kind: 'pc', characterId: 'ch-kira' } });
    expect(keptSheetCommandFor('teams', kira, { evasion: 5 })).toEqual({ type: 'character.sheet.set', characterId: 'ch-kira', sheet: { evasion: 5, name: 'Kira' } });
    expect(keptSheetCommandFor('teams', foe, { evasion: 6 })).toEqual({ type: 'character.sheet.set', characterId: 'cb-foe', sheet: { evasion: 6, name: 'Raider' } });
  });

  it("typed text: a 36th Way sheet keeps its own id (the creature's by default); a teams sheet's link becomes the address and leaves the sheet", () => {
    expect(keptSheetCommandFromText('36th-way', 'cb-kira', { maxHp: 9 })).toEqual({ type: '36th-way.sheet.set', sheet: { id: 'cb-kira', maxHp: 9 } });
    expect(keptSheetCommandFromText('36th-way', 'cb-kira', { id: 'other', maxHp: 9 })).toEqual({ type: '36th-way.sheet.set', sheet: { id: 'other', maxHp: 9 } });
    expect(keptSheetCommandFromText('teams', 'cb-foe', { characterId: 'ch-kira', evasion: 5 })).toEqual({ type: 'character.sheet.set', characterId: 'ch-kira', sheet: { evasion: 5 } });
    expect(keptSheetCommandFromText('teams', 'cb-foe', { evasion: 5 })).toEqual({ type: 'character.sheet.set', characterId: 'cb-foe', sheet: { evasion: 5 } });
  });

  it('a new sheet starts from the ruleset\'s template, naming the creature', () => {
    expect(keptSheetTemplate('36th-way', foe)).toMatchObject({ id: 'cb-foe', name: 'Raider', kind: 'npc', level: 1, maxHp: 20 });
    expect(keptSheetTemplate('teams', kira)).toMatchObject({ name: 'Kira', characterId: 'ch-kira', evasion: 5, maxHealth: 10 });
  });
});

describe('teamsAwaiting: who must answer now on a teams table (ADR 42)', () => {
  /** Boudica against the Enemy, sheets set with character.sheet.set once the fight has them. */
  function boudicaFights() {
    const t = teamsTable();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    fight(t.s, ['b'], ['g'], 'b');
    t.s.run({ type: 'character.sheet.set', characterId: 'b', sheet: boudica as unknown as Json });
    t.s.run({ type: 'character.sheet.set', characterId: 'g', sheet: enemy({ name: 'Guard', maxStamina: 2, stamina: 2 }) as unknown as Json });
    return t;
  }

  it("a hit waiting for the target's reaction names the target until it answers (003 \"Block\")", () => {
    const { s, dice } = boudicaFights();
    expect(teamsAwaiting(s.world)).toEqual({ hitTargets: [], atRisk: [], commanded: [] });
    dice.push(3, 2, 10); // 3 + 2 + martial 1 = 6 against evasion 6: a hit, and the guard has stamina to answer
    s.run({ type: 'teams.attack', attackerId: 'b', targetId: 'g', weapon: 'spear' });
    expect(teamsAwaiting(s.world)).toEqual({ hitTargets: ['g'], atRisk: [], commanded: [] });
    expect(teamsAwaiting(s.view({ role: 'player', seatId: Object.keys(s.world.seats)[0]! }).world).hitTargets).toEqual(['g']);
    const attackId = Object.keys((s.world.ext['teams'] as { pending: object }).pending)[0]!;
    s.run({ type: 'teams.defend', attackId, reaction: 'none' });
    expect(teamsAwaiting(s.world).hitTargets).toEqual([]);
  });

  it('a creature losing consciousness is at risk until it fortifies or falls (003 "Damage": 17 damage leaves Boudica 5 health short of 12, past constitution 4)', () => {
    const { s } = boudicaFights();
    s.run({ type: 'teams.damage', targetId: 'b', amount: 7, reduce: false });
    s.run({ type: 'teams.damage', targetId: 'b', amount: 10, reduce: false });
    expect(teamsAwaiting(s.world)).toEqual({ hitTargets: [], atRisk: ['b'], commanded: [] });
  });

  it("an ally commanded during the turn under way is named until the granted action is used or the turn ends (003 Actions table \"Command\")", () => {
    const t = teamsTable();
    fight(t.s, ['b', 'p'], ['g'], 'b');
    t.s.run({ type: 'character.sheet.set', characterId: 'b', sheet: boudica as unknown as Json });
    t.s.run({ type: 'character.sheet.set', characterId: 'p', sheet: { name: 'Petra' } });
    t.s.run({ type: 'teams.act', characterId: 'b', action: 'Command', targetId: 'p' });
    expect(teamsAwaiting(t.s.world).commanded).toEqual(['p']);
    t.s.run({ type: 'teams.act', characterId: 'p', action: 'Interact', commanded: true });
    expect(teamsAwaiting(t.s.world).commanded).toEqual([]);
    // A second ally's grant, never used, lapses with the commander's turn.
    t.s.run({ type: 'character.sheet.set', characterId: 'b', sheet: { focus: 2 }, patch: true });
    t.s.run({ type: 'encounter.add', combatant: { id: 'q', kind: 'pc', side: 'players' } });
    t.s.run({ type: 'teams.act', characterId: 'b', action: 'Command', targetId: 'q' });
    expect(teamsAwaiting(t.s.world).commanded).toEqual(['q']);
    t.s.run({ type: 'encounter.endTurn' });
    expect(teamsAwaiting(t.s.world).commanded).toEqual([]);
  });

  it('is empty on any other ruleset', () => {
    for (const id of rulesetIds.filter((x) => x !== 'teams')) expect(teamsAwaiting(table(id).world), id).toEqual({ hitTargets: [], atRisk: [], commanded: [] });
  });
});

describe("damageBoxCommand: the ruleset's own command for the GM's damage box", () => {
  it('a kept sheet takes its ruleset\'s damage and healing (the 36th Way); a kernel combatant the encounter\'s', () => {
    const t = table('36th-way');
    t.run({ type: 'encounter.start', combatants: [{ id: 'orc', kind: 'npc', name: 'Orc', band: 'medium' }, { id: 'rat', kind: 'pc', name: 'Rat', stats: { hp: 3, maxHp: 3 }, band: 'slow' }] });
    // (A PC without a sheet stays a kernel combatant; a foe gets a sheet when it joins the fight, ADR 69.)
    expect(Object.keys((t.world.ext['36th-way'] as { sheets: object }).sheets)).toEqual(['orc']);
    t.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', maxHp: 20, ac: 14, pd: 12, md: 10 } });
    expect(damageBoxCommand(t.world, { combatantId: 'orc', characterId: null }, 'damage', 5)).toEqual({ ok: true, value: { type: '36th-way.damage', targetId: 'orc', amount: 5 } });
    t.run({ type: '36th-way.damage', targetId: 'orc', amount: 5 });
    const heal = damageBoxCommand(t.world, { combatantId: 'orc', characterId: null }, 'heal', 2);
    expect(heal).toEqual({ ok: true, value: { type: '36th-way.heal', characterId: 'orc', how: 'amount', amount: 2 } });
    expect(damageBoxCommand(t.world, { combatantId: 'rat', characterId: null }, 'damage', 2)).toEqual({ ok: true, value: { type: 'encounter.damage', characterId: 'rat', amount: 2 } });
  });

  it('teams heals health first, then endurance, up to each maximum, and says when nothing is left to heal', () => {
    const { s } = teamsTable();
    fight(s, ['b'], ['g']);
    s.run({ type: 'character.sheet.set', characterId: 'g', sheet: enemy({ name: 'Guard' }) as unknown as Json });
    const box = (kind: 'damage' | 'heal', n: number) => damageBoxCommand(s.world, { combatantId: 'g', characterId: null }, kind, n);
    expect(box('heal', 3)).toEqual({ ok: false, message: 'Nothing to heal: endurance and health are full.' });
    const hit = box('damage', 13);
    expect(hit).toEqual({ ok: true, value: { type: 'teams.damage', targetId: 'g', amount: 13 } });
    s.run({ type: 'teams.damage', targetId: 'g', amount: 13, reduce: false }); // endurance 10 -> 0, health 10 -> 7
    expect(box('heal', 5)).toEqual({ ok: true, value: { type: 'teams.setTrack', characterId: 'g', field: 'health', value: 10 } });
  });

  it("OSR and Daggerheart damage the character a combatant plays through their own rules; a name-only foe takes the encounter's", () => {
    for (const [id, damage, heal] of [
      ['osr', { type: 'osr.damage', targetId: 'ch1', amount: 4 }, { type: 'osr.heal', targetId: 'ch1', amount: 4 }],
      ['daggerheart', { type: 'daggerheart.takeDamage', characterId: 'ch1', amount: 4 }, { type: 'daggerheart.markTrack', characterId: 'ch1', track: 'hp', amount: -4 }],
      ['kleptonomicon', { type: 'encounter.damage', characterId: 'c1', amount: 4 }, { type: 'encounter.heal', characterId: 'c1', amount: 4 }],
    ] as const) {
      const w = table(id).world;
      expect(damageBoxCommand(w, { combatantId: 'c1', characterId: 'ch1' }, 'damage', 4), id).toEqual({ ok: true, value: damage });
      expect(damageBoxCommand(w, { combatantId: 'c1', characterId: 'ch1' }, 'heal', 4), id).toEqual({ ok: true, value: heal });
      expect(damageBoxCommand(w, { combatantId: 'c1', characterId: null }, 'damage', 4), id).toEqual({ ok: true, value: { type: 'encounter.damage', characterId: 'c1', amount: 4 } });
    }
    // Daggerheart clears at most 30 HP slots in one heal.
    expect(damageBoxCommand(table('daggerheart').world, { combatantId: 'c1', characterId: 'ch1' }, 'heal', 99)).toMatchObject({ value: { amount: -30 } });
  });
});

describe('kleptoAwaiting: who may make an Opportunity Attack now (004 "Movement Reactions")', () => {
  it('reads the openings a Move left in this view; none on any other ruleset', () => {
    const world = (rulesetId: string, opportunities: Json) => ({ ...table(rulesetId).world, ext: { kleptonomicon: { opportunities } } });
    expect(kleptoAwaiting(world('kleptonomicon', { hound: 'alice', guard: 'alice' }))).toEqual(['guard', 'hound']);
    expect(kleptoAwaiting(world('kleptonomicon', {}))).toEqual([]);
    // A state stored before openings existed has none.
    expect(kleptoAwaiting(table('kleptonomicon').world)).toEqual([]);
    for (const id of rulesetIds.filter((x) => x !== 'kleptonomicon')) expect(kleptoAwaiting(world(id, { guard: 'alice' })), id).toEqual([]);
  });
});
