// kleptonomicon.testOdds: the exact chance a Test passes (Score above the table's
// fail mark) for a modifier and net advantage, as kleptonomicon.test would roll it.
import { defineQuery, type Query } from '@tablekeeper/engine';
import { testOddsDeclaration } from './declarations.js';
import { DEFAULT_FAIL_AT_OR_BELOW, passChance } from './roll.js';
import { K, numberSetting } from './settings.js';

// The declaration bounds the args (modifier -50..50, advantage -10..10, defense 0..100); both default to 0.
const testOdds: Query = defineQuery(testOddsDeclaration, (world, { modifier = 0, advantage = 0, defense }) => {
  // Against a defense (an improvised maneuver) the Score must reach it: it fails at one below.
  const failAtOrBelow = defense !== undefined ? defense - 1 : (numberSetting(world, K.failAtOrBelow) ?? DEFAULT_FAIL_AT_OR_BELOW);
  return { ok: true, value: { pass: passChance({ modifier, advantage }, failAtOrBelow), failAtOrBelow } };
});

export const kleptoQueries: { readonly [name: string]: Query } = { 'kleptonomicon.testOdds': testOdds };
