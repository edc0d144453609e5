// The target picker's order (lib/targets, ADR 52), first on its own, then on
// the real rulesets' actions answers: living foes first, then allies, the
// downed after them and the dead last; the form's default is never a target
// the engine would refuse; a helping action lists allies first.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { scenario, seededRng, type Json, type Scenario, type Viewer } from '@tablekeeper/engine';
import { engineFor } from '@tablekeeper/rulesets';
import { actionsQueryOf } from '@tablekeeper/rulesets/browser';
import { againForm, initialForm, readActions, targetOptionsOf, type Option, type TurnAction } from '../packages/web/src/lib/actions.ts';
import { defaultTarget, orderTargets, refusedTarget, standingOf, targetNote } from '../packages/web/src/lib/targets.ts';

const GM: Viewer = { role: 'gm' };
const pick = (s: Scenario, combatantId: string, id: string): TurnAction => {
  const r = s.engine.query(s.table, GM, actionsQueryOf(s.world.rulesetId)!, { combatantId });
  expect(r.ok, JSON.stringify(r)).toBe(true);
  return readActions((r as { value: Json }).value)!.actions.find((a) => a.id === id)!;
};
const values = (xs: readonly Option[]) => xs.map((o) => o.value);

describe('target order (lib/targets)', () => {
  const foe = (value: string, extra: Partial<Option> = {}): Option => ({ value, label: value, side: 'foe', ...extra });
  const ally = (value: string, extra: Partial<Option> = {}): Option => ({ value, label: value, side: 'ally', ...extra });

  it('living foes, then living allies, then the downed, then the dead; ties keep the answer\'s order', () => {
    const xs = [ally('kira'), foe('goblin-1', { standing: 'down' }), foe('goblin-2'), ally('bram', { standing: 'dead' }), foe('goblin-3'), ally('ash', { standing: 'down' })];
    expect(values(orderTargets(xs))).toEqual(['goblin-2', 'goblin-3', 'kira', 'goblin-1', 'ash', 'bram']);
    expect(defaultTarget(xs)).toBe('goblin-2');
  });

  it('a helping action lists allies first (a dying ally before a dying foe: review 6, OSR Stabilize)', () => {
    const xs = [foe('goblin-1', { note: 'dying' }), ally('bram', { note: 'dying' })];
    expect(values(orderTargets(xs, { aim: 'allies' }))).toEqual(['bram', 'goblin-1']);
    expect(defaultTarget(xs, { aim: 'allies' })).toBe('bram');
  });

  it('a refused target (out of reach) and a dead one are never the default while another is offered; alone, it is still shown', () => {
    const xs = [foe('orc-1', { refused: 'out of reach' }), foe('orc-2', { standing: 'dead' }), foe('kira', { standing: 'down' })];
    expect(defaultTarget(xs)).toBe('kira');
    expect(defaultTarget([foe('orc-2', { standing: 'dead' })])).toBe('orc-2');
    expect(defaultTarget([])).toBe('');
    expect(refusedTarget(xs[0]!)).toBe(true);
    expect(targetNote(xs[0]!)).toBe(' (out of reach)');
  });

  it("allies are marked in a hostile action's list, not in a helping one (review 11 #12)", () => {
    const xs = [foe('kira'), ally('goblin-2'), ally('goblin-1', { note: 'unconscious' })];
    expect(xs.map((o) => targetNote(o))).toEqual(['', ' (ally)', ' (ally, unconscious)']);
    expect(xs.map((o) => targetNote(o, 'allies'))).toEqual(['', '', ' (unconscious)']);
  });

  it('a hostile action never starts on an ally, not even an unconscious one when the foes cannot be picked (review 10, teams wolves)', () => {
    expect(defaultTarget([ally('dorn', { standing: 'down' }), foe('wolf-1', { refused: 'no Evasion yet' })])).toBe('wolf-1');
    expect(defaultTarget([ally('dorn', { standing: 'down' }), ally('kira')])).toBe('');
    // A helping action still starts on the downed ally.
    expect(defaultTarget([ally('dorn', { standing: 'down' }), foe('wolf-1')], { aim: 'allies' })).toBe('dorn');
  });

  it('an answer without a side or standing is read from its note (older servers): "down", "dying", "dead"', () => {
    expect(['down', 'dying', 'unconscious', 'dead', 'engaged', undefined].map((note) => standingOf({ value: 'x', label: 'x', ...(note === undefined ? {} : { note }) }))).toEqual(['down', 'down', 'down', 'dead', 'up', 'up']);
  });

  it('`prefer` puts a preferred target first within its group (The 36th Way: engaged first), never above the living', () => {
    const xs = [foe('orc-1', { note: 'nearby' }), foe('orc-2', { note: 'engaged' }), foe('orc-3', { note: 'engaged', standing: 'down' })];
    expect(values(orderTargets(xs, { prefer: (o) => o.note === 'engaged' }))).toEqual(['orc-2', 'orc-1', 'orc-3']);
  });

  it('property: the order is a permutation; the default, when any target is acceptable, is an acceptable living foe if there is one', () => {
    const opt = fc.record({ side: fc.constantFrom('foe' as const, 'ally' as const), standing: fc.constantFrom('up' as const, 'down' as const, 'dead' as const), refused: fc.boolean() });
    fc.assert(
      fc.property(fc.array(opt, { maxLength: 12 }), fc.constantFrom('foes' as const, 'allies' as const), (raw, aim) => {
        const xs: Option[] = raw.map((r, i) => ({ value: `t${i}`, label: `T${i}`, side: r.side, standing: r.standing, ...(r.refused ? { refused: 'out of reach' } : {}) }));
        const ordered = orderTargets(xs, { aim });
        expect([...values(ordered)].sort()).toEqual([...values(xs)].sort());
        const d = xs.find((o) => o.value === defaultTarget(xs, { aim }));
        if (xs.length === 0) {
          expect(d).toBeUndefined();
          return;
        }
        // A hostile action never starts on an ally: with foes only allies, nothing is picked.
        if (aim === 'foes') expect(d === undefined || d.side === 'foe').toBe(true);
        if (aim === 'foes' && !xs.some((o) => o.side === 'foe')) expect(d).toBeUndefined();
        const eligible = xs.filter((o) => aim === 'allies' || o.side === 'foe');
        if (eligible.some((o) => !refusedTarget(o))) expect(refusedTarget(d!)).toBe(false);
        const wanted = aim === 'foes' ? 'foe' : 'ally';
        if (aim === 'foes' && xs.some((o) => !refusedTarget(o) && o.side === wanted && o.standing === 'up')) expect(d).toMatchObject({ side: 'foe', standing: 'up' });
        if (aim === 'allies' && xs.some((o) => !refusedTarget(o) && o.side === wanted)) expect(d).toMatchObject({ side: 'ally' });
      }),
    );
  });
});

describe('Again (a rolled form readied for the next roll)', () => {
  const attack = (options: Option[]): TurnAction => ({
    id: 'attack', label: 'Attack', cost: '1 action', command: 'x.attack', fixed: {},
    target: { field: 'targetId', multiple: false, options },
    choices: [{ field: 'weapon', label: 'Weapon', options: [{ value: 'spear', label: 'spear' }, { value: 'axe', label: 'axe' }] }],
    numbers: [{ field: 'bonus', label: 'Bonus', min: -5, max: 5, value: 0 }], flags: [], texts: [], odds: null, allowed: true, reason: null,
  });
  it('keeps the picks while the target still stands; a target that has since died gives way to the default', () => {
    const before = attack([{ value: 'b1', label: 'Bandit 1', side: 'foe' }, { value: 'b2', label: 'Bandit 2', side: 'foe' }]);
    const picked = { ...initialForm(before), target: 'b2', values: { weapon: 'axe', bonus: '2' } };
    expect(againForm(before, picked)).toMatchObject({ target: 'b2', values: { weapon: 'axe', bonus: '2' } });
    const after = attack([{ value: 'b1', label: 'Bandit 1', side: 'foe' }, { value: 'b2', label: 'Bandit 2', side: 'foe', standing: 'dead' }]);
    expect(againForm(after, picked)).toMatchObject({ target: 'b1', values: { weapon: 'axe', bonus: '2' } });
  });
});

describe('target order on the rulesets\' answers', () => {
  it('OSR: Goblin 1 at 0 HP and the ally Bram come after the living Goblin 2; the form starts on Goblin 2; Stabilize starts on the dying ally', () => {
    const s = scenario(engineFor('osr')!.modules, { rng: seededRng(9), rulesetId: 'osr' });
    const add = (name: string, kind: 'pc' | 'npc', stats: { [k: string]: Json }) => {
      s.run({ type: 'character.add', name, kind, stats });
      return Object.values(s.world.characters).find((c) => c.name === name)!.id;
    };
    const kira = add('Kira', 'pc', { str: 14, dex: 14, level: 1, maxHp: 8, hp: 8, ac: 13 });
    const bram = add('Bram', 'pc', { str: 12, dex: 10, level: 1, maxHp: 8, hp: 8, ac: 12 });
    const g1 = add('Goblin 1', 'npc', { ac: 13, maxHp: 4, hp: 4 });
    const g2 = add('Goblin 2', 'npc', { ac: 13, maxHp: 4, hp: 4 });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'k', name: 'Kira', kind: 'pc', side: 'party', characterId: kira, stats: { dex: 14 } },
        { id: 'b', name: 'Bram', kind: 'pc', side: 'party', characterId: bram, stats: { dex: 10 } },
        { id: 'g1', name: 'Goblin 1', kind: 'npc', side: 'foes', characterId: g1, stats: { dex: 12 } },
        { id: 'g2', name: 'Goblin 2', kind: 'npc', side: 'foes', characterId: g2, stats: { dex: 8 } },
      ],
    });
    s.run({ type: 'osr.damage', targetId: g1, amount: 4 });
    const attack = pick(s, 'k', 'attack');
    expect(targetOptionsOf(attack).map((o) => o.label)).toEqual(['Goblin 2', 'Bram', 'Goblin 1']);
    expect(initialForm(attack).target).toBe(g2);
    s.run({ type: 'osr.damage', targetId: bram, amount: 8 });
    const stabilize = pick(s, 'k', 'stabilize');
    expect(targetOptionsOf(stabilize).map((o) => o.label)).toEqual(['Bram', 'Goblin 1']);
    expect(initialForm(stabilize).target).toBe(bram);
  });

  it('teams: an unconscious Bandit 1 is listed after the living Bandit 2 and the ally, and is not the default (review 6)', () => {
    const s = scenario(engineFor('teams')!.modules, { rng: seededRng(5), rulesetId: 'teams' });
    const spear = { attributes: ['strength'], proficiencies: ['martial'], damage: 4, criticalDamage: 8, criticalThreshold: 19, damageType: 'piercing' };
    const sheet = (name: string, extra: { [k: string]: Json } = {}) => ({ name, attributes: { strength: 6 }, skills: { combat: 6 }, evasion: 5, constitution: 4, maxEndurance: 6, maxHealth: 6, ...extra });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'kira', kind: 'pc', side: 'players' },
        { id: 'bram', kind: 'pc', side: 'players' },
        { id: 'b1', kind: 'npc', side: 'foes' },
        { id: 'b2', kind: 'npc', side: 'foes' },
      ],
      params: { teamOrder: ['players', 'foes'] },
    });
    // A foe without a character has its sheet under its combatant id (ADR 39).
    s.run({ type: 'character.sheet.set', characterId: 'kira', sheet: sheet('Kira', { items: { spear: { name: 'spear', weapon: spear } } }) });
    s.run({ type: 'character.sheet.set', characterId: 'bram', sheet: sheet('Bram') });
    s.run({ type: 'character.sheet.set', characterId: 'b1', sheet: sheet('Bandit 1', { health: 0, conscious: false }) });
    s.run({ type: 'character.sheet.set', characterId: 'b2', sheet: sheet('Bandit 2') });
    const attack = pick(s, 'kira', 'attack');
    expect(targetOptionsOf(attack).map((o) => `${o.label}${targetNote(o)}`)).toEqual(['Bandit 2', 'Bram (ally)', 'Bandit 1 (unconscious)']);
    expect(initialForm(attack).target).toBe('b2');
  });

  it('Kleptonomicon: Guard 1 at 0 HP on its row is listed after the standing Guard 2 (another group) and the ally, and is not the default', () => {
    const s = scenario(engineFor('kleptonomicon')!.modules, { rng: seededRng(3), rulesetId: 'kleptonomicon' });
    s.run({ type: 'kleptonomicon.startEpisode' });
    s.run({ type: 'kleptonomicon.freeplay' });
    s.run({
      type: 'encounter.start',
      combatants: [
        { id: 'alice', name: 'Alice', kind: 'pc', side: 'crew' },
        { id: 'g1', name: 'Guard 1', kind: 'npc', side: 'guards', stats: { creatureType: 'guard', hp: 6, maxHp: 6 } },
        { id: 'bram', name: 'Bram', kind: 'pc', side: 'crew' },
        { id: 'g2', name: 'Guard 2', kind: 'npc', side: 'guards', stats: { creatureType: 'archer', hp: 6, maxHp: 6 } },
      ],
    });
    s.run({ type: 'encounter.damage', characterId: 'g1', amount: 6 });
    const attack = pick(s, 'alice', 'maneuver');
    expect(targetOptionsOf(attack).map((o) => o.label)).toEqual(['Guard 2', 'Bram', 'Guard 1']);
    expect(initialForm(attack).target).toBe('g2');
  });
});
