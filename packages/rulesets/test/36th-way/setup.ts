// Test helpers: a table running the 36th-way ruleset through the real engine,
// with dice the test scripts face by face (an unexpected roll fails loudly).
import { foesModule, scenario, type Json, type Rng, type Scenario, type World } from '@tablekeeper/engine';
import { expect } from 'vitest';
import { ruleset, tsw } from '../../src/36th-way/index.js';
import { getTsw, type Sheet } from '../../src/36th-way/state.js';

export interface ScriptedRng extends Rng {
  push(...faces: number[]): void;
  readonly left: number;
}

export function scriptedRng(): ScriptedRng {
  const queue: number[] = [];
  return {
    kind: 'seeded',
    die(sides) {
      const f = queue.shift();
      if (f === undefined) throw new Error(`unscripted d${sides} roll`);
      if (f < 1 || f > sides) throw new Error(`scripted face ${f} is not on a d${sides}`);
      return f;
    },
    snapshot: () => null,
    push: (...faces) => void queue.push(...faces),
    get left() {
      return queue.length;
    },
  };
}

export interface T {
  readonly s: Scenario;
  readonly dice: ScriptedRng;
  sheet(id: string): Sheet;
  readonly world: World;
}

export function table(settings: { readonly [k: string]: Json } = {}): T {
  const dice = scriptedRng();
  // With the table's foe-stats choice (ADR 33), as every table's engine has it.
  const s = scenario([...ruleset.modules, foesModule], { rng: dice, rulesetId: '36th-way', settings });
  return {
    s,
    dice,
    sheet: (id) => getTsw(s.world).sheets[id]!,
    get world() {
      return s.world;
    },
  };
}

export const ANN = { id: 'ann', name: 'Ann', kind: 'pc', level: 1, volition: 3, ac: 15, pd: 12, md: 11, maxHp: 30, recoveryDice: { count: 1, sides: 8 }, recoveryBonus: 3 };
export const ORC = { id: 'orc', name: 'Orc', kind: 'npc', level: 2, volition: 2, ac: 14, pd: 13, md: 10, maxHp: 20 };

/** Ann (PC, Fast) and an Orc (NPC, Medium), engaged; Ann's turn. */
export function fight(settings: { readonly [k: string]: Json } = {}, extra: { ann?: object; orc?: object } = {}): T {
  const t = table(settings);
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ANN, ...extra.ann } as unknown as Json });
  t.s.run({ type: '36th-way.sheet.set', sheet: { ...ORC, ...extra.orc } as unknown as Json });
  t.s.run({
    type: 'encounter.start',
    combatants: [
      { id: 'ann', name: 'Ann', kind: 'pc', side: 'party', band: 'fast' },
      { id: 'orc', name: 'Orc', kind: 'npc', side: 'foes', band: 'medium' },
    ],
  });
  t.s.run({ type: '36th-way.position', a: 'ann', b: 'orc', range: 'engaged' });
  return t;
}

export function events(tx: { readonly kind: string }, type?: string): { readonly [k: string]: Json | undefined }[] {
  const evs = (tx as unknown as { events: { type: string }[] }).events as unknown as { readonly [k: string]: Json | undefined; type: string }[];
  return type === undefined ? evs : evs.filter((e) => e.type === type);
}

/** Replaying every transaction from genesis rebuilds the live world exactly. */
export function expectReplayEqualsLive(t: T): void {
  const replayed = t.s.engine.replay(t.s.table.genesis, t.s.table.transactions);
  expect(replayed.world).toEqual(t.s.table.world);
}

export { tsw };
