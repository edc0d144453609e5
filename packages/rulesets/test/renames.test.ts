// Vocabulary renames with upcasters (issue 17, docs/vocabulary.md): a command
// stored (or sent by an old client) with a field's old name decides exactly as
// the new name does. Checked against tables exported from main before the
// renames: re-deciding their stored commands, as stored and with the new names,
// rebuilds the same world.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloadJsonSchema, seededRng, type Command, type Json, type Rng, type Table, type Transaction, type Viewer, type World } from '@tablekeeper/engine';
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

/** The command with every renamed field under its new name. */
function renamedNow(id: string, c: Command): Command {
  const d = engineFor(id)!.catalog.find((x) => x.type === c.type);
  const renamed = d?.kind === 'command' ? d.renamed : undefined;
  if (renamed === undefined) return c;
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [renamed[k] ?? k, v])) as Command;
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

  it('the published schemas carry only the new names', () => {
    const props = (type: string) => Object.keys((payloadJsonSchema(engine.catalog.find((d) => d.type === type)!) as { properties: object }).properties);
    expect(props('kleptonomicon.improvisedManeuver')).toEqual(['attackerId', 'targetId', 'modifier', 'advantage', 'defense']);
    expect(props('kleptonomicon.rule')).toContain('improvisationId');
    expect(props('kleptonomicon.testOdds')).toContain('defense');
    expect(props('kleptonomicon.testOdds')).not.toContain('defence');
  });
});
