// 003's "all" rules, command by command, for a PC's tests: a luck die of 20
// adds +4 to every ordinary test (rules README), Guard adds +1 to all defence
// tests (003 "Actions in Combat": "all defences and defence tests"), and every
// attack counts the target's conditions (prone, in cover) as advantage. The
// list of test-rolling commands is checked against the module's own list.
// Also issue 16: a hit outside an encounter lands at once (no reaction window).
import { describe, expect, it } from 'vitest';
import { scenario, sheetModule, type Rng, type Scenario, type Transaction } from '@tablekeeper/engine';
import { ruleset } from '../../src/teams/index.js';
import { teamsModule } from '../../src/teams/module.js';
import { TEAMS_SETTINGS } from '../../src/teams/settings.js';
import { boudica, enemy, fight, lastOf, sheet, sheetFor, table, turnTo, characters } from './helpers.js';

/** Queued faces first; after them every d20 (the luck die) shows 20 and every other die 1. */
class LuckyRng implements Rng {
  readonly kind = 'seeded' as const;
  private queue: number[] = [];
  push(...f: number[]): void {
    this.queue.push(...f);
  }
  die(sides: number): number {
    if (sides === 1) return 1;
    return this.queue.shift() ?? (sides === 20 ? 20 : 1);
  }
  snapshot(): string {
    return `lucky:${this.queue.length}`;
  }
}

const brute = enemy({ name: 'Brute', maxStamina: 3, items: { club: { name: 'club', weapon: { attributes: ['strength'], damage: 4, criticalDamage: 8, criticalThreshold: 20, damageType: 'bludgeoning' } } } });
const ally = { ...boudica, name: 'Agnes', characterId: 'ch-agnes' };

function setup(): { s: Scenario; dice: LuckyRng } {
  const dice = new LuckyRng();
  const defaults = Object.fromEntries(TEAMS_SETTINGS.map((x) => [x.key, x.default]));
  const s = scenario([...ruleset.modules, sheetModule(ruleset.sheet!)], { rng: dice, rulesetId: 'teams', settings: defaults });
  sheetFor(s, 'boudica', boudica);
  sheetFor(s, 'agnes', ally);
  sheetFor(s, 'brute', brute);
  fight(s, ['boudica', 'agnes'], ['brute']);
  return { s, dice };
}

/** Boudica guards (ending her turn); the brute's turn comes. */
function guarded(s: Scenario): void {
  turnTo(s, 'boudica');
  s.run({ type: 'teams.act', combatant: 'boudica', action: 'Guard' });
  turnTo(s, 'brute');
}

interface TestRoll {
  readonly bonus: number;
  readonly luckBonus: number;
}
const rollIn = (tx: Transaction, type: string, key = 'roll'): TestRoll => {
  const e = tx.kind === 'command' ? tx.events.find((x) => x.type === type) : undefined;
  if (e === undefined) throw new Error(`no ${type}`);
  return e[key] as unknown as TestRoll;
};

const dodge = { attribute: 'dexterity', skill: 'athletics' };
const fortitude = { attribute: 'strength', skill: 'athletics', proficiency: 'fortitude' };

/** Commands that roll an ordinary test for the PC; `defence` when it is a defence test. Each runs with Boudica guarding where it can. */
const TESTS: { readonly [command: string]: { readonly defence: boolean; readonly run: (s: Scenario, dice: LuckyRng) => TestRoll } } = {
  'teams.defend': {
    defence: true,
    run: (s, dice) => {
      guarded(s);
      dice.push(6, 6, 10); // the brute's 12 hits Boudica's 5 + 1 evasion, no critical
      s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
      return rollIn(s.run({ type: 'teams.defend', attack: String(lastOf(s, 'teams.attacked')['id']), reaction: 'dodge', test: dodge }), 'teams.dodgeRolled');
    },
  },
  'teams.stayConscious': {
    defence: true,
    run: (s) => {
      guarded(s);
      s.run({ type: 'teams.damage', target: 'boudica', amount: 17, reduce: false }); // 12 endurance, 5 health: 5 missing > constitution 4
      return rollIn(s.run({ type: 'teams.stayConscious', id: 'boudica', fortify: true, test: fortitude }), 'teams.fortified');
    },
  },
  'teams.react': {
    defence: true,
    run: (s) => {
      guarded(s);
      return rollIn(s.run({ type: 'teams.react', id: 'boudica', reaction: 'fortify', difficulty: 8, test: fortitude }), 'teams.tested');
    },
  },
  'teams.act': {
    defence: false,
    run: (s) => {
      turnTo(s, 'boudica');
      return rollIn(s.run({ type: 'teams.act', combatant: 'boudica', action: 'Short Task', test: dodge, difficulty: 5 }), 'teams.tested');
    },
  },
  'teams.killingStrike': {
    defence: false,
    run: (s) => {
      s.run({ type: 'teams.damage', target: 'brute', amount: 10, reduce: false, nonlethal: true });
      s.run({ type: 'teams.damage', target: 'brute', amount: 10, reduce: false, nonlethal: true });
      turnTo(s, 'boudica');
      const tx = s.run({ type: 'teams.killingStrike', attacker: 'boudica', target: 'brute', weapon: 'spear' });
      return rollIn(tx, tx.kind === 'command' && tx.events.some((e) => e.type === 'teams.killed') ? 'teams.killed' : 'teams.killingStrikeFailed');
    },
  },
};

/** The attack commands: the roll is an attack (the luck die is read against the critical threshold instead). */
const ATTACKS = ['teams.attack'];

/** Every other command, and why it rolls no test for a PC. */
const NO_TEST: { readonly [command: string]: string } = {
  'teams.setSheet': 'edits a sheet',
  'teams.removeSheet': 'edits a sheet',
  'teams.setTrack': 'edits a sheet',
  'teams.intercept': 'reuses the attack\'s roll against the interceptor\'s evasion',
  'teams.damage': 'damage; a death risk it causes is a luck test (the d20 alone), which the luck bonus and Guard do not touch',
  'teams.triggerReady': 'a readied non-attack action: no roll (a readied attack is teams.attack)',
};

describe('003: every command that rolls a test for a PC is listed (or excluded with its reason)', () => {
  it('the lists cover the module\'s commands exactly', () => {
    expect([...Object.keys(TESTS), ...ATTACKS, ...Object.keys(NO_TEST)].sort()).toEqual(Object.keys(teamsModule.commands ?? {}).sort());
  });
});

describe('003: the global test modifiers reach every test', () => {
  for (const [command, { defence, run }] of Object.entries(TESTS)) {
    it(`${command}: a luck die of 20 adds +4 (rules README)${defence ? ', and Guard adds +1 (003 Guard: all defence tests)' : ''}`, () => {
      const { s, dice } = setup();
      const r = run(s, dice);
      expect(r.luckBonus).toBe(4);
      // Boudica's fortitude +1 is in `bonus` for the fortify tests; Guard's +1 is on top of it.
      const base = command === 'teams.react' || command === 'teams.stayConscious' ? 1 : 0;
      expect(r.bonus).toBe(base + (defence ? 1 : 0));
    });
  }

  it('teams.attack: a prone target gives melee attackers advantage, a target in cover gives ranged attackers disadvantage; an attack\'s luck 20 is a critical, not +4', () => {
    const { s } = setup();
    turnTo(s, 'brute');
    s.run({ type: 'condition.apply', target: 'boudica', condition: 'prone', duration: { kind: 'indefinite' } });
    const tx = s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    const attacked = tx.kind === 'command' ? tx.events.find((e) => e.type === 'teams.attacked')! : null;
    expect(attacked).toMatchObject({ advantage: 1, critical: true });
    expect((attacked!['roll'] as unknown as TestRoll).luckBonus).toBe(0);
  });
});

describe('issue 16: a hit outside an encounter does not wait for a reaction that can never come', () => {
  it('it lands at once with no reaction (003 reactions are taken within a round): no pending hit is left', () => {
    const { s, dice } = table();
    const id = characters(s, { boudica, brute });
    dice.push(6, 6, 10); // 12 against evasion 5: a hit for 12 + 4 = 16, deflection 0
    s.run({ type: 'teams.attack', attacker: id.brute, target: id.boudica, weapon: 'club' });
    expect(() => lastOf(s, 'teams.hitPending')).toThrow();
    expect(lastOf(s, 'teams.hitResolved')).toMatchObject({ reaction: 'none', raw: 16, damage: 16 });
    expect((s.world.ext['teams'] as { pending: object }).pending).toEqual({});
    expect(sheet(s, id.boudica)['endurance']).toBe(0);
  });
  it('asking it to wait (await) outside an encounter is refused with the reason', () => {
    const { s, dice } = table();
    const id = characters(s, { boudica, brute });
    dice.push(6, 6, 10);
    const e = s.fail({ type: 'teams.attack', attacker: id.brute, target: id.boudica, weapon: 'club', await: true });
    expect(e).toMatchObject({ code: 'NO_ENCOUNTER', path: 'await' });
    expect(e.message).toContain('running encounter');
  });
  it('inside an encounter the hit still waits for the target\'s reaction', () => {
    const { s, dice } = table();
    sheetFor(s, 'boudica', boudica);
    sheetFor(s, 'brute', brute);
    fight(s, ['boudica'], ['brute'], 'brute');
    dice.push(6, 6, 10);
    s.run({ type: 'teams.attack', attacker: 'brute', target: 'boudica', weapon: 'club' });
    expect(lastOf(s, 'teams.hitPending')).toMatchObject({ target: 'boudica' });
  });
});
