// `daggerheart.rollOdds`: the exact chance of each duality outcome of an open
// roll request, and what each outcome would do to the countdowns the asker
// can see, before anyone rolls. The engine answers it on the asker's own
// projection, so a player asking about a hidden difficulty gets only the odds
// that do not depend on it (critical, with Hope, with Fear).
import { defineQuery, seesFoeDefence, DUALITY_OUTCOMES, dualityOutcomeDistribution, err, fromJson, ok, own, ticksFor, type Countdown, type DualityOutcome, type Json, type Query } from '@tablekeeper/engine';
import { actionRollOddsDeclaration, rollOddsDeclaration } from './declarations.js';
import { DIFFICULTY_FREE_ODDS, keptHighestDice, keptHighestOdds } from './rules.js';
import { MAX_MODIFIER } from './limits.js';
import { daggerheartSettings } from './settings.js';
import { getDaggerheart, hopeOf, requestsOf } from './state.js';

const round = (p: number): number => Math.round(p * 1e12) / 1e12;

export const rollOddsQuery: Query = defineQuery(rollOddsDeclaration, (world, args) => {
  const req = own(requestsOf(world), args.requestId);
  if (req === undefined) return err('NOT_FOUND', `no open roll request ${JSON.stringify(args.requestId).slice(0, 40)}`, 'requestId');
  const useExperience = args.useExperience ?? false;
  const set = daggerheartSettings(world);
  const helpers = getDaggerheart(world).help[req.characterId] ?? [];
  const sources = req.advantage + helpers.length;
  const kept = keptHighestDice(sources, helpers.length, set);
  const advantage = kept > 0 ? 1 : set.advantageDiceStack ? sources : Math.sign(sources);
  const modifier = req.modifier + (useExperience && req.experience !== null ? req.experience.bonus : 0);
  const base = { requestId: req.id, modifier, advantage, keptHighest: kept, helpers: [...helpers], hope: hopeOf(world, req.characterId), experienceCost: set.experienceCost };
  // The asker's view has no difficulty: the outcome odds would tell it, so only the dice-only odds are given.
  // Awaiting: the player asked and the GM has not set the difficulty yet.
  if (req.difficulty === null) return ok({ ...base, hidden: true, awaiting: req.awaiting === true, critical: round(DIFFICULTY_FREE_ODDS.critical), withHope: round(DIFFICULTY_FREE_ODDS.withHope), withFear: round(DIFFICULTY_FREE_ODDS.withFear) });
  // Help on advantage: the highest of the d6s counts (ADR 50), so the odds are those of the kept die.
  const dist = kept > 0 ? keptHighestOdds(modifier, req.difficulty, kept) : dualityOutcomeDistribution({ modifier, difficulty: req.difficulty, advantage });
  const outcomes = Object.fromEntries(DUALITY_OUTCOMES.map((o) => [o, round(dist[o])])) as Record<DualityOutcome, number>;
  const success = round(outcomes.critical + outcomes.successWithHope + outcomes.successWithFear);
  // What each outcome does to every countdown the asker may read (a redacted one has no kind and is skipped).
  const raw = fromJson<{ order: string[]; countdowns: { [id: string]: Countdown | { redacted: true } } }>(world.ext['countdowns'] ?? { order: [], countdowns: {} });
  const countdowns: Json[] = [];
  for (const cid of raw.order ?? []) {
    const cd = raw.countdowns[cid];
    if (cd === undefined || 'redacted' in cd || cd.status !== 'active') continue;
    if (cd.kind !== 'standard' && cd.kind !== 'progress' && cd.kind !== 'consequence') continue;
    countdowns.push({ id: cd.id, name: cd.name, kind: cd.kind, value: cd.value, ticks: Object.fromEntries(DUALITY_OUTCOMES.map((o) => [o, Math.min(cd.value, ticksFor(cd.kind, o))])) });
  }
  return ok({ ...base, hidden: false, difficulty: req.difficulty, outcomes, success, countdowns });
});

/**
 * `daggerheart.actionRollOdds`: an action roll before it is made (modifier, difficulty, advantage as
 * daggerheart.actionRoll takes them, and the help offered to the PC, which that roll spends). Against an
 * adversary the difficulty is its Difficulty as the asker's own view holds it: a phone at a table that keeps
 * foes' defences has none, and gets the chances that need no difficulty (ADR 79).
 */
export const actionRollOddsQuery: Query = defineQuery(actionRollOddsDeclaration, (world, args, viewer) => {
  const set = daggerheartSettings(world);
  const pc = args.characterId === undefined ? undefined : own(world.characters, args.characterId);
  const helpers = pc === undefined ? 0 : (getDaggerheart(world).help[pc.id] ?? []).length;
  const sources = (args.advantage ?? 0) + helpers;
  const kept = keptHighestDice(sources, helpers, set);
  const advantage = kept > 0 ? 1 : set.advantageDiceStack ? sources : Math.sign(sources);
  // A trait named with the PC adds its value on the sheet, as daggerheart.actionRoll adds it.
  const trait = args.trait !== undefined && pc !== undefined ? own(pc.stats, args.trait) : undefined;
  const fromTrait = typeof trait === 'number' && Number.isInteger(trait) ? trait : 0;
  const modifier = Math.max(-MAX_MODIFIER, Math.min(MAX_MODIFIER, fromTrait + (args.bonus ?? 0)));
  let difficulty = args.difficulty;
  if (args.targetId !== undefined) {
    if (difficulty !== undefined) return err('INVALID_VALUE', "difficulty: a roll against an adversary uses its own Difficulty; leave the difficulty out", 'difficulty');
    const foe = own(world.characters, args.targetId);
    if (foe === undefined) return err('NOT_FOUND', `targetId: no character ${JSON.stringify(args.targetId).slice(0, 40)}`, 'targetId');
    const d = foe.stats['difficulty'];
    if (typeof d !== 'number' || !Number.isInteger(d)) {
      // This view holds no Difficulty: a stat block without one (the GM's view), or a defence kept from players.
      if (viewer.role === 'gm' || (foe.visibility === 'visible' && seesFoeDefence(world, viewer))) return err('DH_NO_DIFFICULTY', `${foe.name}'s stat block has no Difficulty to roll against`, 'targetId');
      return ok({ hidden: true, advantage, critical: round(DIFFICULTY_FREE_ODDS.critical), withHope: round(DIFFICULTY_FREE_ODDS.withHope), withFear: round(DIFFICULTY_FREE_ODDS.withFear), why: `the GM keeps ${foe.name}'s Difficulty secret` });
    }
    difficulty = d;
  }
  if (difficulty === undefined) return err('INVALID_VALUE', 'difficulty: give a difficulty, or an adversary (targetId) to roll against', 'difficulty');
  const dist = kept > 0 ? keptHighestOdds(modifier, difficulty, kept) : dualityOutcomeDistribution({ modifier, difficulty, advantage });
  const outcomes = Object.fromEntries(DUALITY_OUTCOMES.map((o) => [o, round(dist[o])])) as Record<DualityOutcome, number>;
  return ok({ outcomes, success: round(outcomes.critical + outcomes.successWithHope + outcomes.successWithFear), advantage, difficulty });
});
