// 004's rules for every Test, command by command: a Test fails at the table's
// fail Score (6 or lower by default; setting kleptonomicon.failAtOrBelow) and
// net Advantage or Disadvantage is capped at 3 (at most four dice; rules
// README). The list of Test-rolling commands is checked against the module's.
import { describe, expect, it } from 'vitest';
import { getEncounter, scenario, type Json, type Rng, type Scenario, type Transaction } from '@tablekeeper/engine';
import { countingIds } from '@tablekeeper/engine/testing';
import { ruleset } from '../../src/kleptonomicon/index.js';
import { kleptonomiconModule } from '../../src/kleptonomicon/module.js';
import { kleptonomiconKit } from '../../src/kleptonomicon/index.js';
import { getKlepto } from '../../src/kleptonomicon/state.js';

// Character ids are random (ADR 10); each table's id draws count from 1
// (countingIds), so Alice has this id at every table (checked in table()).
const ALICE = 'ch-baaaaacaaaaa';
const idOf = (tx: Transaction): string => String(tx.kind === 'command' ? tx.events[0]!['id'] : '');

/** Every d10 shows `face` (no criticals below 10), every coin 1. */
const always = (face: number): Rng => ({ kind: 'seeded', die: (sides) => (sides === 10 ? face : 1), snapshot: () => `always:${face}` });

function table(face: number, settings: { [k: string]: Json } = {}): Scenario {
  const s = scenario(ruleset.modules, { rng: countingIds(always(face)), rulesetId: 'kleptonomicon', settings });
  s.run({ type: 'seat.add', name: 'Ann' });
  expect(idOf(s.run({ type: 'character.add', name: 'Alice', kind: 'pc', seatId: 'seat-1', stats: { athletics: 0 } }))).toBe(ALICE);
  s.run({ type: 'kleptonomicon.startEpisode' });
  s.run({ type: 'kleptonomicon.freeplay' });
  return s;
}

function inEncounter(s: Scenario): string {
  s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'guard', name: 'Guard', kind: 'npc', stats: { creatureType: 'guard' } },
      { id: 'hound', name: 'Hound', kind: 'npc', stats: { creatureType: 'hound' } },
      { id: 'alice', name: 'Alice', kind: 'pc', characterId: ALICE },
    ],
  });
  return getEncounter(s.world).current!;
}

interface TestRolled {
  readonly score: number;
  readonly dice: readonly unknown[];
  /** Whether the command judged it a pass (null when it is judged against something else, such as a defence). */
  readonly passed: boolean | null;
}

type Runner = (s: Scenario, advantage: number) => TestRolled;

const last = (s: Scenario, type: string): { [k: string]: Json } => {
  const tx = s.table.transactions.at(-1)!;
  const e = tx.kind === 'command' ? tx.events.find((x) => x.type === type) : undefined;
  if (e === undefined) throw new Error(`no ${type}`);
  return e as { [k: string]: Json };
};
const rolled = (roll: Json | undefined, passed: boolean | null): TestRolled => {
  const r = roll as { score: number; dice: unknown[] };
  return { score: r.score, dice: r.dice, passed };
};

/** Every module command that rolls a Test for a character, and how. */
const TESTS: { readonly [command: string]: Runner } = {
  'kleptonomicon.test': (s, advantage) => {
    s.run({ type: 'kleptonomicon.test', characterId: ALICE, advantage });
    const e = last(s, 'kleptonomicon.tested');
    return rolled(e['roll'], e['passed'] as boolean);
  },
  'kleptonomicon.rule': (s, advantage) => {
    s.run({ type: 'kleptonomicon.improvise', characterId: ALICE, description: 'swing on the chandelier' });
    const id = Object.keys(getKlepto(s.world).improvised)[0]!;
    s.run({ type: 'kleptonomicon.rule', requestId: id, ruling: 'test', advantage });
    const e = last(s, 'kleptonomicon.improvisationRuled');
    return rolled(e['roll'], e['passed'] as boolean);
  },
  // The second Dash in a round is an Athletics Test (no advantage input: it always rolls one die).
  'kleptonomicon.dash': (s) => {
    const who = inEncounter(s);
    s.run({ type: 'kleptonomicon.dash', combatantId: who });
    s.run({ type: 'kleptonomicon.dash', combatantId: who });
    const e = last(s, 'kleptonomicon.dashed');
    return rolled(e['test'], e['outcome'] !== 'slowed');
  },
  // A Basic Attack with the maneuver's extra Disadvantage, judged against the target's defence, not the fail Score.
  'kleptonomicon.improvisedManeuver': (s, advantage) => {
    const who = inEncounter(s);
    const other = getEncounter(s.world).roster.find((x) => x !== who)!;
    s.run({ type: 'kleptonomicon.improvisedManeuver', attacker: who, target: other, advantage });
    return rolled(last(s, 'kleptonomicon.maneuverRolled')['roll'], null);
  },
  // A Basic Attack (or an ability's, or the maneuver: ADR 51), judged against the target's Defense, not the fail Score.
  'kleptonomicon.attack': (s, advantage) => {
    const who = inEncounter(s);
    const other = getEncounter(s.world).roster.find((x) => x !== who)!;
    s.run({ type: 'kleptonomicon.attack', attackerId: who, targetId: other, advantage });
    return rolled(last(s, 'kleptonomicon.attackRolled')['roll'], null);
  },
};

/** Every other module command, and why it rolls no Test. */
const NO_TEST: { readonly [command: string]: string } = {
  'kleptonomicon.startEpisode': 'no roll',
  'kleptonomicon.introduce': 'no roll',
  'kleptonomicon.coldOpen': 'no roll',
  'kleptonomicon.freeplay': 'no roll',
  'kleptonomicon.looseOrder': 'no roll',
  'kleptonomicon.passSpotlight': 'no roll',
  'kleptonomicon.improvise': 'asks the GM; kleptonomicon.rule rolls the Test',
  'kleptonomicon.useAbility': 'abilities are paid in Beats; one that attacks rolls with kleptonomicon.attack, others with kleptonomicon.test',
  'kleptonomicon.freeAction': 'no roll',
  'kleptonomicon.setSheet': 'edits a sheet',
  'kleptonomicon.pause': 'no roll',
  'kleptonomicon.resume': 'no roll',
  'kleptonomicon.awardSecondaryXp': 'no roll',
  'kleptonomicon.awardXp': 'no roll',
  'kleptonomicon.levelUp': 'no roll',
  'kleptonomicon.setResource': 'no roll',
  'kleptonomicon.closingCredits': 'no roll',
  'kleptonomicon.resolutionScene': 'no roll',
  'kleptonomicon.endEpisode': 'no roll',
  'kleptonomicon.move': 'no roll',
  'kleptonomicon.dropProne': 'no roll',
  'kleptonomicon.stand': 'no roll',
  'kleptonomicon.grantStyle': 'no roll',
  'kleptonomicon.interrupt': 'no roll',
};

describe('004: every command that rolls a Test is listed (or excluded with its reason)', () => {
  it('the lists cover the module\'s commands exactly (Edge Saves are the encounter kernel\'s: fidelity.test.ts)', () => {
    const commands = kleptonomiconModule(kleptonomiconKit).commands;
    expect([...Object.keys(TESTS), ...Object.keys(NO_TEST)].sort()).toEqual(Object.keys(commands ?? {}).sort());
  });
});

describe('004: the rules of every Test reach every command that rolls one', () => {
  for (const [command, run] of Object.entries(TESTS)) {
    it(`${command}: a Score at the fail Score fails and one above passes (setting failAtOrBelow 7: 7 fails, 8 passes)`, () => {
      const at = run(table(7, { 'kleptonomicon.failAtOrBelow': 7 }), 0);
      const above = run(table(8, { 'kleptonomicon.failAtOrBelow': 7 }), 0);
      expect(at.score).toBe(7);
      if (at.passed !== null) {
        expect(at.passed).toBe(false);
        expect(above.passed).toBe(true);
      }
    });
    it(`${command}: net Advantage is capped at 3, so at most four dice (rules README)`, () => {
      const r = run(table(5), 10);
      expect(r.dice.length).toBeLessThanOrEqual(4);
      if (command !== 'kleptonomicon.dash') expect(r.dice).toHaveLength(4);
    });
  }
});
