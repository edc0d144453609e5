// Vocabulary renames with upcasters (issue 17, docs/vocabulary.md): a command
// stored (or sent by an old client) with a field's old name decides exactly as
// the new name does. Checked against tables exported from main before the
// renames: re-deciding their stored commands, as stored and with the new names,
// rebuilds the same world.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema, seededRng, upcastPayload, type Command, type Json, type Rng, type Table, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
import { engineFor, rulesetIds } from '../src/registry.js';

const GM: Viewer = { role: 'gm' };

function fixture(id: string): { genesis: World; commands: { command: Command; actor: Viewer }[]; world: World } {
  const dir = new URL('./fixtures/main-export/', import.meta.url);
  const lines = readFileSync(new URL(`${id}.jsonl`, dir), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { [k: string]: Json });
  const txs = lines.slice(1).map((l) => l['transaction'] as unknown as Transaction);
  return {
    genesis: lines[0]!['genesis'] as unknown as World,
    commands: txs.flatMap((t) => (t.kind === 'command' ? [{ command: t.command, actor: t.actor }] : [])),
    world: JSON.parse(readFileSync(new URL(`${id}.world.json`, dir), 'utf8')) as World,
  };
}

/** Re-decide the commands in order on the genesis with the dice the export was made with. */
function redecide(id: string, commands: readonly { command: Command; actor: Viewer }[], genesis: World): World {
  const engine = engineFor(id)!;
  const rng = seededRng(17);
  let table = engine.replay(genesis, []);
  for (const { command, actor } of commands) {
    const r = engine.execute(table, command, { rng, actor });
    if (!r.ok) throw new Error(`${command.type}: ${r.error.code} ${r.error.message}`);
    table = r.value.table;
  }
  return table.world;
}

/** The command with every renamed field under its new name (the declaration's own upcaster, value folds included). */
function renamedNow(id: string, c: Command): Command {
  const d = engineFor(id)!.catalog.find((x) => x.type === c.type);
  if (d?.kind !== 'command') return c;
  const up = upcastPayload(d.renamed, c, d.merged);
  if (!up.ok) throw new Error(up.error.message);
  return up.value as Command;
}

describe('stored commands with old field names decide as they did on main', () => {
  for (const id of rulesetIds) {
    it(`${id}: the export's commands re-decide as stored, and to the same world with the new names`, () => {
      const f = fixture(id);
      const asStored = redecide(id, f.commands, f.genesis);
      const now = f.commands.map((x) => ({ ...x, command: renamedNow(id, x.command) }));
      expect(redecide(id, now, f.genesis)).toEqual(asStored);
      // Same characters and sheets as on main (condition instance ids are minted from the dice since main's secrets merge).
      expect(asStored.characters).toEqual(f.world.characters);
    });
  }

  it('the fixtures do use the old names (countdown id and linkedTo, condition.apply target and source, osr dc)', () => {
    const sent = rulesetIds.flatMap((id) => fixture(id).commands.map((x) => x.command));
    const has = (type: string, field: string) => sent.some((c) => c.type === type && Object.hasOwn(c, field));
    expect(has('countdown.tick', 'id')).toBe(true);
    expect(has('countdown.create', 'linkedTo')).toBe(true);
    expect(has('condition.apply', 'target') && has('condition.apply', 'source')).toBe(true);
    expect(has('osr.check', 'dc')).toBe(true);
    // ADR 27's renames: ids name their kind and role.
    expect(has('osr.check', 'character') && has('osr.setLoad', 'character')).toBe(true);
    expect(has('osr.attack', 'attacker') && has('osr.attack', 'target')).toBe(true);
    expect(has('osr.setSheet', 'character') && has('osr.setSheet', 'stats')).toBe(true);
    expect(has('teams.setSheet', 'id')).toBe(true);
    expect(has('character.update', 'id')).toBe(true);
  });
});

describe('the renamed fields', () => {
  const engine = engineFor('daggerheart')!;
  const fresh = () => {
    const r = engine.execute(engine.createTable({ tableId: 't', name: 'Renames', rulesetId: 'daggerheart' }), { type: 'countdown.create', name: 'Alarm', start: 4 }, { rng: seededRng(3), actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    const t = r.value.transaction;
    return { table: r.value.table, id: String(t.kind === 'command' ? t.events[0]!['id'] : '') };
  };

  it('countdown commands take countdownId; sending both the old and the new name is refused naming the old, and nothing changes', () => {
    const { table, id } = fresh();
    const r = engine.execute(table, { type: 'countdown.tick', countdownId: id, id }, { rng: seededRng(1), actor: GM });
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'id', message: 'id: is the old name of countdownId; give only countdownId' } });
    const ok = engine.execute(table, { type: 'countdown.tick', countdownId: id }, { rng: seededRng(1), actor: GM });
    expect(ok.ok).toBe(true);
    expect(engine.query(table, GM, 'countdown.odds', { countdownId: id })).toMatchObject({ ok: true, value: { kind: 'countdown', value: 4 } });
    expect(engine.query(table, GM, 'countdown.odds', { id })).toMatchObject({ ok: true, value: { kind: 'countdown', value: 4 } });
  });

  it('OSR checks take difficulty; a bad value sent as dc is named dc, sent as difficulty named difficulty (001 "Saves & Checks": DC 1-40 here)', () => {
    const osr = engineFor('osr')!;
    let table = osr.createTable({ tableId: 't', name: 'Renames', rulesetId: 'osr' });
    const r = osr.execute(table, { type: 'character.add', name: 'Ann', kind: 'pc', stats: { hp: 5 } }, { rng: seededRng(3), actor: GM });
    if (!r.ok) throw new Error(r.error.message);
    table = r.value.table;
    const ann = String(r.value.transaction.kind === 'command' ? r.value.transaction.events[0]!['id'] : '');
    const check = (c: { [k: string]: Json }) => osr.execute(table, { type: 'osr.check', character: ann, ...c }, { rng: seededRng(4), actor: GM });
    expect(check({ dc: 41 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'dc', message: 'dc: must be an integer from 1 to 40' } });
    expect(check({ difficulty: 41 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'difficulty', message: 'difficulty: must be an integer from 1 to 40' } });
    const old = check({ dc: 12 });
    const now = check({ difficulty: 12 });
    expect(old.ok && now.ok).toBe(true);
    if (old.ok && now.ok) expect(now.value.table.world).toEqual(old.value.table.world);
  });

  it('the published schemas carry only the new names (docs/commands, the commands endpoint, forms)', () => {
    const props = (type: string, ruleset = 'daggerheart') => Object.keys((payloadJsonSchema(engineFor(ruleset)!.catalog.find((d) => d.type === type)!) as { properties: object }).properties);
    for (const t of ['countdown.tick', 'countdown.untick', 'countdown.set', 'countdown.pause', 'countdown.resume', 'countdown.reveal', 'countdown.hide', 'countdown.remove', 'countdown.odds']) {
      expect(props(t), t).toContain('countdownId');
      expect(props(t), t).not.toContain('id');
    }
    expect(props('countdown.create')).toContain('linkedCountdownId');
    expect(props('countdown.create')).not.toContain('linkedTo');
    expect(props('condition.apply', '36th-way')).toEqual(expect.arrayContaining(['targetId', 'sourceId']));
    expect(props('condition.apply', '36th-way')).not.toContain('target');
    for (const t of ['osr.check', 'osr.hide', 'osr.stabilize', 'osr.expose', 'osr.retreat']) {
      expect(props(t, 'osr'), t).toContain('difficulty');
      expect(props(t, 'osr'), t).not.toContain('dc');
    }
  });
});

// ADR 27: the rest of docs/vocabulary.md's renames for the core, the encounter, the OSR, teams and
// Daggerheart. Each pair is one command sent with the old names and with the new: both decide, with
// the same dice, to the same world. A creature may be named by its character id where a combatant id was asked.
describe('renames for the core, encounter, OSR, teams and Daggerheart (ADR 27)', () => {
  type Cmd = { type: string; [k: string]: Json };
  interface Setup {
    readonly table: Table;
    readonly ids: { readonly [name: string]: string };
  }
  const run = (id: string, table: Table, c: Cmd, seed = 5) => {
    const r = engineFor(id)!.execute(table, c, { rng: seededRng(seed), actor: GM });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    return r.value;
  };
  const minted = (t: Transaction) => String(t.kind === 'command' ? t.events[0]!['id'] : '');
  /** A table of `id` with a seat, two PCs (Ann seated) and a running encounter whose combatant ids differ from the character ids. */
  function setup(id: string, extra: (ids: { [k: string]: string }) => Cmd[] = () => []): Setup {
    const engine = engineFor(id)!;
    let table = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: id });
    const ids: { [k: string]: string } = {};
    // A new seed per step: ids are minted from the dice, so one seed throughout would mint one id twice.
    let seed = 100;
    const step = (c: Cmd) => {
      const r = run(id, table, c, seed++);
      table = r.table;
      return r.transaction;
    };
    ids['seat'] = minted(step({ type: 'seat.add', name: 'Ann\'s seat' }));
    ids['ann'] = minted(step({ type: 'character.add', name: 'Ann', kind: 'pc', seatId: ids['seat']!, stats: { hp: 9, maxHp: 9, str: 12, dex: 12, con: 12 } }));
    ids['bo'] = minted(step({ type: 'character.add', name: 'Bo', kind: 'npc', visibility: 'visible', stats: { hp: 7, maxHp: 7, str: 10, dex: 10, con: 10 } }));
    for (const c of extra(ids)) step(c);
    return { table, ids };
  }
  const same = (id: string, s: Setup, old: Cmd, now: Cmd) => {
    const a = run(id, s.table, old);
    const b = run(id, s.table, now);
    expect(b.table.world).toEqual(a.table.world);
    expect(b.transaction.kind === 'command' && b.transaction.events).toEqual(a.transaction.kind === 'command' && a.transaction.events);
  };
  const fight = (ids: { [k: string]: string }): Cmd[] => [
    {
      type: 'encounter.start',
      combatants: [
        { id: 'cb-ann', kind: 'pc', characterId: ids['ann']!, score: 15, band: 'fast', team: 'pcs' },
        { id: 'cb-bo', kind: 'npc', characterId: ids['bo']!, score: 10, band: 'slow', team: 'npcs' },
        { id: 'cb-rat', kind: 'npc', name: 'Rat', stats: { hp: 3 }, score: 5, band: 'slow', team: 'npcs' },
      ],
      ...(id === 'teams' ? { params: { teamOrder: ['pcs', 'npcs'] } } : {}),
    },
  ];
  let id = 'osr';

  it('core: seat.rename and seat.remove take seatId; character.update and character.remove take characterId', () => {
    id = 'osr';
    const s = setup(id);
    same(id, s, { type: 'seat.rename', id: s.ids['seat']!, name: 'Window' }, { type: 'seat.rename', seatId: s.ids['seat']!, name: 'Window' });
    same(id, s, { type: 'seat.remove', id: s.ids['seat']! }, { type: 'seat.remove', seatId: s.ids['seat']! });
    same(id, s, { type: 'character.update', id: s.ids['bo']!, name: 'Beau' }, { type: 'character.update', characterId: s.ids['bo']!, name: 'Beau' });
    same(id, s, { type: 'character.remove', id: s.ids['bo']! }, { type: 'character.remove', characterId: s.ids['bo']! });
  });

  it('encounter: a combatant is named by its character id (or an unlinked one by its own id) where `id` or `combatant` was', () => {
    id = 'osr';
    const s = setup(id, fight);
    const ann = s.ids['ann']!;
    for (const type of ['encounter.hide', 'encounter.reveal', 'encounter.obscure', 'encounter.remove']) same(id, s, { type, id: 'cb-ann' }, { type, characterId: ann });
    same(id, s, { type: 'encounter.damage', id: 'cb-ann', amount: 2 }, { type: 'encounter.damage', characterId: ann, amount: 2 });
    same(id, s, { type: 'encounter.heal', id: 'cb-rat', amount: 1 }, { type: 'encounter.heal', characterId: 'cb-rat', amount: 1 });
    same(id, s, { type: 'encounter.setStats', id: 'cb-rat', stats: { hp: 2 } }, { type: 'encounter.setStats', characterId: 'cb-rat', stats: { hp: 2 } });
    same(id, s, { type: 'encounter.setIncapacitated', id: 'cb-ann', value: true }, { type: 'encounter.setIncapacitated', characterId: ann, value: true });
    same(id, s, { type: 'encounter.place', id: 'cb-bo', placement: { score: 20 } }, { type: 'encounter.place', characterId: s.ids['bo']!, placement: { score: 20 } });
    same(id, s, { type: 'encounter.grant', combatant: 'cb-ann', pool: 'quick' }, { type: 'encounter.grant', characterId: ann, pool: 'quick' });
    same(id, s, { type: 'encounter.spend', combatant: 'cb-ann', kind: 'quick' }, { type: 'encounter.spend', characterId: ann, kind: 'quick' });
    same(id, s, { type: 'encounter.escalationSuppress', id: 'cb-ann', suppressed: true }, { type: 'encounter.escalationSuppress', characterId: ann, suppressed: true });
    // condition.apply's targetId (renamed last session) now also takes the character id.
    const cond = { condition: 'custom:prone', duration: { kind: 'encounterEnd' } };
    same(id, s, { type: 'condition.apply', target: 'cb-ann', ...cond }, { type: 'condition.apply', targetId: ann, ...cond });
    const applied = run(id, s.table, { type: 'condition.apply', targetId: ann, ...cond });
    const inst = String(applied.transaction.kind === 'command' ? applied.transaction.events[0]!['id'] : '');
    same(id, { ...s, table: applied.table }, { type: 'condition.remove', id: inst }, { type: 'condition.remove', conditionId: inst });
  });

  it('a player acts for the combatant of their own character, named by either id; another creature stays forbidden', () => {
    id = 'osr';
    const s = setup(id, fight);
    const player: Viewer = { role: 'player', seatId: s.ids['seat']! };
    const spend = (c: Cmd) => engineFor(id)!.execute(s.table, c, { rng: seededRng(1), actor: player });
    expect(spend({ type: 'encounter.spend', characterId: s.ids['ann']!, kind: 'quick' }).ok).toBe(true);
    expect(spend({ type: 'encounter.spend', combatant: 'cb-ann', kind: 'quick' }).ok).toBe(true);
    expect(spend({ type: 'encounter.spend', characterId: s.ids['bo']!, kind: 'quick' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('OSR: characterId, characterIds, attackerId/targetId, targetId/helperId, the light\'s characterId and a creature id for move, retreat and escape', () => {
    id = 'osr';
    const s = setup(id);
    const { ann, bo } = s.ids as { ann: string; bo: string };
    same(id, s, { type: 'osr.check', character: ann, dc: 12 }, { type: 'osr.check', characterId: ann, difficulty: 12 });
    same(id, s, { type: 'osr.attack', attacker: ann, target: bo }, { type: 'osr.attack', attackerId: ann, targetId: bo });
    same(id, s, { type: 'osr.damage', target: bo, amount: 3 }, { type: 'osr.damage', targetId: bo, amount: 3 });
    same(id, s, { type: 'osr.heal', target: bo, amount: 1 }, { type: 'osr.heal', targetId: bo, amount: 1 });
    same(id, s, { type: 'osr.rest', characters: [ann] }, { type: 'osr.rest', characterIds: [ann] });
    same(id, s, { type: 'osr.morale', characters: [bo] }, { type: 'osr.morale', characterIds: [bo] });
    same(id, s, { type: 'osr.setSheet', character: ann, stats: { ac: 14 } }, { type: 'osr.setSheet', characterId: ann, sheet: { ac: 14 } });
    same(id, s, { type: 'osr.lightSource', owner: ann }, { type: 'osr.lightSource', characterId: ann });
    same(id, s, { type: 'osr.exhaust', character: ann }, { type: 'osr.exhaust', characterId: ann });
    same(id, s, { type: 'osr.treasure', characters: [ann], gp: 50 }, { type: 'osr.treasure', characterIds: [ann], gp: 50 });
    // Dying, then stabilized by an ally (001; ADR 55 refuses a foe's helper): target and by become targetId and helperId.
    const withCy = run(id, s.table, { type: 'character.add', name: 'Cy', kind: 'pc', visibility: 'visible', stats: { hp: 6, maxHp: 6, str: 10, dex: 10, con: 10 } }, 9);
    const cy = minted(withCy.transaction);
    const down = run(id, withCy.table, { type: 'osr.damage', targetId: cy, amount: 20 }).table;
    same(id, { ...s, table: down }, { type: 'osr.stabilize', target: cy, by: ann, dc: 5 }, { type: 'osr.stabilize', targetId: cy, helperId: ann, difficulty: 5 });
    const f = setup(id, fight);
    same(id, f, { type: 'osr.move', combatant: 'cb-ann', feet: 10 }, { type: 'osr.move', characterId: f.ids['ann']!, feet: 10 });
    same(id, f, { type: 'osr.retreat', combatant: 'cb-ann' }, { type: 'osr.retreat', characterId: f.ids['ann']! });
    const away = run(id, f.table, { type: 'osr.retreat', characterId: f.ids['ann']! }).table;
    same(id, { ...f, table: away }, { type: 'osr.escape', combatant: 'cb-ann' }, { type: 'osr.escape', characterId: f.ids['ann']! });
  });

  it('OSR advantage: the old disadvantage count folds into the signed advantage (1 of each nets 0; 2 disadvantage is -2)', () => {
    id = 'osr';
    const s = setup(id);
    const { ann, bo } = s.ids as { ann: string; bo: string };
    same(id, s, { type: 'osr.check', character: ann, dc: 12, disadvantage: 2 }, { type: 'osr.check', characterId: ann, difficulty: 12, advantage: -2 });
    same(id, s, { type: 'osr.check', character: ann, dc: 12, advantage: 3, disadvantage: 1 }, { type: 'osr.check', characterId: ann, difficulty: 12, advantage: 2 });
    same(id, s, { type: 'osr.attack', attacker: ann, target: bo, advantage: 1, disadvantage: 1 }, { type: 'osr.attack', attackerId: ann, targetId: bo });
    // A disadvantage roll keeps the lower of two d20s: the event records two faces.
    const r = run(id, s.table, { type: 'osr.check', characterId: ann, difficulty: 12, advantage: -1 });
    const roll = r.transaction.kind === 'command' ? (r.transaction.events[0]!['roll'] as { dice: number[]; natural: number }) : null;
    expect(roll?.dice).toHaveLength(2);
    expect(roll?.natural).toBe(Math.min(...roll!.dice));
    // The odds query folds the same way.
    const odds = (args: { [k: string]: Json }) => engineFor(id)!.query(s.table, GM, 'osr.attackOdds', args);
    expect(odds({ attacker: ann, target: bo, disadvantage: 1 })).toEqual(odds({ attackerId: ann, targetId: bo, advantage: -1 }));
    // A count that is not a number is named as it was sent; a net beyond the limit is named advantage.
    const check = (c: { [k: string]: Json }) => engineFor(id)!.execute(s.table, { type: 'osr.check', characterId: ann, difficulty: 12, ...c }, { rng: seededRng(1), actor: GM });
    expect(check({ disadvantage: 'lots' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'disadvantage' } });
    expect(check({ advantage: 11 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'advantage', message: 'advantage: must be an integer from -10 to 10' } });
  });

  it('the upcaster folds a merged field, keeps plain renames refusing both names, and leaves other fields alone', () => {
    const fold = (old: Json, now: Json | undefined): Json => (typeof old === 'number' && (now === undefined || typeof now === 'number') ? (now ?? 0) - old : old);
    expect(upcastPayload({ disadvantage: 'advantage' }, { disadvantage: 2, bonus: 1 }, { disadvantage: fold })).toEqual({ ok: true, value: { advantage: -2, bonus: 1 } });
    expect(upcastPayload({ disadvantage: 'advantage' }, { disadvantage: 1, advantage: 3 }, { disadvantage: fold })).toEqual({ ok: true, value: { advantage: 2 } });
    expect(upcastPayload({ id: 'characterId' }, { id: 'a', characterId: 'a' })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'id' } });
    expect(upcastPayload({ id: 'characterId' }, { name: 'x' })).toEqual({ ok: true, value: { name: 'x' } });
  });

  it('teams: characterId, attackerId/targetId, attackId, interceptorId; a character id finds the sheet kept under a combatant id', () => {
    id = 'teams';
    const sheet = (name: string, characterId: string) => ({ name, characterId, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, items: { club: { name: 'club', weapon: { attributes: ['strength'], proficiencies: ['martial'], damage: 3, criticalDamage: 6, criticalThreshold: 19, damageType: 'piercing' } } } });
    const s = setup(id, (ids) => [
      { type: 'teams.setSheet', id: 'cb-ann', sheet: sheet('Ann', ids['ann']!) },
      { type: 'teams.setSheet', id: 'cb-bo', sheet: sheet('Bo', ids['bo']!) },
    ]);
    const { ann, bo } = s.ids as { ann: string; bo: string };
    same(id, s, { type: 'teams.setTrack', id: 'cb-ann', field: 'endurance', value: 3 }, { type: 'teams.setTrack', characterId: ann, field: 'endurance', value: 3 });
    same(id, s, { type: 'teams.damage', target: 'cb-bo', amount: 4 }, { type: 'teams.damage', targetId: bo, amount: 4 });
    same(id, s, { type: 'teams.attack', attacker: 'cb-ann', target: 'cb-bo', weapon: 'club' }, { type: 'teams.attack', attackerId: ann, targetId: bo, weapon: 'club' });
    same(id, s, { type: 'teams.removeSheet', id: 'cb-bo' }, { type: 'teams.removeSheet', characterId: bo });
    expect(engineFor(id)!.query(s.table, GM, 'teams.attackOdds', { attacker: 'cb-ann', target: 'cb-bo', weapon: 'club' })).toEqual(
      engineFor(id)!.query(s.table, GM, 'teams.attackOdds', { attackerId: ann, targetId: bo, weapon: 'club' }),
    );
  });

  it('Daggerheart: an action roll\'s flat addition is bonus, as in every ruleset', () => {
    id = 'daggerheart';
    const s = setup(id);
    same(id, s, { type: 'daggerheart.actionRoll', characterId: s.ids['ann']!, modifier: 2, difficulty: 12 }, { type: 'daggerheart.actionRoll', characterId: s.ids['ann']!, bonus: 2, difficulty: 12 });
    const odds = (args: { [k: string]: Json }) => engineFor(id)!.query(s.table, GM, 'daggerheart.actionRollOdds', args);
    expect(odds({ modifier: 3, difficulty: 14 })).toEqual(odds({ bonus: 3, difficulty: 14 }));
    expect(odds({ bonus: 3, difficulty: 14 })).not.toEqual(odds({ difficulty: 14 }));
  });

  it('the published schemas carry only the new names', () => {
    const props = (ruleset: string, type: string) => Object.keys((payloadJsonSchema(engineFor(ruleset)!.catalog.find((d) => d.type === type)!) as { properties: object }).properties);
    const expectNames = (ruleset: string, type: string, now: readonly string[], gone: readonly string[]) => {
      expect(props(ruleset, type), type).toEqual(expect.arrayContaining([...now]));
      for (const g of gone) expect(props(ruleset, type), type).not.toContain(g);
    };
    expectNames('osr', 'seat.rename', ['seatId'], ['id']);
    expectNames('osr', 'character.update', ['characterId'], ['id']);
    for (const t of ['encounter.remove', 'encounter.place', 'encounter.hide', 'encounter.reveal', 'encounter.obscure', 'encounter.setStats', 'encounter.setIncapacitated', 'encounter.escalationSuppress', 'encounter.damage', 'encounter.heal'])
      expectNames('osr', t, ['characterId'], ['id']);
    for (const t of ['encounter.spend', 'encounter.cancelExtended', 'encounter.grant']) expectNames('osr', t, ['characterId'], ['combatant']);
    expectNames('osr', 'encounter.triggerReady', ['characterId', 'beforeId'], ['id', 'before']);
    expectNames('osr', 'condition.remove', ['conditionId'], ['id']);
    expectNames('osr', 'osr.check', ['characterId', 'advantage'], ['character', 'disadvantage']);
    expectNames('osr', 'osr.attack', ['attackerId', 'targetId'], ['attacker', 'target', 'disadvantage']);
    expectNames('osr', 'osr.attackOdds', ['attackerId', 'targetId'], ['attacker', 'target', 'disadvantage']);
    expectNames('osr', 'osr.stabilize', ['targetId', 'helperId'], ['target', 'by']);
    expectNames('osr', 'osr.setSheet', ['characterId', 'sheet'], ['character', 'stats']);
    expectNames('osr', 'osr.lightSource', ['characterId'], ['owner']);
    for (const t of ['osr.move', 'osr.retreat', 'osr.escape']) expectNames('osr', t, ['characterId'], ['combatant']);
    for (const t of ['osr.rest', 'osr.morale', 'osr.chase', 'osr.travel', 'osr.rollToReturn', 'osr.treasure', 'osr.magicItem']) expectNames('osr', t, ['characterIds'], ['characters']);
    expectNames('teams', 'teams.attack', ['attackerId', 'targetId', 'beforeId'], ['attacker', 'target', 'before']);
    expectNames('teams', 'teams.intercept', ['attackId', 'interceptorId'], ['attack', 'by']);
    expectNames('teams', 'teams.defend', ['attackId'], ['attack']);
    expectNames('teams', 'teams.act', ['characterId', 'targetId'], ['combatant', 'target']);
    for (const t of ['teams.setSheet', 'teams.removeSheet', 'teams.setTrack', 'teams.stayConscious', 'teams.react', 'teams.triggerReady']) expectNames('teams', t, ['characterId'], ['id']);
    for (const t of ['daggerheart.actionRoll', 'daggerheart.requestRoll', 'daggerheart.actionRollOdds']) expectNames('daggerheart', t, ['bonus'], ['modifier']);
    // No declaration publishes a field under an old name it also renames.
    for (const rs of rulesetIds)
      for (const d of engineFor(rs)!.catalog) for (const old of Object.keys(d.renamed ?? {})) if (!Object.values(d.renamed ?? {}).includes(old)) expect(props(rs, d.type), `${rs} ${d.type}`).not.toContain(old);
  });
});

describe('the 36th Way command fields (docs/vocabulary.md: one id for a creature, roles)', () => {
  const engine = engineFor('36th-way')!;
  const seed = (): ReturnType<typeof engine.createTable> => {
    let t = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: '36th-way' });
    for (const sheet of [
      { id: 'ann', name: 'Ann', kind: 'pc', level: 1, maxHp: 30, ac: 15 },
      { id: 'orc', name: 'Orc', kind: 'npc', level: 2, maxHp: 20, ac: 14 },
    ]) {
      const r = engine.execute(t, { type: '36th-way.sheet.set', sheet }, { rng: seededRng(1), actor: GM });
      if (!r.ok) throw new Error(r.error.message);
      t = r.value.table;
    }
    return t;
  };
  const run = (c: Command) => engine.execute(seed(), c, { rng: seededRng(9), actor: GM });
  const pairs: [Command, Command][] = [
    [{ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }, { type: '36th-way.attack', attackerId: 'ann', targetIds: ['orc'], basic: 'melee' }],
    [{ type: '36th-way.damage', target: 'orc', amount: 5 }, { type: '36th-way.damage', targetId: 'orc', amount: 5 }],
    [{ type: '36th-way.heal', id: 'ann', how: 'free', by: 'orc' }, { type: '36th-way.heal', characterId: 'ann', how: 'free', helperId: 'orc' }],
    [{ type: '36th-way.check', who: 'ann', difficulty: 12 }, { type: '36th-way.check', characterId: 'ann', difficulty: 12 }],
    [{ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' }, { type: '36th-way.position', fromId: 'ann', toId: 'orc', range: 'engaged' }],
    [{ type: '36th-way.move', who: 'ann', to: 'orc', range: 'nearby' }, { type: '36th-way.move', characterId: 'ann', toId: 'orc', range: 'nearby' }],
    [{ type: '36th-way.outOfFight', id: 'orc', value: true }, { type: '36th-way.outOfFight', characterId: 'orc', value: true }],
    [{ type: '36th-way.sheet.remove', id: 'orc' }, { type: '36th-way.sheet.remove', characterId: 'orc' }],
  ];

  it.each(pairs)('%j decides as the same command under its new names', (old, now) => {
    const a = run(old);
    const b = run(now);
    expect(a.ok).toBe(b.ok);
    if (a.ok && b.ok) expect(a.value.table.world).toEqual(b.value.table.world);
    if (!a.ok && !b.ok) expect(a.error.code).toBe(b.error.code);
  });

  it('a rule error about a renamed field is named as it was sent (002 "Attacks": one roll per target)', () => {
    expect(run({ type: '36th-way.attack', attacker: 'ann', targets: ['ghost'], basic: 'melee' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'targets.0' } });
    expect(run({ type: '36th-way.attack', attackerId: 'ann', targetIds: ['ghost'], basic: 'melee' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'targetIds.0' } });
    expect(run({ type: '36th-way.damage', target: 'ghost', amount: 1 })).toMatchObject({ ok: false, error: { path: 'target' } });
    expect(run({ type: '36th-way.damage', target: 'orc', targetId: 'orc', amount: 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'target', message: 'target: is the old name of targetId; give only targetId' } });
    const t = seed();
    expect(engine.query(t, GM, '36th-way.attackOdds', { attacker: 'ann', target: 'ghost' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
    expect(engine.query(t, GM, '36th-way.attackOdds', { attackerId: 'ann', targetId: 'orc' })).toEqual(engine.query(t, GM, '36th-way.attackOdds', { attacker: 'ann', targets: ['orc'] }));
  });

  it('the published schemas carry only the new names', () => {
    const props = (type: string) => Object.keys((payloadJsonSchema(engine.catalog.find((d) => d.type === type)!) as { properties: object }).properties);
    const old = ['id', 'who', 'attacker', 'targets', 'target', 'a', 'b', 'ally', 'interceptor', 'mover', 'by', 'to'];
    for (const d of engine.catalog.filter((x) => x.type.startsWith('36th-way.') && x.type !== '36th-way.sheet.set')) {
      expect(props(d.type).filter((k) => old.includes(k)), d.type).toEqual([]);
    }
    expect(props('36th-way.intercept')).toEqual(['interceptorId', 'moverId']);
    expect(props('36th-way.fightInSpirit')).toEqual(expect.arrayContaining(['characterId', 'allyId']));
    expect(props('36th-way.stabilize')).toEqual(['helperId', 'targetId']);
  });
});

describe('the Kleptonomicon fields (docs/vocabulary.md: roles, ids name their kind, one spelling of defense)', () => {
  const engine = engineFor('kleptonomicon')!;
  const always = (face: number): Rng => ({ kind: 'seeded', die: (sides) => (sides === 10 ? face : 1), snapshot: () => `always:${face}` });
  const exec = (t: Table, c: Command, face = 8) => {
    const r = engine.execute(t, c, { rng: always(face), actor: GM });
    if (!r.ok) throw new Error(`${c.type}: ${r.error.code} ${r.error.message}`);
    return r.value;
  };
  /** An Encounter in its Main phase with a Guard and a Hound; whoever acts first. */
  const fight = (): { table: Table; who: string; other: string } => {
    let t: Table = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: 'kleptonomicon' });
    for (const c of [{ type: 'kleptonomicon.startEpisode' }, { type: 'kleptonomicon.freeplay' }]) t = exec(t, c).table;
    t = exec(t, { type: 'encounter.start', combatants: [{ id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } }, { id: 'hound', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound' } }] }).table;
    const enc = t.world.ext['encounter'] as { current: string; roster: string[] };
    return { table: t, who: enc.current, other: enc.roster.find((x) => x !== enc.current)! };
  };

  it('an improvised maneuver takes attackerId, targetId and defense; the old names decide the same (004 "Improvised Maneuvers": Score against the defense)', () => {
    const { table, who, other } = fight();
    const now = exec(table, { type: 'kleptonomicon.improvisedManeuver', attackerId: who, targetId: other, defense: 6 });
    const old = exec(table, { type: 'kleptonomicon.improvisedManeuver', attacker: who, target: other, defence: 6 });
    expect(old.table.world).toEqual(now.table.world);
    const rolled = now.transaction.kind === 'command' ? now.transaction.events.find((e) => e.type === 'kleptonomicon.maneuverRolled') : undefined;
    // Face 8 with one Disadvantage die (also 8): Score 8 reaches defense 6, a hit.
    expect(rolled).toMatchObject({ attackerId: who, targetId: other, defense: 6, hit: true });
    expect(engine.execute(table, { type: 'kleptonomicon.improvisedManeuver', attacker: who, targetId: 'nobody' }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'targetId' } });
    expect(engine.execute(table, { type: 'kleptonomicon.improvisedManeuver', attacker: who, target: 'nobody' }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'target' } });
  });

  it('a stored maneuverRolled event with attacker, target and defence replays to the same world', () => {
    const { table, who, other } = fight();
    const now = exec(table, { type: 'kleptonomicon.improvisedManeuver', attackerId: who, targetId: other, defense: 6 });
    const txs = [...now.table.transactions];
    const last = txs[txs.length - 1]!;
    if (last.kind !== 'command') throw new Error('expected a command');
    const oldEvents = last.events.map((e) => (e.type === 'kleptonomicon.maneuverRolled' ? { type: 'klepto.maneuverRolled', attacker: e['attackerId'], target: e['targetId'], roll: e['roll'], defence: e['defense'], hit: e['hit'] } : e));
    const replayed = engine.replay(now.table.genesis, [...txs.slice(0, -1), { ...last, events: oldEvents }]);
    expect(replayed.world).toEqual(now.table.world);
    const back = replayed.transactions.at(-1);
    expect(back?.kind === 'command' && back.events.find((e) => e.type === 'kleptonomicon.maneuverRolled')).toMatchObject({ attackerId: who, targetId: other, defense: 6 });
  });

  it('kleptonomicon.rule takes improvisationId (requestId still works); the improvisation events carry improvisationId', () => {
    let t: Table = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: 'kleptonomicon' });
    const add = exec(t, { type: 'character.add', name: 'Alice', kind: 'pc' });
    t = add.table;
    const alice = String(add.transaction.kind === 'command' ? add.transaction.events[0]!['id'] : '');
    for (const c of [{ type: 'kleptonomicon.startEpisode' }, { type: 'kleptonomicon.freeplay' }]) t = exec(t, c).table;
    const asked = exec(t, { type: 'kleptonomicon.improvise', characterId: alice, description: 'kick the door' });
    const proposed = asked.transaction.kind === 'command' ? asked.transaction.events[0]! : undefined;
    expect(proposed).toMatchObject({ type: 'kleptonomicon.improvisationProposed', characterId: alice });
    expect(Object.hasOwn(proposed!, 'id')).toBe(false);
    const improvisationId = String(proposed!['improvisationId']);
    const now = exec(asked.table, { type: 'kleptonomicon.rule', improvisationId, ruling: 'simple' });
    const old = exec(asked.table, { type: 'kleptonomicon.rule', requestId: improvisationId, ruling: 'simple' });
    expect(old.table.world).toEqual(now.table.world);
    expect(now.transaction.kind === 'command' && now.transaction.events[0]).toMatchObject({ type: 'kleptonomicon.improvisationRuled', improvisationId, ruling: 'simple' });
    expect(engine.execute(asked.table, { type: 'kleptonomicon.rule', requestId: 'imp-nothing', ruling: 'simple' }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'requestId' } });
  });

  it('kleptonomicon.testOdds takes defense (defence still answers the same)', () => {
    const t = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: 'kleptonomicon' });
    const now = engine.query(t, GM, 'kleptonomicon.testOdds', { defense: 7 });
    expect(now.ok).toBe(true);
    expect(engine.query(t, GM, 'kleptonomicon.testOdds', { defence: 7 })).toEqual(now);
    expect(engine.query(t, GM, 'kleptonomicon.testOdds', { defense: 7, defence: 7 })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', path: 'defence' } });
  });

  /** Alice (a PC played by Ann's seat, combatant c-alice) and an unlinked Guard, in the Main phase on Alice's turn. */
  const alicesTurn = (): { table: Table; alice: string; seatId: string } => {
    let t: Table = engine.createTable({ tableId: 't', name: 'Renames', rulesetId: 'kleptonomicon' });
    const seat = exec(t, { type: 'seat.add', name: 'Ann' });
    const seatId = String(seat.transaction.kind === 'command' ? seat.transaction.events[0]!['id'] : '');
    t = seat.table;
    const add = exec(t, { type: 'character.add', name: 'Alice', kind: 'pc', seatId });
    const alice = String(add.transaction.kind === 'command' ? add.transaction.events[0]!['id'] : '');
    t = add.table;
    for (const c of [{ type: 'kleptonomicon.startEpisode' }, { type: 'kleptonomicon.freeplay' }]) t = exec(t, c).table;
    t = exec(t, { type: 'encounter.start', combatants: [{ id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard', edgeSave: 1 } }, { id: 'c-alice', name: 'Alice', kind: 'pc', characterId: alice }] }).table;
    expect((t.world.ext['encounter'] as { current: string }).current).toBe('c-alice');
    return { table: t, alice, seatId };
  };

  it('turn commands take characterId: a character id finds the combatant it plays; combatantId (old clients) decides the same (004 "Movement": 2u of the 4u walk)', () => {
    const { table, alice } = alicesTurn();
    const now = exec(table, { type: 'kleptonomicon.move', characterId: alice, units: 2 });
    const old = exec(table, { type: 'kleptonomicon.move', combatantId: 'c-alice', units: 2 });
    const own = exec(table, { type: 'kleptonomicon.move', characterId: 'c-alice', units: 2 });
    expect(old.table.world).toEqual(now.table.world);
    expect(own.table.world).toEqual(now.table.world);
    expect(now.transaction.kind === 'command' && now.transaction.events[0]).toMatchObject({ type: 'kleptonomicon.moved', combatant: 'c-alice', units: 2 });
    const moved = (now.table.world.ext['kleptonomicon'] as { movement: { [id: string]: { spent: number } } }).movement['c-alice'];
    expect(moved?.spent).toBe(2);
    for (const type of ['kleptonomicon.dropProne', 'kleptonomicon.dash', 'kleptonomicon.interrupt']) {
      expect(exec(table, { type, combatantId: 'c-alice' }).table.world).toEqual(exec(table, { type, characterId: alice }).table.world);
    }
    expect(exec(table, { type: 'kleptonomicon.grantStyle', combatantId: 'c-alice', style: 'climb' }).table.world).toEqual(exec(table, { type: 'kleptonomicon.grantStyle', characterId: alice, style: 'climb' }).table.world);
    expect(exec(table, { type: 'kleptonomicon.freeAction', combatantId: 'c-alice', description: 'wink' }).table.world).toEqual(exec(table, { type: 'kleptonomicon.freeAction', characterId: alice, description: 'wink' }).table.world);
    // Errors name the field as it was sent.
    expect(engine.execute(table, { type: 'kleptonomicon.move', characterId: 'nobody', units: 1 }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'characterId' } });
    expect(engine.execute(table, { type: 'kleptonomicon.move', combatantId: 'nobody', units: 1 }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: 'combatantId' } });
    expect(engine.execute(table, { type: 'kleptonomicon.move', combatantId: 'c-alice', characterId: alice, units: 1 }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE' } });
    expect(engine.execute(table, { type: 'kleptonomicon.move', characterId: 'guard', units: 1 }, { rng: always(8), actor: GM })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN', path: 'characterId' } });
  });

  it("a player moves their own character's combatant named either way, and not the Guard", () => {
    const { table, alice, seatId } = alicesTurn();
    const ann: Viewer = { role: 'player', seatId };
    const run = (c: Command) => engine.execute(table, c, { rng: always(8), actor: ann });
    expect(run({ type: 'kleptonomicon.move', characterId: alice, units: 1 }).ok).toBe(true);
    expect(run({ type: 'kleptonomicon.move', characterId: 'c-alice', units: 1 }).ok).toBe(true);
    expect(run({ type: 'kleptonomicon.move', combatantId: 'c-alice', units: 1 }).ok).toBe(true);
    expect(run({ type: 'kleptonomicon.move', characterId: 'guard', units: 1 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(run({ type: 'kleptonomicon.grantStyle', characterId: alice, style: 'climb' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('the published schemas carry only the new names', () => {
    const props = (type: string) => Object.keys((payloadJsonSchema(engine.catalog.find((d) => d.type === type)!) as { properties: object }).properties);
    expect(props('kleptonomicon.improvisedManeuver')).toEqual(['attackerId', 'targetId', 'modifier', 'advantage', 'defense']);
    expect(props('kleptonomicon.rule')).toContain('improvisationId');
    expect(props('kleptonomicon.testOdds')).toContain('defense');
    expect(props('kleptonomicon.testOdds')).not.toContain('defence');
    for (const type of ['kleptonomicon.move', 'kleptonomicon.dropProne', 'kleptonomicon.stand', 'kleptonomicon.dash', 'kleptonomicon.grantStyle', 'kleptonomicon.interrupt', 'kleptonomicon.freeAction']) {
      expect(props(type)).toContain('characterId');
      expect(props(type)).not.toContain('combatantId');
    }
  });
});
