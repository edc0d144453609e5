// 002 "Conditions and Effects": the fifteen conditions as kernel condition
// definitions. Effects are numbers keyed by resolution code; different
// conditions add up, the same one twice counts once (Weakened + Dazed = 2
// Disadvantage on attacks). Effects the kernel cannot express as a number
// (Grabbed's grabber, Confused's self-damage, Invisible's save, Hampered's
// ability limits) carry a flag code that the ruleset's commands read.
import type { ConditionDef } from '@tablekeeper/engine';

export const TSW_CONDITIONS: readonly ConditionDef[] = [
  { id: 'confused', name: 'Confused', stacking: 'refresh', effects: { confused: 1 } },
  { id: 'dazed', name: 'Dazed', stacking: 'refresh', effects: { 'attack.advantage': -1 } },
  { id: 'enervated', name: 'Enervated', stacking: 'refresh', effects: { 'save.advantage': -1 } },
  { id: 'flying', name: 'Flying', stacking: 'refresh', effects: { flying: 1 } },
  // One instance per grabber (source): the grabber gains 1 Advantage against you, you have 1 Disadvantage to disengage from it.
  { id: 'grabbed', name: 'Grabbed', stacking: 'separate', effects: { grabbed: 1 } },
  { id: 'hampered', name: 'Hampered', stacking: 'refresh', effects: { hampered: 1 } },
  // Helpless includes Stunned; the ruleset counts Stunned's effects once when both are present.
  { id: 'helpless', name: 'Helpless', stacking: 'refresh', effects: { helpless: 1 }, blocksPools: ['move'] },
  { id: 'invisible', name: 'Invisible', stacking: 'refresh', effects: { invisible: 1, 'sneak.advantage': 2 } },
  // params: { amount, type }, both shown to players; separate instances (two sources burn twice).
  { id: 'ongoing', name: 'Ongoing Damage', stacking: 'separate', effects: {}, ongoing: true, params: { amount: 'number', type: 'string' } },
  { id: 'shaken', name: 'Shaken', stacking: 'refresh', effects: { 'attack.advantage': -1 }, zeroesEscalation: true },
  { id: 'softened', name: 'Softened', stacking: 'refresh', effects: { 'against.attack.advantage': 1 } },
  { id: 'stuck', name: 'Stuck', stacking: 'refresh', effects: { stuck: 1 } },
  { id: 'stunned', name: 'Stunned', stacking: 'refresh', effects: { 'attack.advantage': -1, 'against.attack.advantage': 1 }, blocksPools: ['move'] },
  { id: 'vulnerable', name: 'Vulnerable', stacking: 'refresh', effects: { 'against.crit.range': 1 } },
  { id: 'weakened', name: 'Weakened', stacking: 'refresh', effects: { 'attack.advantage': -1, 'against.attack.advantage': 1 } },
  // 002 "Fight in Spirit": the boons an out-of-the-fight character grants an ally for a round.
  { id: 'spirit-attack', name: 'Spirit: Advantage on attacks', stacking: 'refresh', effects: { 'attack.advantage': 1 } },
  { id: 'spirit-save', name: 'Spirit: Advantage on saves', stacking: 'refresh', effects: { 'save.advantage': 1 } },
  { id: 'spirit-defense', name: 'Spirit: Disadvantage against attacks', stacking: 'refresh', effects: { 'against.attack.advantage': -1 } },
];

/** The fifteen conditions named in the text (the spirit boons are ours). */
export const TEXT_CONDITION_IDS = [
  'confused',
  'dazed',
  'enervated',
  'flying',
  'grabbed',
  'hampered',
  'helpless',
  'invisible',
  'ongoing',
  'shaken',
  'softened',
  'stuck',
  'stunned',
  'vulnerable',
  'weakened',
] as const;
