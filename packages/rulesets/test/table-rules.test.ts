// `table.setting` (audit 13 item 2, ADR 99): the GM changes a declared ruleset
// setting after creation; checked against its declaration, logged in words,
// one undo step, replayed from its event. And every declared setting of every
// ruleset can be shown and offered in words.
import { getEncounter, scenario, seededRng, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engineFor, resolveSettings, rulesetIds, rulesetInfo } from '../src/registry.js';
import { settingAllowedWords, settingGroup, settingIsEditable, settingRefusal, settingSourceWords, settingTitle } from '../src/setting-words.js';
import { getTsw } from '../src/36th-way/state.js';

const GM: Viewer = { role: 'gm' };

function table(rulesetId: string, overrides: { [k: string]: Json } = {}): Scenario {
  const settings = resolveSettings(rulesetId, overrides);
  if (!settings.ok) throw new Error(settings.error.message);
  return scenario(engineFor(rulesetId)!.modules, { rng: seededRng(7), rulesetId, settings: settings.value });
}

/** Ann (PC) and an Orc, in a fight, as the 36th Way tests set them up. */
function fight(): Scenario {
  const s = table('36th-way');
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'ann', name: 'Ann', kind: 'pc', level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, recoveryDice: { count: 1, sides: 8 }, recoveryBonus: 3 } });
  s.run({ type: '36th-way.sheet.set', sheet: { id: 'orc', name: 'Orc', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 20 } });
  s.run({ type: 'encounter.start', combatants: [{ id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' }, { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' }] });
  return s;
}

const lastLine = (s: Scenario): string => s.world.log.at(-1)?.text ?? '';

describe('table.setting: 36th-way.dyingMode (002 "Dying and Death")', () => {
  it('switched to "unconscious" mid-fight, a PC at 0 HP is knocked out instead of dying, and the log says so in words', () => {
    const s = fight();
    s.run({ type: 'table.setting', key: '36th-way.dyingMode', value: 'unconscious' });
    expect(s.world.settings['36th-way.dyingMode']).toBe('unconscious');
    expect(lastLine(s)).toBe('Table rule changed: PCs at 0 HP fall unconscious instead of dying.');
    expect(getEncounter(s.world).active).toBe(true);
    s.run({ type: '36th-way.damage', target: 'ann', amount: 40 });
    expect(getTsw(s.world).sheets['ann']).toMatchObject({ unconscious: true, dying: null });
  });

  it('is one undo step: the rule and its log line go back, and the next 0 HP is dying again', () => {
    const s = fight();
    const before = s.world;
    s.run({ type: 'table.setting', key: '36th-way.dyingMode', value: 'unconscious' });
    expect(s.view(GM).undoWords).toContain('change a table rule');
    s.undo();
    expect(s.world.settings).toEqual(before.settings);
    expect(s.world.log).toEqual(before.log);
    s.run({ type: '36th-way.damage', target: 'ann', amount: 40 });
    expect(getTsw(s.world).sheets['ann']?.unconscious).not.toBe(true);
    expect(getTsw(s.world).sheets['ann']?.dying).not.toBeNull();
  });

  it('replays from its event: the replayed world equals the live one', () => {
    const s = fight();
    s.run({ type: 'table.setting', key: '36th-way.dyingMode', value: 'unconscious' });
    s.run({ type: 'table.setting', key: '36th-way.deathSaveTarget', value: 15 });
    s.run({ type: 'table.setting', key: '36th-way.dyingMode', value: 'dying' });
    expect(lastLine(s)).toBe('Table rule changed: PCs at 0 HP make death saves and can die.');
    expect(s.world.log.map((l) => l.text)).toContain('Table rule changed: Death save target is now 15 (was 13).');
    expect(s.engine.replay(s.table.genesis, s.table.transactions).world).toEqual(s.world);
  });
});

describe('table.setting: refusals in words', () => {
  it('names the setting and the allowed values for a wrong choice, a number out of range, a fraction, and the wrong kind', () => {
    const s = table('36th-way');
    const choice = s.fail({ type: 'table.setting', key: '36th-way.dyingMode', value: 'asleep' });
    expect(choice).toMatchObject({ code: 'INVALID_VALUE', path: 'value' });
    expect(choice.message).toBe('The table rule "Dying mode" (36th-way.dyingMode) must be one of "dying", "unconscious"; "asleep" is not');
    expect(s.fail({ type: 'table.setting', key: '36th-way.deathSaveTarget', value: 40 }).message).toContain('must be a whole number from 3 to 18; 40 is not');
    expect(s.fail({ type: 'table.setting', key: '36th-way.deathSaveTarget', value: 12.5 }).message).toContain('a whole number from 3 to 18');
    expect(s.fail({ type: 'table.setting', key: '36th-way.critAlwaysHits', value: 'yes' }).message).toContain('must be on or off');
  });

  it('refuses an unknown setting, an unchanged value, a structured setting, and a player', () => {
    const s = table('kleptonomicon');
    expect(s.fail({ type: 'table.setting', key: 'kleptonomicon.nope', value: 1 })).toMatchObject({ code: 'NOT_FOUND', path: 'key', message: 'this table\'s rules have no setting "kleptonomicon.nope"' });
    expect(s.fail({ type: 'table.setting', key: 'kleptonomicon.edgeSaveTies', value: 'choice' }).message).toBe('the table rule "Edge save ties" is already PCs in the same slot of the turn order choose who goes first');
    expect(s.fail({ type: 'table.setting', key: 'kleptonomicon.sixthDistance', value: null }).message).toBe('the table rule "Sixth distance" is set only when the table is created');
    s.run({ type: 'seat.add', name: 'Pat' });
    const seatId = Object.keys(s.world.seats)[0]!;
    expect(s.fail({ type: 'table.setting', key: 'kleptonomicon.edgeSaveTies', value: 'score' }, { role: 'player', seatId }).code).toBe('FORBIDDEN');
    expect(s.world.settings['kleptonomicon.edgeSaveTies']).toBe('choice');
  });

  it('takes a number for a choice-or-number rule and null for "not set" (teams.dodgeDifficulty, kleptonomicon.xpPerLevel)', () => {
    const teams = table('teams');
    teams.run({ type: 'table.setting', key: 'teams.dodgeDifficulty', value: 12 });
    expect(lastLine(teams)).toBe('Table rule changed: Dodge difficulty is now 12 (was a dodge must meet the attack\'s result).');
    teams.run({ type: 'table.setting', key: 'teams.dodgeDifficulty', value: 'attack-result' });
    expect(teams.fail({ type: 'table.setting', key: 'teams.dodgeDifficulty', value: 'half' }).message).toContain('must be "attack-result" or a whole number from 1 to 40');
    const klep = table('kleptonomicon');
    klep.run({ type: 'table.setting', key: 'kleptonomicon.xpPerLevel', value: 10 });
    klep.run({ type: 'table.setting', key: 'kleptonomicon.xpPerLevel', value: null });
    expect(lastLine(klep)).toBe('Table rule changed: the GM announces level-ups.');
  });

  it('creation checks the same declarations (an OSR share may be a fraction, a 36th Way target may not)', () => {
    expect(resolveSettings('osr', { 'osr.tidePromptAt': 0.75 }).ok).toBe(true);
    const bad = resolveSettings('36th-way', { '36th-way.critAt': 16.5 });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'INVALID_SETTING', path: 'settings.36th-way.critAt' });
  });
});

describe('every declared setting can be shown and offered', () => {
  const all = rulesetIds.flatMap((id) => rulesetInfo(id)!.settings.map((def) => ({ id, def })));

  it('its default passes its own check, and it has a title, a heading and a source without stored file names', () => {
    expect(all.length).toBeGreaterThan(90);
    for (const { id, def } of all) {
      expect(settingRefusal(def, def.default), `${id} ${def.key}`).toBeNull();
      expect(settingTitle(def)).toMatch(/^[A-Z0-9]/);
      expect(settingGroup(def).length).toBeGreaterThan(0);
      expect(settingSourceWords(def)).not.toMatch(/\d{3}_[0-9a-f]+\.txt/);
    }
  });

  it('a panel-editable text setting is a declared choice, and a number has a range (so the panel can offer a control)', () => {
    for (const { id, def } of all.filter((x) => settingIsEditable(x.def))) {
      if (typeof def.default === 'string') expect(def.allowed, `${id} ${def.key}`).toBeDefined();
      if (typeof def.default === 'number') expect(def.range, `${id} ${def.key}`).toBeDefined();
      expect(settingAllowedWords(def).length).toBeGreaterThan(0);
    }
  });

  it('the headings group 36th Way rules by the text they come from', () => {
    const tsw = rulesetInfo('36th-way')!.settings;
    const group = (key: string) => settingGroup(tsw.find((d) => d.key === key)!);
    expect(group('36th-way.dyingMode')).toBe('Dying and Death');
    expect(group('36th-way.advantage')).toBe('Dice and readings (rules README)');
    expect(group('core.logLimit')).toBe('The table');
  });
});

describe('table.setting: any run of changes (property)', () => {
  const teams = rulesetInfo('teams')!.settings.filter(settingIsEditable);
  /** A candidate value: one of the declared ones, a number inside or outside the range, or a wrong kind. */
  const candidate = fc.oneof(fc.constantFrom<Json>('any', 'lethal', 'nonlethal', 'off', 'attack-result', 'reroll-keep-higher', true, false, null), fc.integer({ min: -5, max: 60 }));

  it('each accepted change sets exactly that setting; undoing them all gives back the genesis settings; replay equals live', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: teams.length - 1 }), candidate), { minLength: 1, maxLength: 12 }), (steps) => {
        const s = table('teams');
        const genesis = s.world.settings;
        let accepted = 0;
        for (const [i, value] of steps) {
          const def = teams[i]!;
          const before = s.world.settings;
          const r = s.engine.execute(s.table, { type: 'table.setting', key: def.key, value }, { rng: s.rng, actor: GM });
          const expected = settingRefusal(def, value) === null && before[def.key] !== value;
          expect(r.ok).toBe(expected);
          if (!r.ok) continue;
          s.table = r.value.table;
          accepted++;
          expect(s.world.settings).toEqual({ ...before, [def.key]: value });
        }
        expect(s.engine.replay(s.table.genesis, s.table.transactions).world).toEqual(s.world);
        for (let n = 0; n < accepted; n++) s.undo();
        expect(s.world.settings).toEqual(genesis);
      }),
      { numRuns: 40 },
    );
  });
});
