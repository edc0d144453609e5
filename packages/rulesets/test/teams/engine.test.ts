// The teams ruleset through the engine: registry, the encounter conformance
// check, replay equals live, undo, views and audiences, the guards example,
// and a property over random fights.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encounterConformance, genesisWorld, seededRng, type Json } from '@tablekeeper/engine';
import { createTableFor, rulesetInfo } from '../../src/registry.js';
import { teamsModule, teamsRules } from '../../src/teams/index.js';
import { TEAMS_SETTINGS } from '../../src/teams/settings.js';
import { boudica, characters, enemy, fight, lastOf, sheet, sheetFor, start, table, turnTo } from './helpers.js';

const club = { name: 'club', weapon: { attributes: ['strength'], damage: 4, damageType: 'bludgeoning' } };

describe('the teams ruleset in the registry', () => {
  it('lists every named setting with its default, description and source', () => {
    const info = rulesetInfo('teams');
    for (const s of TEAMS_SETTINGS) expect(info?.settings.find((x) => x.key === s.key)).toMatchObject({ default: s.default, description: s.description, source: s.source });
    const t = createTableFor('teams', { tableId: 't', name: 'n', settings: { 'teams.multipleAttackPenalty': 3 } });
    expect(t.ok && t.value.world.settings['teams.multipleAttackPenalty']).toBe(3);
    const bad = createTableFor('teams', { tableId: 't', name: 'n', settings: { 'teams.multipleAttackPenalty': 'lots' } });
    expect(!bad.ok && bad.error.code).toBe('INVALID_SETTING');
  });

  it('a table setting changes the rule: a penalty of 3 per earlier attack', () => {
    const { s, dice } = table({ 'teams.multipleAttackPenalty': 3 });
    sheetFor(s, 'boudica', boudica);
    sheetFor(s, 'foe', enemy({ evasion: 30 }));
    fight(s, ['boudica'], ['foe'], 'boudica');
    dice.push(1, 1, 10, 1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ penalty: -3 });
  });

  it('the penalty counts this fight only: round 1 of the next fight starts again at none (003 "Multiple Attacks")', () => {
    const { s, dice } = table({ 'teams.multipleAttackPenalty': 3 });
    sheetFor(s, 'boudica', boudica);
    sheetFor(s, 'foe', enemy({ evasion: 30 }));
    fight(s, ['boudica'], ['foe'], 'boudica');
    dice.push(1, 1, 10, 1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ penalty: -3, round: 1, encounter: 1 });
    s.run({ type: 'encounter.end' });
    fight(s, ['boudica'], ['foe'], 'boudica');
    dice.push(1, 1, 10, 1, 1, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ penalty: 0, earlier: 0, round: 1, encounter: 2 });
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    expect(lastOf(s, 'teams.attacked')).toMatchObject({ penalty: -3, earlier: 1 });
  });
});

describe('encounter conformance (order, economy, replay, undo, views)', () => {
  it('passes with the teams rules and module', () => {
    const w = genesisWorld({ tableId: 't', name: 'n', rulesetId: 'teams', settings: Object.fromEntries(TEAMS_SETTINGS.map((s) => [s.key, s.default])) });
    const problems = encounterConformance({
      rules: teamsRules,
      modules: [teamsModule],
      genesis: w,
      combatants: [
        { id: 'a', kind: 'pc', side: 'players' },
        { id: 'b', kind: 'pc', side: 'players' },
        { id: 'g', kind: 'npc', side: 'guards' },
        { id: 'h', kind: 'npc', side: 'guards', visibility: 'hidden' },
      ],
      params: { teamOrder: ['players', 'guards'] },
      rng: seededRng(7),
    });
    expect(problems).toEqual([]);
  });
});

describe('the guards example (003 "Initiative and Rounds")', () => {
  it('Roland is knocked out before his turn, Clementine resuscitates him on hers, the guards go, then the players give Roland the next turn (same round)', () => {
    const { s, dice } = table();
    sheetFor(s, 'roland', { name: 'Roland', maxHealth: 6, constitution: 2, evasion: 3 });
    sheetFor(s, 'clementine', { name: 'Clementine', attributes: { wits: 8 }, skills: { medicine: 8 } });
    sheetFor(s, 'petra', { name: 'Petra' });
    for (const g of ['captain', 'guard1']) sheetFor(s, g, enemy({ name: g, items: { club } }));
    fight(s, ['petra', 'roland', 'clementine'], ['captain', 'guard1']);
    const cur = () => (s.world.ext['encounter'] as { current: string | null }).current;
    s.run({ type: 'encounter.choose', id: 'petra' });
    s.run({ type: 'encounter.endTurn' });
    s.run({ type: 'encounter.choose', id: 'guard1' });
    dice.push(6, 6, 10); // 12 + 4 = 16 against Roland's 6 health: 10 past it
    dice.push(15); // he cheats death
    s.run({ type: 'teams.attack', attacker: 'guard1', target: 'roland', weapon: 'club' });
    expect(sheet(s, 'roland')).toMatchObject({ health: 0, conscious: false, dead: false });
    s.run({ type: 'encounter.endTurn' });
    // Roland cannot act: Clementine is the players' only choice.
    expect(cur()).toBe('clementine');
    dice.push(8, 8, 10);
    s.run({ type: 'teams.act', combatant: 'clementine', action: 'Resuscitate', target: 'roland', test: { attribute: 'wits', skill: 'medicine' } });
    expect(sheet(s, 'roland')['conscious']).toBe(true);
    s.run({ type: 'encounter.endTurn' });
    // A player just acted, so the turn passes to the guards...
    expect(cur()).toBe('captain');
    s.run({ type: 'encounter.endTurn' });
    // ...and then the players give Roland the next turn, still in round 1.
    expect(cur()).toBe('roland');
    expect((s.world.ext['encounter'] as { round: number }).round).toBe(1);
  });
});

describe('replay, undo, views', () => {
  function played() {
    const t = table();
    t.s.run({ type: 'seat.add', name: 'Ann' });
    const seatId = Object.keys(t.s.world.seats)[0]!;
    t.s.run({ type: 'character.add', name: 'Boudica', kind: 'pc', seatId });
    const ch = Object.keys(t.s.world.characters)[0]!;
    sheetFor(t.s, 'boudica', { ...boudica, characterId: ch });
    sheetFor(t.s, 'foe', enemy({ secret: true, maxStamina: 2, items: { club } }));
    sheetFor(t.s, 'lurker', enemy({ name: 'Lurker', secret: true, items: { club } }));
    start(t.s, {
      type: 'encounter.start',
      combatants: [
        { id: 'boudica', kind: 'pc', side: 'players', characterId: ch },
        { id: 'foe', kind: 'npc', side: 'foes' },
        { id: 'lurker', kind: 'npc', side: 'foes', visibility: 'hidden' },
      ],
      params: { teamOrder: ['players', 'foes'] },
    });
    return { ...t, ann: { role: 'player', seatId } as const };
  }

  it('the player acts for her own character; the target\'s player answers the hit; others may not', () => {
    const { s, dice, ann } = played();
    turnTo(s, 'boudica');
    dice.push(3, 3, 10);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' }, ann);
    const id = String(lastOf(s, 'teams.attacked')['id']);
    expect(s.fail({ type: 'teams.defend', attack: id, reaction: 'none' }, ann).code).toBe('FORBIDDEN');
    s.run({ type: 'teams.defend', attack: id, reaction: 'none' });
    s.run({ type: 'encounter.endTurn' }, ann);
    turnTo(s, 'lurker');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'lurker', target: 'boudica', weapon: 'club' });
    s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'block', item: 'shield' }, ann);
    expect(s.fail({ type: 'teams.intercept', attack: 'x', by: 'foe' }, ann).code).toBe('FORBIDDEN');
  });

  it('players see a secret sheet as name and status only, never a hidden combatant\'s sheet, its events or its log lines', () => {
    const { s, dice, ann } = played();
    turnTo(s, 'lurker');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'lurker', target: 'foe', weapon: 'club' });
    const gm = s.view({ role: 'gm' });
    const pv = s.view(ann);
    const teams = pv.world.ext['teams'] as { sheets: { [k: string]: Json }; pending: { [k: string]: Json } };
    expect(teams.sheets['foe']).toEqual({ name: 'Enemy', secret: true, status: 'unhurt' });
    expect(teams.sheets['lurker']).toBeUndefined();
    expect(JSON.stringify(pv.world.ext)).not.toContain('lurker');
    expect(JSON.stringify(pv.world.log)).not.toContain('Lurker');
    expect(JSON.stringify(pv.history)).not.toContain('lurker');
    expect(JSON.stringify(gm.world.log)).toContain('Lurker attacked Enemy');
    expect((gm.world.ext['teams'] as { sheets: { [k: string]: Json } }).sheets['boudica']).toMatchObject({ name: 'Boudica' });
    expect(teams.sheets['boudica']).toMatchObject({ name: 'Boudica', endurance: 12 });
  });

  it('a Command after a hidden combatant\'s turn tells players nothing about that turn (turn numbers as the kernel shows them)', () => {
    const { s, ann } = played();
    s.run({ type: 'encounter.add', combatant: { id: 'petra', kind: 'pc', side: 'players' } });
    sheetFor(s, 'petra', { name: 'Petra', maxFocus: 4 });
    turnTo(s, 'lurker');
    s.run({ type: 'encounter.endTurn' });
    turnTo(s, 'petra');
    s.run({ type: 'teams.act', combatant: 'petra', action: 'Command', target: 'boudica' });
    const pv = s.view(ann);
    const enc = pv.world.ext['encounter'] as { turnSerial: number };
    const commanded = (pv.world.ext['teams'] as { commanded: { [k: string]: { by: string; serial: number } } }).commanded;
    expect(commanded['boudica']).toEqual({ by: 'petra', serial: enc.turnSerial });
    const gmEnc = s.world.ext['encounter'] as { turnSerial: number };
    expect(gmEnc.turnSerial).toBeGreaterThan(enc.turnSerial);
    // No event a player receives carries a raw turn number.
    for (const tx of pv.history) for (const e of tx.events) expect(e).not.toHaveProperty('serial');
    // Her player's own actions list (read on the player's view, turn numbers as shown) offers the granted Move.
    const list = s.engine.query(s.table, ann, 'teams.actions', { combatantId: 'boudica' });
    const actions = list.ok ? (list.value as { actions: { id: string; fixed: Json; allowed: boolean }[] }).actions : [];
    expect(actions.find((a) => a.id === 'move-commanded')).toMatchObject({ fixed: { characterId: 'boudica', action: 'Move', commanded: true }, allowed: true });
    s.run({ type: 'teams.act', characterId: 'boudica', action: 'Move', commanded: true }, ann);
    const after = s.engine.query(s.table, ann, 'teams.actions', { combatantId: 'boudica' });
    expect(after.ok && (after.value as { actions: { id: string }[] }).actions.filter((a) => a.id.endsWith('-commanded'))).toEqual([]);
  });

  it('replaying the recorded transactions rebuilds exactly the live world, and undo of an attack reverts it all', () => {
    const { s, dice } = played();
    turnTo(s, 'boudica');
    const before = JSON.stringify(s.world);
    dice.push(6, 6, 19);
    s.run({ type: 'teams.attack', attacker: 'boudica', target: 'foe', weapon: 'spear' });
    // A critical cannot be dodged and the foe holds nothing to parry with: the hit lands at once (ADR 42).
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none' });
    const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
    expect(JSON.stringify(replayed.world)).toBe(JSON.stringify(s.world));
    s.undo();
    expect(JSON.stringify({ ...s.world, log: [] })).toBe(JSON.stringify({ ...JSON.parse(before), log: [] }));
    expect(s.world.log.length).toBe((JSON.parse(before) as { log: unknown[] }).log.length);
  });
});

describe('property: random fights', () => {
  it('tracks stay within bounds, commands either succeed or give typed errors, and replay equals live', () => {
    const cmd = fc.oneof(
      fc.record({ kind: fc.constant('attack'), a: fc.constantFrom('boudica', 'foe', 'archer'), t: fc.constantFrom('boudica', 'foe', 'archer'), sneak: fc.boolean() }),
      fc.record({ kind: fc.constant('defend'), r: fc.constantFrom('none', 'block', 'parry', 'dodge') }),
      fc.record({ kind: fc.constant('end') }),
      fc.record({ kind: fc.constant('damage'), t: fc.constantFrom('boudica', 'foe', 'archer'), n: fc.integer({ min: 0, max: 30 }), nonlethal: fc.boolean() }),
      fc.record({ kind: fc.constant('fortify'), t: fc.constantFrom('boudica', 'foe', 'archer'), yes: fc.boolean() }),
      fc.record({ kind: fc.constant('act'), a: fc.constantFrom('Guard', 'Wait', 'Seek Cover', 'Drop Prone', 'Stand Up', 'Move', 'Sprint') }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.array(cmd, { maxLength: 40 }), (seed, cmds) => {
        const { s } = table();
        const rng = seededRng(seed);
        const run = (c: { type: string; [k: string]: Json }) => {
          const r = s.engine.execute(s.table, c, { rng, actor: { role: 'gm' } });
          if (r.ok) s.table = r.value.table;
          else if (r.error.code === 'INTERNAL') throw new Error(`${c.type}: ${r.error.message}`);
        };
        const weapons: { [k: string]: string } = { boudica: 'spear', foe: 'club', archer: 'club' };
        sheetFor(s, 'boudica', boudica);
        sheetFor(s, 'foe', enemy({ maxStamina: 2, items: { club }, wielded: ['club'], skills: { combat: 6, athletics: 4 } }));
        sheetFor(s, 'archer', enemy({ name: 'Archer', maxStamina: 1, items: { club } }));
        start(s, { type: 'encounter.start', combatants: [{ id: 'boudica', kind: 'pc', side: 'p' }, { id: 'foe', kind: 'npc', side: 'f' }, { id: 'archer', kind: 'npc', side: 'f' }], params: { teamOrder: ['p', 'f'] } });
        for (const c of cmds) {
          const enc = s.world.ext['encounter'] as { current: string | null; pending: { options: string[] } | null };
          if (enc.pending !== null) run({ type: 'encounter.choose', id: enc.pending.options[0]! });
          const pend = Object.values((s.world.ext['teams'] as { pending: { [k: string]: { id: string; target: string } } }).pending);
          switch (c.kind) {
            case 'attack':
              run({ type: 'teams.attack', attacker: c.a, target: c.t, weapon: weapons[c.a]!, sneak: c.sneak });
              break;
            case 'defend':
              if (pend[0] !== undefined) run({ type: 'teams.defend', attack: pend[0].id, reaction: c.r, item: pend[0].target === 'boudica' ? 'shield' : 'club', test: { attribute: 'strength', skill: 'athletics' } });
              break;
            case 'end':
              run({ type: 'encounter.endTurn' });
              break;
            case 'damage':
              run({ type: 'teams.damage', target: c.t, amount: c.n, nonlethal: c.nonlethal });
              break;
            case 'fortify':
              run({ type: 'teams.stayConscious', id: c.t, fortify: c.yes, test: { attribute: 'strength', skill: 'athletics' } });
              break;
            case 'act':
              if (enc.current !== null) run({ type: 'teams.act', combatant: enc.current, action: c.a });
              break;
          }
        }
        for (const id of ['boudica', 'foe', 'archer']) {
          const sh = sheet(s, id) as { [k: string]: number } & { items: { [k: string]: { durability: number; maxDurability: number } } };
          for (const [v, m] of [['endurance', 'maxEndurance'], ['health', 'maxHealth'], ['stamina', 'maxStamina'], ['focus', 'maxFocus']] as const) {
            if (sh[v]! < 0 || sh[v]! > sh[m]!) return false;
          }
          for (const it of Object.values(sh.items)) if (it.durability < 0 || it.durability > it.maxDurability) return false;
        }
        const replayed = s.engine.replay(s.table.genesis, s.table.transactions);
        return JSON.stringify(replayed.world) === JSON.stringify(s.world);
      }),
      { numRuns: 60 },
    );
  });
});

describe('surprise (003 "Surprise")', () => {
  it('the goblins\' surprise round: only they act, and Clementine, who cannot be surprised; then teams alternate', () => {
    const { s } = table();
    start(s, {
      type: 'encounter.start',
      combatants: [
        { id: 'roland', kind: 'pc', side: 'players' },
        { id: 'clementine', kind: 'pc', side: 'players', unsurprisable: true },
        { id: 'gob1', kind: 'npc', side: 'goblins' },
        { id: 'gob2', kind: 'npc', side: 'goblins' },
      ],
      params: { teamOrder: ['goblins', 'players'] },
      surprise: { side: 'goblins' },
    });
    const seen: string[] = [];
    for (let i = 0; i < 20 && (s.world.ext['encounter'] as { round: number }).round === 0; i++) {
      const e = s.world.ext['encounter'] as { current: string | null; pending: { options: string[] } | null };
      if (e.pending !== null) {
        s.run({ type: 'encounter.choose', id: e.pending.options[0]! });
        continue;
      }
      seen.push(e.current!);
      s.run({ type: 'encounter.endTurn' });
    }
    expect(seen).toEqual(['gob1', 'clementine', 'gob2']);
    expect((s.world.ext['encounter'] as { round: number }).round).toBe(1);
  });
});

describe('setting variants', () => {
  function hitOnBoudica(settings: { [k: string]: Json }, faces: number[]) {
    const t = table(settings);
    sheetFor(t.s, 'boudica', boudica);
    sheetFor(t.s, 'agnessa', { name: 'Agnessa', evasion: 20, maxStamina: 2, maxEndurance: 5, maxHealth: 5 });
    sheetFor(t.s, 'foe', enemy({ items: { club, sap: { weapon: { attributes: ['strength'], damage: 1, damageType: 'bludgeoning', nonlethal: true } } } }));
    fight(t.s, ['boudica', 'agnessa'], ['foe'], 'foe');
    t.dice.push(...faces);
    t.s.run({ type: 'teams.attack', attacker: 'foe', target: 'boudica', weapon: 'club' });
    return { ...t, id: String(lastOf(t.s, 'teams.attacked')['id']) };
  }

  it('teams.dodgeDifficulty as a number: the dodge is against it, not the attack result', () => {
    const { s, dice, id } = hitOnBoudica({ 'teams.dodgeDifficulty': 3 }, [6, 6, 10]);
    dice.push(2, 1, 10);
    s.run({ type: 'teams.defend', attack: id, reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } });
    expect(lastOf(s, 'teams.dodgeRolled')).toMatchObject({ difficulty: 3, success: true });
  });

  it('teams.criticalsDodgeable: a critical may then be dodged', () => {
    const { s, dice, id } = hitOnBoudica({ 'teams.criticalsDodgeable': true }, [1, 1, 20]);
    dice.push(2, 1, 10);
    s.run({ type: 'teams.defend', attack: id, reaction: 'dodge', test: { attribute: 'dexterity', skill: 'athletics' } });
    expect(lastOf(s, 'teams.dodgeRolled')).toMatchObject({ difficulty: 2, success: true });
  });

  it('teams.interceptRecheck off: the hit stands against the interceptor whatever her evasion', () => {
    const { s, id } = hitOnBoudica({ 'teams.interceptRecheck': false }, [3, 3, 10]);
    s.run({ type: 'teams.intercept', attack: id, by: 'agnessa' });
    expect(lastOf(s, 'teams.intercepted')).toMatchObject({ stillHits: true, evasion: 20 });
  });

  it('teams.killingStrikeWeapons "any" (the default): a nonlethal weapon may deliver it', () => {
    const { s, dice } = table();
    const id = characters(s, { boudica: { ...boudica, conscious: false }, foe: enemy({ items: { sap: { weapon: { attributes: ['strength'], damage: 1, damageType: 'bludgeoning', nonlethal: true } } } }) }, ['foe']);
    dice.push(6, 6, 6, 6, 10);
    s.run({ type: 'teams.killingStrike', attacker: id.foe, target: id.boudica, weapon: 'sap' });
    expect(sheet(s, id.boudica)['dead']).toBe(true);
  });
});
