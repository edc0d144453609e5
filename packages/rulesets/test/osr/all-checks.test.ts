// 001's "all checks" rules, command by command: an overloaded PC (load above
// STR), an exhausted PC and an injured PC (injury table 14-19) each have
// disadvantage on every check the ruleset rolls for them. The list of check
// commands is checked against the module's own command list, so a new command
// that rolls a check must be added here (or excluded with the reason).
import { describe, expect, it } from 'vitest';
import type { Json, Transaction } from '@tablekeeper/engine';
import { osrModule } from '../../src/osr/module.js';
import { osrTable, type OsrTable } from './helpers.js';

const HOUR = 3600;

interface Roll {
  readonly dice: readonly number[];
  readonly advantage: number;
}
interface Rolled {
  readonly roll: Roll;
  readonly reasons: readonly string[];
}

type Runner = (t: OsrTable, pc: string) => Rolled[];

/** The check rolls a transaction made for `pc`, with their reasons (each event names its roller its own way). */
function rollsFor(tx: Transaction, pc: string, roller: (e: { [k: string]: Json | undefined }) => unknown): Rolled[] {
  if (tx.kind !== 'command') return [];
  return tx.events.filter((e) => e['roll'] !== undefined && roller(e) === pc).map((e) => ({ roll: e['roll'] as unknown as Roll, reasons: (e['reasons'] ?? []) as string[] }));
}
const byCharacter = (e: { [k: string]: Json | undefined }): unknown => e['characterId'];

function npc(t: OsrTable): string {
  return t.add('Orc', { dex: 5, maxHp: 30, ac: 10 }, 'npc');
}

/** Every command that rolls a check for a PC, with how to make it roll one. */
const CHECKS: { readonly [command: string]: Runner } = {
  'osr.check': (t, pc) => rollsFor(t.run({ type: 'osr.check', character: pc, dc: 12 }), pc, byCharacter),
  'osr.attack': (t, pc) => rollsFor(t.run({ type: 'osr.attack', attacker: pc, target: npc(t) }), pc, (e) => e['attackerId']),
  'osr.hide': (t, pc) => rollsFor(t.run({ type: 'osr.hide', character: pc }), pc, byCharacter),
  'osr.morale': (t, pc) => rollsFor(t.run({ type: 'osr.morale', characters: [pc] }), pc, byCharacter),
  'osr.chase': (t, pc) => rollsFor(t.run({ type: 'osr.chase', characters: [pc] }), pc, byCharacter),
  'osr.rollToReturn': (t, pc) => rollsFor(t.run({ type: 'osr.rollToReturn', characters: [pc], modifiers: { [pc]: 30 } }), pc, byCharacter),
  'osr.resilience': (t, pc) => {
    t.run({ type: 'clock.advance', unit: 'time', seconds: 12 * HOUR });
    return rollsFor(t.run({ type: 'osr.resilience', character: pc }), pc, byCharacter);
  },
  // Exposure, then the check at the end of the corruption's first stage (a reaction on the clock).
  'osr.expose': (t, pc) => {
    const first = rollsFor(t.run({ type: 'osr.expose', character: pc, dc: 40, stages: [{ hours: 1, ability: null }] }), pc, byCharacter);
    const stage = t.run({ type: 'clock.advance', unit: 'time', seconds: HOUR });
    const stageRolls = stage.kind === 'command' ? stage.events.filter((e) => e.type === 'osr.stageEnded').map((e) => ({ roll: e['roll'] as unknown as Roll, reasons: (e['reasons'] ?? []) as string[] })) : [];
    expect(stageRolls).toHaveLength(1);
    return [...first, ...stageRolls];
  },
  'osr.retreat': (t, pc) => {
    const orc = npc(t);
    t.run({ type: 'encounter.start', combatants: [{ id: 'me', kind: 'pc', characterId: pc, score: 20 }, { id: 'orc', kind: 'npc', characterId: orc }] });
    return rollsFor(t.run({ type: 'osr.retreat', combatant: 'me', dc: 12 }), pc, byCharacter);
  },
  // The PC stabilizes a dying ally with a check.
  'osr.stabilize': (t, pc) => {
    const friend = t.add('Friend', { maxHp: 4 });
    t.run({ type: 'osr.damage', target: friend, amount: 10 });
    return rollsFor(t.run({ type: 'osr.stabilize', target: friend, by: pc }), pc, byCharacter);
  },
};

/** Every other command, and why it rolls no check for a PC. */
const NO_CHECK: { readonly [command: string]: string } = {
  'osr.setSheet': 'edits numbers',
  'osr.damage': 'damage dice, not a check',
  'osr.heal': 'healing dice (stabilizing by healing rolls the injury table, a table not a check)',
  'osr.rest': 'no roll',
  'osr.reveal': 'no roll',
  'osr.move': 'no roll',
  'osr.quick': 'no roll: a quick action says what it is and spends the action',
  'osr.treat': 'no roll',
  'osr.noteBodyPart': 'no roll',
  'osr.restoreAbility': 'no roll',
  'osr.travelTurn': "the GM's d20 on the travel turn table, not a PC's check",
  'osr.scene': "counts scenes; its travel turn is the GM's table roll",
  'osr.reachSafety': 'no roll',
  'osr.setLight': 'no roll',
  'osr.lightSource': 'no roll',
  'osr.douse': 'no roll',
  'osr.relight': 'no roll',
  'osr.rollTime': "the GM's time dice",
  'osr.travel': "miles by formula; its travel turns are the GM's table rolls",
  'osr.strain': 'no roll',
  'osr.exhaust': 'no roll',
  'osr.cure': 'no roll',
  'osr.escape': 'no roll',
  'osr.treasure': 'no roll',
  'osr.magicItem': 'no roll',
  'osr.loot': 'gold dice, not a check',
  'osr.setLoad': 'no roll',
  'osr.convertCoins': 'no roll (changes coins in a purse)',
};

/** The ruleset's global sources of disadvantage on all checks, each set up on a fresh PC. */
const SOURCES: { readonly [name: string]: { readonly reason: string; readonly make: (t: OsrTable) => string } } = {
  'load above STR (001 "Movement Actions": disadvantage on all checks)': {
    reason: 'carrying more load than STR',
    make: (t) => t.add('Laden', { str: 10, load: 11, con: 10, maxHp: 30 }),
  },
  'exhaustion (001 "Exhaustion": disadvantage on all checks)': {
    reason: 'exhausted',
    make: (t) => {
      const pc = t.add('Spent', { con: 10, maxHp: 30 });
      t.run({ type: 'osr.exhaust', character: pc });
      return pc;
    },
  },
  'an injury of 14-19 (001 "Injury Table": disadvantage on all checks until rest)': {
    reason: 'injured: disadvantage until rest',
    make: (t) => {
      const pc = t.add('Hurt', { con: 10, maxHp: 30 });
      t.run({ type: 'osr.damage', target: pc, amount: 100 });
      t.dice.queue(15);
      t.run({ type: 'osr.stabilize', target: pc, method: 'spell' });
      expect(t.osr.shaken).toEqual([pc]);
      return pc;
    },
  },
};

describe('001: every command that rolls a check for a PC is listed (or excluded with its reason)', () => {
  it('the lists cover the module\'s commands exactly', () => {
    const listed = [...Object.keys(CHECKS), ...Object.keys(NO_CHECK)].sort();
    expect(listed).toEqual(Object.keys(osrModule.commands ?? {}).sort());
    for (const k of Object.keys(CHECKS)) expect(NO_CHECK[k]).toBeUndefined();
  });
});

describe('001: the global sources of disadvantage reach every check', () => {
  for (const [source, { reason, make }] of Object.entries(SOURCES)) {
    describe(source, () => {
      for (const [command, run] of Object.entries(CHECKS)) {
        it(`${command} rolls two d20 and keeps the lower, saying why`, () => {
          // An exhausted PC cannot fight at all (001 "Exhaustion"); the attack's own refusal covers that case.
          const t = osrTable(command === 'osr.attack' && reason === 'exhausted' ? { 'osr.exhaustedCannotFight': false } : {});
          const pc = make(t);
          const rolled = run(t, pc);
          expect(rolled.length).toBeGreaterThan(0);
          for (const r of rolled) {
            expect(r.roll.dice).toHaveLength(2);
            expect(r.roll.advantage).toBe(-1);
            expect(r.reasons).toContain(reason);
          }
        });
      }
    });
  }

  it('an exhausted PC cannot attack at all (001 "Exhaustion": no combat), by default', () => {
    const t = osrTable();
    const pc = SOURCES['exhaustion (001 "Exhaustion": disadvantage on all checks)']!.make(t);
    expect(t.s.fail({ type: 'osr.attack', attacker: pc, target: npc(t) }).code).toBe('EXHAUSTED');
  });

  it('a PC with none of them rolls every check on one d20 (the control)', () => {
    for (const [command, run] of Object.entries(CHECKS)) {
      const t = osrTable();
      const pc = t.add('Fresh', { str: 10, load: 10, con: 10, maxHp: 30 });
      const rolled = run(t, pc);
      expect(rolled.length, command).toBeGreaterThan(0);
      for (const r of rolled) expect(r.roll.dice, command).toHaveLength(1);
    }
  });

  it('a GM-granted advantage cancels the load\'s disadvantage where the command takes one (setting advantageCombine: cancel)', () => {
    const takesAdvantage = ['osr.check', 'osr.attack', 'osr.hide', 'osr.morale', 'osr.chase', 'osr.retreat', 'osr.stabilize'];
    for (const command of takesAdvantage) {
      const t = osrTable();
      const pc = SOURCES['load above STR (001 "Movement Actions": disadvantage on all checks)']!.make(t);
      const base = CHECKS[command]!;
      const withAdvantage: Runner = (tt, id) => {
        const orig = tt.run;
        (tt as { run: OsrTable['run'] }).run = (c) => orig(c.type === command ? { ...c, advantage: 1 } : c);
        try {
          return base(tt, id);
        } finally {
          (tt as { run: OsrTable['run'] }).run = orig;
        }
      };
      for (const r of withAdvantage(t, pc)) {
        expect(r.roll.advantage, command).toBe(0);
        expect(r.reasons, command).toContain('carrying more load than STR');
      }
    }
  });
});
