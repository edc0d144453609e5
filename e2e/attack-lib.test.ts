// The attack panel's helpers against the real rulesets in the engine (no
// browser): for each ruleset the fighters and options read from a view, the
// query the panel asks (answered, with the words it shows) and the command it
// sends (accepted, and it rolls the attack the odds were about); a player's
// view offers only their own character as attacker.
import { describe, expect, it } from 'vitest';
import { scenario, seededRng, type Json, type Scenario, type Viewer, type World } from '@tablekeeper/engine';
import { osr, teams, thirtySixthWay } from '@tablekeeper/rulesets';
import { encounterOf } from '../packages/web/src/lib/encounter.ts';
import { attackCommand, attackRulesOf, currentFighter, DEFAULT_FORM, defaultTarget, describeOdds, fightersOf, oddsQuery, optionsFor, ownFighters, percent, type AttackForm, type AttackRules } from '../packages/web/src/lib/attack.ts';

const GM: Viewer = { role: 'gm' };

/** What the panel would do on `viewer`'s view with the defaults it picks, plus `patch`. */
function panel(s: Scenario, viewer: Viewer, mine: string[], patch: Partial<AttackForm> = {}) {
  const world: World = s.view(viewer).world;
  const rules = attackRulesOf(world)!;
  const enc = encounterOf(world);
  const all = fightersOf(world, rules, enc);
  const attackers = viewer.role === 'gm' ? all : ownFighters(all, enc, mine);
  const attacker = currentFighter(attackers, enc) ?? attackers[0]!.id;
  const targets = all.filter((f) => f.id !== attacker);
  const form: AttackForm = { ...DEFAULT_FORM, attacker, target: defaultTarget(targets, all.find((f) => f.id === attacker), enc), option: optionsFor(world, rules, attacker)[0]?.value ?? '', ...patch };
  return { rules, all, attackers, targets, form, options: optionsFor(world, rules, attacker), q: oddsQuery(rules, form)!, cmd: attackCommand(rules, form)! };
}

function ask(s: Scenario, viewer: Viewer, rules: AttackRules, q: { name: string; args: { [k: string]: Json } }) {
  const r = s.engine.query(s.table, viewer, q.name, q.args);
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return { value: (r as { value: Json }).value, words: describeOdds(rules, (r as { value: Json }).value)! };
}

function seatWithCharacter(s: Scenario, name: string): { seatId: string; ch: string } {
  s.run({ type: 'seat.add', name: `${name}'s player` });
  const seatId = Object.keys(s.world.seats).at(-1)!;
  s.run({ type: 'character.add', name, kind: 'pc', seatId });
  const ch = Object.values(s.world.characters).find((c) => c.name === name)!.id;
  return { seatId, ch };
}

describe('attack panel helpers', () => {
  it('percent: one decimal when needed, never 0% or 100% for what can still happen', () => {
    expect(percent(135 / 216)).toBe('62.5%');
    expect(percent(0.5)).toBe('50%');
    expect(percent(1 / 216)).toBe('0.5%');
    expect(percent(1e-5)).toBe('<0.1%');
    expect(percent(1 - 1e-5)).toBe('>99.9%');
    expect([percent(0), percent(1)]).toEqual(['0%', '100%']);
  });

  it('36th Way: the acting PC against the first foe; the query and tsw.attack agree on the roll', () => {
    const s = scenario(thirtySixthWay.ruleset.modules, { rng: seededRng(3), rulesetId: '36th-way' });
    const { seatId, ch } = seatWithCharacter(s, 'Vesk');
    s.run({ type: 'tsw.sheet.set', sheet: { id: 'vesk', name: 'Vesk', characterId: ch, level: 2, volition: 1, ac: 15, abilities: [{ id: 'jab', name: 'Quick Jab', frequency: 'at-will', action: 'standard' }] } });
    s.run({ type: 'tsw.sheet.set', sheet: { id: 'ogre', name: 'Ogre', kind: 'npc', level: 2, ac: 13, pd: 12, md: 10, maxHp: 20 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'vesk', name: 'Vesk', kind: 'pc', side: 'party', band: 'fast', characterId: ch }, { id: 'ogre', name: 'Ogre', kind: 'npc', side: 'foes', band: 'slow' }] });
    s.run({ type: 'tsw.position', a: 'vesk', b: 'ogre', range: 'engaged' });
    const p = panel(s, GM, []);
    expect(p.form).toMatchObject({ attacker: 'vesk', target: 'ogre', option: 'basic:melee' });
    expect(p.options.map((o) => o.label)).toEqual(['Basic melee attack', 'Quick Jab']);
    const a = ask(s, GM, p.rules, p.q);
    // +3 (level 2, volition 1) vs AC 13: natural 10+, 135/216.
    expect(a.words.headline).toBe('62.5% to hit · 1.9% crit · 0.5% crit fail');
    expect(a.words.detail).toBe('+3 vs AC 13: natural 10+ hits, 17+ crits');
    const tx = s.run(p.cmd as { type: string; [k: string]: Json });
    const rolled = (tx as unknown as { events: { type: string; [k: string]: unknown }[] }).events.find((e) => e.type === 'tsw.attackRolled')!;
    expect(rolled).toMatchObject({ attacker: 'vesk', target: 'ogre', defenseValue: 13, parts: { level: 2, volition: 1, escalation: 0, bonus: 0 } });
    // The player's own panel: Vesk only, same odds.
    const mine = panel(s, { role: 'player', seatId }, ['vesk']);
    expect(mine.attackers.map((f) => f.id)).toEqual(['vesk']);
    expect(ask(s, { role: 'player', seatId }, mine.rules, mine.q).value).toEqual(ask(s, GM, p.rules, p.q).value);
  });

  it('teams: weapons as options, sneak and flank as advantage; teams.attack rolls what the odds described', () => {
    const s = scenario(teams.ruleset.modules, { rng: seededRng(5), rulesetId: 'teams' });
    const { seatId, ch } = seatWithCharacter(s, 'Boudica');
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    s.run({ type: 'teams.setSheet', id: 'boudica', sheet: { name: 'Boudica', characterId: ch, attributes: { strength: 6 }, skills: { combat: 6 }, proficiencies: { martial: 1 }, evasion: 5, constitution: 4, maxEndurance: 12, maxHealth: 12, maxStamina: 4, maxFocus: 2, items: { spear: { name: 'spear', weapon: spear }, shield: { name: 'shield', block: 3, maxDurability: 6 } } } });
    s.run({ type: 'teams.setSheet', id: 'foe', sheet: { name: 'Raider', attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 6, constitution: 3, maxEndurance: 10, maxHealth: 10 } });
    s.run({ type: 'encounter.start', combatants: [{ id: 'boudica', kind: 'pc', side: 'players', characterId: ch }, { id: 'foe', kind: 'npc', side: 'foes' }], params: { teamOrder: ['players', 'foes'] } });
    const p = panel(s, GM, []);
    expect(p.options).toEqual([{ value: 'spear', label: 'spear' }]);
    expect(p.form).toMatchObject({ attacker: 'boudica', target: 'foe', option: 'spear' });
    // d6 + d6 + 1 vs evasion 6 with a 19+ critical: 0.1 + 0.9 x 30/36 = 85%, 10% critical.
    expect(ask(s, GM, p.rules, p.q).words.headline).toBe('85% to hit · 10% critical');
    const sneak = panel(s, GM, [], { sneak: true });
    // Advantage: 0.1 + 0.9 x (1 - (6/36)^2) = 97.5%.
    expect(ask(s, GM, sneak.rules, sneak.q).words).toMatchObject({ headline: '97.5% to hit · 10% critical', detail: expect.stringContaining('advantage +1') as unknown as string });
    const tx = s.run(p.cmd as { type: string; [k: string]: Json });
    const attacked = (tx as unknown as { events: { type: string; [k: string]: unknown }[] }).events.find((e) => e.type === 'teams.attacked');
    expect(attacked).toMatchObject({ attacker: 'boudica', intended: 'foe', weapon: 'spear', attribute: 'strength', advantage: 0 });
    expect(panel(s, { role: 'player', seatId }, ['boudica']).attackers.map((f) => f.id)).toEqual(['boudica']);
  });

  it('OSR: attack kinds as options, proficiency and a shot in melee; osr.attack is accepted', () => {
    const s = scenario(osr.ruleset.modules, { rng: seededRng(9), rulesetId: 'osr' });
    const { seatId, ch } = seatWithCharacter(s, 'Brannoc');
    s.run({ type: 'character.update', id: ch, stats: { str: 14, dex: 12, level: 1, maxHp: 8, hp: 8 } });
    s.run({ type: 'character.add', name: 'Orc', kind: 'npc', stats: { ac: 15, maxHp: 6, hp: 6 } });
    const orc = Object.values(s.world.characters).find((c) => c.name === 'Orc')!.id;
    s.run({ type: 'encounter.start', combatants: [{ id: 'b', kind: 'pc', characterId: ch, stats: { dex: 12 } }, { id: 'o', kind: 'npc', characterId: orc, stats: { dex: 8 } }] });
    const p = panel(s, GM, [], { proficient: true });
    expect(p.form).toMatchObject({ attacker: ch, target: orc, option: 'melee' });
    // +2 STR +2 proficiency vs AC 15: natural 11+ (50%), crit on 20 (5%).
    expect(ask(s, GM, p.rules, p.q).words.headline).toBe('50% to hit · 5% crit');
    const shot = panel(s, GM, [], { option: 'ranged', range: 'close' });
    // DEX +1 vs AC 15 needs 14+ (7/20); at close range with disadvantage: (7/20)^2 = 12.25%, crit (1/20)^2.
    expect(ask(s, GM, shot.rules, shot.q).words).toMatchObject({ headline: '12.3% to hit · 0.3% crit', detail: expect.stringContaining('disadvantage') as unknown as string });
    const tx = s.run(p.cmd as { type: string; [k: string]: Json });
    const attacked = (tx as unknown as { events: { type: string; [k: string]: unknown }[] }).events.find((e) => e.type === 'osr.attacked');
    expect(attacked).toMatchObject({ attacker: ch, target: orc, kind: 'melee', ac: 15 });
    expect(panel(s, { role: 'player', seatId }, ['b']).attackers.map((f) => f.id)).toEqual([ch]);
  });
});
