// The Kleptonomicon ruleset (004); public API.
import { encounterModule, kleptonomiconEncounter, type EdgeSaveRoller, type Rng } from '@tablekeeper/engine';
import { defineRuleset } from '../ruleset.js';

/** One "d10ish" die (rules README, 004): a 10 flips a coin, reading 10 if called right, else 0. */
const d10ish = (rng: Rng): number => {
  const d = rng.die(10);
  return d < 10 ? d : rng.die(2) === 1 ? 10 : 0;
};

/** A Test: 1d10ish + modifier; net advantage (capped at 3) adds dice, keeping the highest (or lowest). */
const kleptoTest: EdgeSaveRoller = (rng, { modifier, advantage }) => {
  const net = Math.max(-3, Math.min(3, Math.trunc(advantage)));
  const dice = Array.from({ length: 1 + Math.abs(net) }, () => d10ish(rng));
  const kept = net >= 0 ? Math.max(...dice) : Math.min(...dice);
  return { score: kept + modifier, dice, modifier };
};

export const ruleset = defineRuleset({
  id: 'kleptonomicon',
  name: 'The Kleptonomicon',
  modules: [encounterModule({ ...kleptonomiconEncounter({ roll: kleptoTest }), conditions: [] })],
  settings: [],
});
