// Named settings of the Kleptonomicon ruleset: every place where the excerpt
// is silent or leaves the table a choice.
import { asJson } from '@tablekeeper/engine/events';
import type { Json, World } from '@tablekeeper/engine';
import type { SettingDef } from '../ruleset.js';
import { DEFAULT_SIXTH_DISTANCE, type Distance } from './distances.js';
import { DEFAULT_FAIL_AT_OR_BELOW } from './roll.js';

export const K = {
  failAtOrBelow: 'kleptonomicon.failAtOrBelow',
  freeActionsPerTurn: 'kleptonomicon.freeActionsPerTurn',
  dashCostsBeat: 'kleptonomicon.dashCostsBeat',
  xpPerLevel: 'kleptonomicon.xpPerLevel',
  halveResets: 'kleptonomicon.halveResets',
  sixthDistance: 'kleptonomicon.sixthDistance',
  defaultStyles: 'kleptonomicon.defaultMovementStyles',
  edgeSaveTies: 'kleptonomicon.edgeSaveTies',
  playersRollEdgeSaves: 'kleptonomicon.playersRollEdgeSaves',
  rerollEachRound: 'kleptonomicon.rerollEachRound',
} as const;

export const KLEPTO_SETTINGS: readonly SettingDef[] = [
  {
    key: K.failAtOrBelow,
    default: DEFAULT_FAIL_AT_OR_BELOW,
    range: [0, 10],
    description: 'A Test (Edge Saves, the second Dash\'s Athletics Test) fails at or below this Score.',
    source: '004 "Turn Order" (an Edge Save fails on 6 or lower); rules README',
  },
  {
    key: K.freeActionsPerTurn,
    default: 2,
    range: [2, 10],
    description: 'Improvised free actions a combatant may take on a turn before the GM must allow more.',
    source: '004 "Improvised Free Actions" (at least two)',
  },
  {
    key: K.dashCostsBeat,
    default: true,
    description: 'Whether using the Dash Ability spends a Beat (the excerpt omits its time symbol).',
    source: '004 "The Dash Ability"; our reading: an Ability used on your turn',
  },
  {
    key: K.xpPerLevel,
    default: null,
    allowed: [null],
    range: [1, 100],
    choiceWords: { null: 'the GM announces level-ups' },
    description: 'Experience Points needed for a level; null = the GM announces level-ups (the excerpt gives no number).',
    source: '004 "Reward Phase"',
  },
  {
    key: K.halveResets,
    default: false,
    description: 'Closing Credits restore only half of what was lost (for Episodes close together).',
    source: '004 "Closing Credits"',
  },
  {
    key: K.sixthDistance,
    default: asJson(DEFAULT_SIXTH_DISTANCE),
    shape: 'sixthDistance',
    description: 'The sixth distance, past the Shooting Distance: its key (what an ability\'s reach names), its name at the table, and its units or no limit. A move that goes past 16u is logged under its name.',
    source: 'rules README, 004 "Distance"',
  },
  {
    key: K.defaultStyles,
    default: [
      { style: 'walk', variant: 'normal' },
      { style: 'jump', variant: 'half' },
    ],
    shape: 'movementStyles',
    description: 'Movement styles of a sheet that lists none: what a new character moves with (by default a level 1 character: Walk 4u and Half Jump 2u).',
    source: '004 "Movement"',
  },
  {
    key: K.edgeSaveTies,
    default: 'choice',
    allowed: ['choice', 'score'],
    choiceWords: { choice: 'PCs in the same slot of the turn order choose who goes first', score: 'PCs in the same slot of the turn order go by Edge Save Score' },
    description: 'PCs who land in the same place of the turn order: "choice" = the players pick who goes first each time, "score" = the higher Edge Save Score goes first.',
    source: '004 "Turn Order" (ties by choice or by Score)',
  },
  {
    key: K.playersRollEdgeSaves,
    default: false,
    description: 'Each player rolls their own PC\'s Edge Saves when the encounter starts (a prompt in the Initiative Phase) instead of the engine rolling them all at once.',
    source: '004 "Turn Order"; a table preference',
  },
  {
    key: K.rerollEachRound,
    default: false,
    description: 'Every PC rolls its Edge Saves again at the start of each round, against the same NPC groups, and the turn order follows the new rolls (a builder choice per encounter overrides it).',
    source: '004 "Turn Order" and "Main Phase" (the order is rolled; the text does not forbid rolling it each round); a table preference, ADR 73',
  },
];

/** The Edge Save turn order's per-table choices, read when an encounter starts. */
export function edgeSaveChoices(settings: { readonly [key: string]: Json }): { ties?: 'choice' | 'score'; failAtOrBelow?: number; playersRoll?: boolean; rerollEachRound?: boolean } {
  const ties = settings[K.edgeSaveTies];
  const fail = settings[K.failAtOrBelow];
  const own = settings[K.playersRollEdgeSaves];
  const again = settings[K.rerollEachRound];
  return {
    ...(typeof again === 'boolean' ? { rerollEachRound: again } : {}),
    ...(ties === 'choice' || ties === 'score' ? { ties } : {}),
    ...(typeof fail === 'number' ? { failAtOrBelow: fail } : {}),
    ...(typeof own === 'boolean' ? { playersRoll: own } : {}),
  };
}

export function setting(world: World, key: string): Json {
  const v = world.settings[key];
  if (v !== undefined) return v;
  return KLEPTO_SETTINGS.find((s) => s.key === key)?.default ?? null;
}

export function numberSetting(world: World, key: string): number | null {
  const v = setting(world, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function sixthDistance(world: World): Distance {
  const v = setting(world, K.sixthDistance);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['id'] === 'string' && typeof v['name'] === 'string') {
    const u = v['units'];
    return { id: v['id'], name: v['name'], units: typeof u === 'number' ? u : null };
  }
  return DEFAULT_SIXTH_DISTANCE;
}
