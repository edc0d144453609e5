// 002's "all" rules, command by command, for a PC's rolls: conditions count
// on every attack (Dazed: 1 Disadvantage on attacks) and every save
// (Enervated: 1 Disadvantage on saves), the escalation die is added to all PC
// attacks, and a condition naming one kind of roll does not leak into others.
// The list of rolling commands is checked against the ruleset's own list.
import { describe, expect, it } from 'vitest';
import { getEncounter, scenario, type Json, type Rng, type Scenario, type Transaction } from '@tablekeeper/engine';
import { ruleset } from '../../src/36th-way/index.js';

/** Every d6 shows 3 (so no crits or fumbles get in the way), every other die 1. */
const threes: Rng = { kind: 'seeded', die: (sides) => (sides === 6 ? 3 : 1), snapshot: () => 'threes' };

const ANN = { id: 'ann', name: 'Ann', kind: 'pc', level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, recoveryDice: { count: 1, sides: 8 }, recoveryBonus: 3 };
const BOB = { id: 'bob', name: 'Bob', kind: 'pc', level: 1, volition: 1, ac: 13, pd: 11, md: 11, maxHp: 20 };
const ORC = { id: 'orc', name: 'Orc', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 40 };

type J = { [k: string]: Json };
const cmd = (c: J): { type: string; [k: string]: Json } => c as { type: string; [k: string]: Json };

/** End turns (choosing `id` when the band lets the players choose) until it is `id`'s turn in round `round` or later. */
function turnTo(s: Scenario, id: string, round = 0): void {
  for (let i = 0; i < 60; i++) {
    const e = getEncounter(s.world);
    if (e.current === id && e.round >= round) return;
    if (e.pending !== null) s.run(cmd({ type: 'encounter.choose', id: e.pending.options.includes(id) ? id : e.pending.options[0]! }));
    else s.run(cmd({ type: 'encounter.endTurn' }));
  }
  throw new Error(`${id} never got a turn`);
}

/** Ann and Bob (party, fast) against an Orc (medium), Ann engaged with it; Ann's turn; `conditions` on Ann. */
function fight(conditions: readonly string[], settings: { readonly [key: string]: Json } = {}): Scenario {
  const s = scenario(ruleset.modules, { rng: threes, rulesetId: '36th-way', settings });
  for (const sheet of [ANN, BOB, ORC]) s.run(cmd({ type: '36th-way.sheet.set', sheet }));
  s.run(
    cmd({
      type: 'encounter.start',
      combatants: [
        { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'bob', name: 'Bob', kind: 'pc', side: 'party', band: 'fast' },
        { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
      ],
    }),
  );
  turnTo(s, 'ann');
  s.run(cmd({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' }));
  for (const c of conditions) s.run(cmd({ type: 'condition.apply', target: 'ann', condition: c, duration: { kind: 'encounterEnd' }, ...(c === 'grabbed' ? { source: 'orc' } : {}) }));
  return s;
}

const roll = (tx: Transaction, type: string): { net: number; dice: number[] } => {
  const e = tx.kind === 'command' ? tx.events.find((x) => x.type === type) : undefined;
  if (e === undefined) throw new Error(`no ${type} in ${tx.kind === 'command' ? tx.events.map((x) => x.type).join(', ') : tx.kind}`);
  return e['roll'] as unknown as { net: number; dice: number[] };
};

type Kind = 'attack' | 'save' | 'check';
/** Every command that rolls 3d6 for a PC, what kind of roll it is, and how to make Ann roll it. */
const ROLLS: { readonly [command: string]: { readonly kind: Kind; readonly run: (s: Scenario) => { net: number; dice: number[] } } } = {
  '36th-way.attack': { kind: 'attack', run: (s) => roll(s.run(cmd({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' })), '36th-way.attackRolled') },
  '36th-way.rally': {
    kind: 'save',
    run: (s) => {
      s.run(cmd({ type: 'condition.apply', target: 'ann', condition: 'ongoing', duration: { kind: 'saveEnds' }, params: { amount: 3 } }));
      const inst = Object.values(getEncounter(s.world).conditions).find((c) => c.defId === 'ongoing')!.id;
      return roll(s.run(cmd({ type: '36th-way.rally', who: 'ann', against: inst })), 'condition.saveRolled');
    },
  },
  // Bob grants Ann (making Last Gasp saves) a save: the save is Ann's.
  '36th-way.grantSave': {
    kind: 'save',
    run: (s) => {
      s.run(cmd({ type: '36th-way.lastGasp', id: 'ann', effect: 'petrifying gaze' }));
      s.run(cmd({ type: 'encounter.endTurn' }));
      turnTo(s, 'bob');
      return roll(s.run(cmd({ type: '36th-way.grantSave', who: 'bob', target: 'ann' })), '36th-way.deathSaveRolled');
    },
  },
  // Ann drops on her turn; on her next one her player rolls the death save (review 9): a save.
  '36th-way.deathSave': {
    kind: 'save',
    run: (s) => {
      s.run(cmd({ type: '36th-way.damage', target: 'ann', amount: 31 }));
      s.run(cmd({ type: 'encounter.endTurn' }));
      turnTo(s, 'ann');
      return roll(s.run(cmd({ type: '36th-way.deathSave', characterId: 'ann' })), '36th-way.deathSaveRolled');
    },
  },
  '36th-way.check': { kind: 'check', run: (s) => roll(s.run(cmd({ type: '36th-way.check', who: 'ann', difficulty: 12 })), '36th-way.checkRolled') },
  '36th-way.diceyMove': { kind: 'check', run: (s) => roll(s.run(cmd({ type: '36th-way.diceyMove', who: 'ann', difficulty: 12 })), '36th-way.diceyMoveRolled') },
  '36th-way.disengage': { kind: 'check', run: (s) => roll(s.run(cmd({ type: '36th-way.disengage', who: 'ann' })), '36th-way.disengageRolled') },
};

/** Every other command, and why it rolls no attack, save or check for a PC. */
const NO_ROLL: { readonly [command: string]: string } = {
  '36th-way.sheet.set': 'edits a sheet',
  '36th-way.sheet.remove': 'edits a sheet',
  '36th-way.outOfFight': 'no roll',
  '36th-way.damage': 'damage, no roll',
  '36th-way.heal': 'recovery dice, not an attack, save or check',
  '36th-way.stabilize': 'no roll',
  '36th-way.lastGasp': 'starts Last Gasp saves; they are rolled at turn start (death saves) or by 36th-way.grantSave',
  '36th-way.useAbility': 'non-attack abilities; attacks with an ability go through 36th-way.attack',
  '36th-way.sustain': "the ability's own Sustain number, not an attack, save or check (no condition names it)",
  '36th-way.quickRest': "recharge rolls are the ability's own numbers (no condition names them)",
  '36th-way.restRecoveries': 'recovery dice at a quick rest, not an attack, save or check',
  '36th-way.fullRest': 'no roll',
  '36th-way.restore': 'no roll',
  '36th-way.stance': 'no roll',
  '36th-way.position': 'no roll',
  '36th-way.move': 'no roll (opportunity attacks it provokes are the enemy\'s 36th-way.attack)',
  '36th-way.popOff': 'no roll',
  '36th-way.intercept': 'no roll',
  '36th-way.declineOpportunity': 'lets an opportunity attack pass: no roll',
  '36th-way.fightInSpirit': 'gives advantage; rolls nothing',
  '36th-way.flee': 'no roll',
};

describe('002: every command that rolls for a PC is listed (or excluded with its reason)', () => {
  it('the lists cover the ruleset\'s commands exactly', () => {
    const all = ruleset.modules.flatMap((m) => Object.keys(m.commands ?? {})).filter((k) => k.startsWith('36th-way.'));
    expect([...Object.keys(ROLLS), ...Object.keys(NO_ROLL)].sort()).toEqual(all.sort());
  });
});

describe('002: conditions reach every roll of their kind, and only that kind', () => {
  for (const [command, { kind, run }] of Object.entries(ROLLS)) {
    it(`${command} (${kind}): Dazed ${kind === 'attack' ? 'gives 1 Disadvantage (002 Dazed: on attacks)' : 'does not touch it'}; Enervated ${kind === 'save' ? 'gives 1 Disadvantage (002 Enervated: on saves)' : 'does not touch it'}`, () => {
      const plain = run(fight([]));
      expect(plain.net).toBe(0);
      expect(plain.dice).toHaveLength(3);
      const dazed = run(fight(['dazed']));
      expect(dazed.net).toBe(kind === 'attack' ? -1 : 0);
      const enervated = run(fight(['enervated']));
      expect(enervated.net).toBe(kind === 'save' ? -1 : 0);
      // Different names stack (002 "Conditions"): Dazed and Weakened are 2 Disadvantage on attacks.
      if (kind === 'attack') expect(run(fight(['dazed', 'weakened'])).net).toBe(-2);
    });
  }

  it('the escalation die is added to every PC attack (002 "Escalation Die": all PC attacks), not to the Orc\'s by default', () => {
    const s = fight([]);
    turnTo(s, 'ann', 3); // the third round: escalation 2
    const tx = s.run(cmd({ type: '36th-way.attack', attacker: 'ann', targets: ['orc'], basic: 'melee' }));
    const e = tx.kind === 'command' ? tx.events.find((x) => x.type === '36th-way.attackRolled')! : null;
    expect(e!['parts']).toMatchObject({ escalation: 2 });
    turnTo(s, 'orc');
    const orc = s.run(cmd({ type: '36th-way.attack', attacker: 'orc', targets: ['ann'], basic: 'melee' }));
    const o = orc.kind === 'command' ? orc.events.find((x) => x.type === '36th-way.attackRolled')! : null;
    expect(o!['parts']).toMatchObject({ escalation: 0 });
  });
});

describe('002 "Rally": the save gains a bonus equal to Escalation, as the creature gets escalation elsewhere', () => {
  /** The Orc rallies against an ongoing effect in the third round (escalation 2); its save's bonus. */
  function orcRallyBonus(npcEscalation: boolean): number {
    const s = fight([], npcEscalation ? { '36th-way.npcEscalation': true } : {});
    s.run(cmd({ type: 'condition.apply', target: 'orc', condition: 'ongoing', duration: { kind: 'saveEnds' }, params: { amount: 3 } }));
    turnTo(s, 'orc', 3);
    const inst = Object.values(getEncounter(s.world).conditions).find((c) => c.defId === 'ongoing' && c.target === 'orc')!.id;
    const tx = s.run(cmd({ type: '36th-way.rally', who: 'orc', against: inst }));
    const e = tx.kind === 'command' ? tx.events.find((x) => x.type === 'condition.saveRolled') : undefined;
    return (e!['roll'] as { bonus: number }).bonus;
  }

  it('an NPC rallies without escalation by default (NPCs use the escalation die only with the setting on)', () => {
    expect(orcRallyBonus(false)).toBe(0);
  });

  it('with NPC escalation on, the NPC rally save adds the escalation die (2 in the third round)', () => {
    expect(orcRallyBonus(true)).toBe(2);
  });

  it('a PC rally save adds the escalation die (2 in the third round)', () => {
    const s = fight([]);
    s.run(cmd({ type: 'condition.apply', target: 'ann', condition: 'ongoing', duration: { kind: 'saveEnds' }, params: { amount: 3 } }));
    turnTo(s, 'ann', 3);
    const inst = Object.values(getEncounter(s.world).conditions).find((c) => c.defId === 'ongoing')!.id;
    const tx = s.run(cmd({ type: '36th-way.rally', who: 'ann', against: inst }));
    const e = tx.kind === 'command' ? tx.events.find((x) => x.type === 'condition.saveRolled') : undefined;
    expect((e!['roll'] as { bonus: number }).bonus).toBe(2);
  });
});
