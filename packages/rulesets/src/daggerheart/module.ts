// The Daggerheart module: action rolls with the duality dice (rules README
// "Daggerheart action roll (000)"), Hope for the rolling PC on a roll with Hope,
// Fear for the GM on a roll with Fear, spending Hope (Help an Ally) and Fear,
// and the GM's roll requests a player answers from their phone (issue 21).
// Each action roll ends with the engine-level `actionRoll.resolved {outcome}`,
// which the countdowns module ticks standard, dynamic and chase countdowns on
// (000 "Standard Countdown": the trigger comes after the roll resolves).
// Trackers, adversaries and rests are in trackers.ts; the spotlight in spotlight.ts.
import {
  foeBasis,
  getEncounter,
  AUDIENCE_GM,
  appendLog,
  claimId,
  clockAdvanced,
  err,
  handlerOf,
  mintId,
  ok,
  reducersOf,
  rollDuality,
  asJson,
  audiencesOf,
  memberOf,
  stored,
  type ActionRollResolved,
  type Character,
  type CommandHandler,
  type DualityOutcome,
  type DualityRoll,
  type EngineEvent,
  type Env,
  type Evolve,
  type Module,
  type Reaction,
  type Reducer,
  type Result,
  type Viewer,
  type World, own } from '@tablekeeper/engine';
import * as D from './declarations.js';
import { againstLabel, againstOf } from './against.js';
import type { RollEvent, SpotlightEvent } from './events.js';
import { MAX_MODIFIER, MAX_REQUESTS } from './limits.js';
import { rollOddsQuery } from './queries.js';
import { daggerheartSettings } from './settings.js';
import {
  DAGGERHEART_ID,
  FORBIDDEN,
  characterAudience,
  controls,
  fearAudience,
  getDaggerheart,
  hopeOf,
  nameOf,
  pcOf,
  requestsOf,
  setDaggerheart,
  withStats,
  type PendingHit,
  type RollRequest,
} from './state.js';
import { spotlightCommands, spotlightReducers, SPOTLIGHT_AUDIENCE } from './spotlight.js';
import { daggerheartKit } from './encounter.js';
import { ADVERSARY_ATTACK_AUDIENCE, ADVERSARY_ATTACK_EVENT_VIEW, adversaryAttackCommands, adversaryAttackReducers } from './adversary-attack.js';
import { TRACKER_AUDIENCE, TRACKER_EVENT_VIEW, trackerCommands, trackerReducers, type TrackerEvent } from './trackers.js';
import { keptHighestDice, trackOf } from './rules.js';
import { HIT_CHOICE_AUDIENCE, hitChoiceCommands, hitChoiceQuery, hitChoiceReducers, settleHitsAtEnd } from './hit-choice.js';

export { DAGGERHEART_ID, getDaggerheart, hopeOf, type DaggerheartState } from './state.js';

// The limits live in limits.ts (declarations.ts reads them without importing this module).
export { MAX_MODIFIER, MAX_DIFFICULTY, MAX_ADVANTAGE_SOURCES, MAX_SPEND, MAX_REQUESTS, MAX_EXPERIENCE_BONUS, TRAITS } from './limits.js';

const OUTCOME_WORDS: Record<DualityOutcome, string> = {
  critical: 'a critical success',
  successWithHope: 'a success with Hope',
  successWithFear: 'a success with Fear',
  failureWithHope: 'a failure with Hope',
  failureWithFear: 'a failure with Fear',
};

// ---------------------------------------------------------------- the action roll

interface RollInput {
  readonly character: Character | null;
  readonly modifier: number;
  readonly difficulty: number;
  readonly advantage: number;
  readonly reaction: boolean;
  readonly label: string;
  /** The trait rolled ('' for none): with one, the line reads "Kira's Finesse roll (cut the rope bridge)". */
  readonly trait: string;
  /** The difficulty stays with the GM: the roll's full record is GM-only, players get it without the difficulty. */
  readonly hidden: boolean;
  readonly requestId: string | null;
  /** The adversary rolled against, and the label players read of the roll when it differs (a foe they do not see by name). */
  readonly targetId?: string;
  readonly shownLabel?: string;
}

/**
 * Every event of one action roll, in order: the roll, what players may see of
 * it, Hope or a cleared Stress for the roller, Fear for the GM, the clock, and
 * `actionRoll.resolved` (on which every linked countdown ticks, as reactions in
 * the same transaction, so one undo takes all of it back).
 */
function actionRollEvents(world: World, env: Env, input: RollInput): EngineEvent[] {
  const set = daggerheartSettings(world);
  const { character, reaction } = input;
  // Help an Ally is for action rolls; a reaction roll leaves the offer waiting.
  const helpers = character !== null && !reaction ? [...(getDaggerheart(world).help[character.id] ?? [])] : [];
  const sources = input.advantage + helpers.length;
  const kept = keptHighestDice(sources, helpers.length, set);
  const dice = kept > 0 ? 0 : set.advantageDiceStack ? sources : Math.sign(sources);
  let roll: DualityRoll = rollDuality(env.rng, { modifier: input.modifier, difficulty: input.difficulty, advantage: dice });
  if (kept > 0) {
    // Help on a roll that has advantage already: each source throws a d6 and the highest counts (ADR 50), after the duality dice as ever.
    const faces = Array.from({ length: kept }, () => env.rng.die(6));
    const total = roll.total + Math.max(...faces);
    const success = roll.critical || total >= input.difficulty;
    const outcome: DualityOutcome = roll.critical ? 'critical' : success ? (roll.withHope ? 'successWithHope' : 'successWithFear') : roll.withHope ? 'failureWithHope' : 'failureWithFear';
    roll = { ...roll, advantageDice: faces, advantageSign: 1, total, success, outcome, ...{ keptHighest: true } };
  }
  const characterId = character?.id ?? null;
  const events: EngineEvent[] = [
    stored<RollEvent>({
      type: 'daggerheart.actionRolled',
      characterId,
      label: input.label,
      reaction,
      advantageSources: sources,
      helpers,
      roll,
      hidden: input.hidden,
      requestId: input.requestId,
      ...(input.trait === '' ? {} : { trait: input.trait }),
      ...(input.targetId === undefined ? {} : { targetId: input.targetId }),
      ...(input.shownLabel === undefined ? {} : { shownLabel: input.shownLabel }),
    }),
  ];
  if (input.hidden) {
    const { difficulty: _secret, ...shown } = roll;
    events.push(stored<RollEvent>({ type: 'daggerheart.actionRollShown', characterId, label: input.shownLabel ?? input.label, requestId: input.requestId, roll: shown }));
  }
  const feeds = !reaction || set.reactionRollsGiveHopeFear;
  if (feeds && character !== null && (roll.withHope || (roll.critical && set.criticalGivesHope))) {
    const from = hopeOf(world, character.id);
    const to = Math.min(set.hopeMax, from + 1);
    events.push({ type: 'daggerheart.hopeGained', characterId: character.id, amount: to - from, from, to, capped: to === from, reason: 'roll' } satisfies RollEvent);
  }
  if (feeds && character !== null && roll.critical && set.criticalClearsStress) {
    const stress = trackOf(character.stats, 'stress', set.stressSlots);
    if (stress.marked > 0) events.push({ type: 'daggerheart.trackMarked', characterId: character.id, track: 'stress', from: stress.marked, to: stress.marked - 1, reason: 'critical' } satisfies TrackerEvent);
  }
  if (feeds && roll.withFear) {
    const from = getDaggerheart(world).fear;
    const to = Math.min(set.fearMax, from + 1);
    events.push({ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to === from, reason: 'roll' } satisfies RollEvent);
  }
  if (!reaction && set.actionRollsAdvanceClock) events.push(clockAdvanced(world, 'actionRoll', 1, 0));
  if (!reaction || set.reactionRollsTickCountdowns) events.push({ type: 'actionRoll.resolved', outcome: roll.outcome, characterId, reaction } satisfies ActionRollResolved);
  // A roll with Fear swings the spotlight to the GM (GM-FLOW: "the spotlight passes"; ADR 50): the roller's turn ends.
  if (!reaction && roll.withFear && set.fearPassesSpotlight && character !== null) {
    const enc = getEncounter(world);
    const holder = enc.active && enc.current !== null ? own(enc.combatants, enc.current) : undefined;
    if (holder !== undefined && holder.characterId === character.id) {
      events.push({ type: 'daggerheart.spotlightToGm', combatantId: holder.id } satisfies SpotlightEvent, { type: 'encounter.turnEnded', id: holder.id, round: enc.round });
    }
  }
  return events;
}

// ---------------------------------------------------------------- commands

const commands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.actionRoll': handlerOf(D.actionRoll, {
    label: 'make an action roll',
    // The GM may roll for anyone (or for no one in particular); a player only for their own PC.
    authorize: (world, p, actor) => (actor.role === 'gm' || controls(world, actor, p.characterId) ? null : FORBIDDEN),
    decide(world, p, env) {
      const pc = p.characterId === undefined ? null : pcOf(world, p.characterId, 'characterId');
      if (pc !== null && !pc.ok) return pc;
      const fromTrait = p.trait === undefined || pc === null ? 0 : traitValue(pc.value, p.trait);
      const modifier = Math.max(-MAX_MODIFIER, Math.min(MAX_MODIFIER, fromTrait + (p.bonus ?? 0)));
      const trait = p.trait ?? '';
      const words = (p.label ?? '').trim();
      const base = { modifier, advantage: p.advantage ?? 0, reaction: p.reaction ?? false, trait, requestId: null, character: pc?.value ?? null };
      // Against an adversary the difficulty is its Difficulty (ADR 79), kept from players as the table keeps foes' defences.
      if (p.targetId !== undefined) {
        if (p.difficulty !== undefined) return err('INVALID_VALUE', "difficulty: a roll against an adversary uses its own Difficulty; leave the difficulty out", 'difficulty');
        const a = againstOf(world, p.targetId);
        if (!a.ok) return a;
        const { target, difficulty, secret, shownName } = a.value;
        const label = againstLabel(trait, target.name, words);
        const shown = againstLabel(trait, shownName, words);
        return ok(actionRollEvents(world, env, { ...base, difficulty, label, hidden: secret, targetId: target.id, ...(shown === label ? {} : { shownLabel: shown }) }));
      }
      if (p.difficulty === undefined) return err('INVALID_VALUE', 'difficulty: give a difficulty, or an adversary (targetId) to roll against', 'difficulty');
      const label = traitLabel(trait, words, p.reaction ?? false);
      return ok(actionRollEvents(world, env, { ...base, difficulty: p.difficulty, label, hidden: false }));
    },
  }),
  'daggerheart.requestRoll': handlerOf(D.requestRoll, {
    label: 'ask for an action roll',
    decide(world, p, env) {
      const pc = pcOf(world, p.characterId, 'characterId');
      if (!pc.ok) return pc;
      const trait = p.trait ?? '';
      let experience: RollRequest['experience'] = null;
      if (p.experience !== undefined) {
        const name = p.experience.trim();
        if (name === '') return err('INVALID_VALUE', 'experience needs a name', 'experience');
        experience = { name, bonus: p.experienceBonus ?? 2 };
      }
      if (Object.keys(requestsOf(world)).length >= MAX_REQUESTS) return err('LIMIT_EXCEEDED', `a table holds at most ${MAX_REQUESTS} open roll requests`);
      const modifier = Math.max(-MAX_MODIFIER, Math.min(MAX_MODIFIER, traitValue(pc.value, trait) + (p.bonus ?? 0)));
      const [id] = mintId(world, 'req', env.rng);
      const request: RollRequest = { id, characterId: pc.value.id, trait, modifier, difficulty: p.difficulty, hidden: p.hidden ?? false, advantage: p.advantage ?? 0, experience, label: (p.label ?? '').trim() };
      return ok([stored<RollEvent>({ type: 'daggerheart.rollRequested', request: { ...request, experience: request.experience === null ? null : { ...request.experience } } })]);
    },
  }),
  'daggerheart.askRoll': handlerOf(D.askRoll, {
    label: 'ask to make an action roll',
    authorize: (world, p, actor) => (controls(world, actor, p.characterId) ? null : FORBIDDEN),
    decide(world, p, env) {
      const pc = pcOf(world, p.characterId, 'characterId');
      if (!pc.ok) return pc;
      if (Object.keys(requestsOf(world)).length >= MAX_REQUESTS) return err('LIMIT_EXCEEDED', `a table holds at most ${MAX_REQUESTS} open roll requests`);
      const [id] = mintId(world, 'req', env.rng);
      // The trait's value is read when asked, as a GM's request reads it; the GM adds the rest with the difficulty.
      const request: RollRequest = { id, characterId: pc.value.id, trait: p.trait, modifier: traitValue(pc.value, p.trait), difficulty: null, hidden: false, advantage: 0, experience: null, label: (p.label ?? '').trim(), awaiting: true, asked: true };
      return ok([stored<RollEvent>({ type: 'daggerheart.rollAsked', request: { ...request } })]);
    },
  }),
  'daggerheart.setDifficulty': handlerOf(D.setDifficulty, {
    label: 'set the difficulty of a roll',
    decide(world, p) {
      const r = requestOf(world, p.requestId);
      if (!r.ok) return r;
      if (r.value.awaiting !== true) return err('DH_DIFFICULTY_SET', 'this roll already has its difficulty (withdraw it and ask again to change it)', 'requestId');
      let experience: RollRequest['experience'] = null;
      if (p.experience !== undefined) {
        const name = p.experience.trim();
        if (name === '') return err('INVALID_VALUE', 'experience needs a name', 'experience');
        experience = { name, bonus: p.experienceBonus ?? 2 };
      }
      const modifier = Math.max(-MAX_MODIFIER, Math.min(MAX_MODIFIER, r.value.modifier + (p.bonus ?? 0)));
      return ok([
        { type: 'daggerheart.difficultySet', requestId: r.value.id, characterId: r.value.characterId, difficulty: p.difficulty, hidden: p.hidden ?? false, advantage: p.advantage ?? 0, modifier, experience } satisfies RollEvent,
      ]);
    },
  }),
  'daggerheart.cancelRequest': handlerOf(D.cancelRequest, {
    label: 'withdraw a roll request',
    decide(world, p) {
      const r = requestOf(world, p.requestId);
      if (!r.ok) return r;
      return ok([{ type: 'daggerheart.requestCancelled', requestId: r.value.id, characterId: r.value.characterId } satisfies RollEvent]);
    },
  }),
  'daggerheart.rollRequest': handlerOf(D.rollRequest, {
    label: 'make the requested roll',
    // A roll cannot be taken back to roll again: only the GM may undo it.
    issuerMayRevert: false,
    authorize(world, p, actor) {
      const r = own(requestsOf(world), p.requestId);
      return actor.role === 'gm' || (r !== undefined && controls(world, actor, r.characterId)) ? null : FORBIDDEN;
    },
    decide(world, p, env) {
      const r = requestOf(world, p.requestId);
      if (!r.ok) return r;
      const req = r.value;
      if (req.awaiting === true) return err('DH_NO_DIFFICULTY', 'the GM has not set the difficulty of this roll yet', 'requestId');
      const character = own(world.characters, req.characterId);
      if (character === undefined) return err('NOT_FOUND', 'the character this roll was asked of has left', 'requestId');
      const events: EngineEvent[] = [];
      let modifier = req.modifier;
      let rollWorld = world;
      if (p.useExperience === true) {
        if (req.experience === null) return err('DH_NO_EXPERIENCE', 'the GM offered no Experience for this roll', 'useExperience');
        const cost = daggerheartSettings(world).experienceCost;
        const from = hopeOf(world, character.id);
        if (from < cost) return err('DH_NOT_ENOUGH_HOPE', `${character.name} has ${from} Hope; an Experience costs ${cost}`, 'useExperience');
        if (cost > 0) {
          const spent: EngineEvent = { type: 'daggerheart.hopeSpent', characterId: character.id, amount: cost, from, to: from - cost, reason: `Experience: ${req.experience.name}` } satisfies RollEvent;
          events.push(spent);
          // The roll's own Hope gain counts from the Hope left after paying.
          rollWorld = withStats(world, character.id, { hope: from - cost });
        }
        modifier += req.experience.bonus;
      }
      const label = traitLabel(req.trait, req.label, false);
      events.push(...actionRollEvents(rollWorld, env, { character, modifier, difficulty: req.difficulty ?? 0, advantage: req.advantage, reaction: false, label, trait: req.trait, hidden: req.hidden, requestId: req.id }));
      return ok(events);
    },
  }),
  'daggerheart.helpAlly': handlerOf(D.helpAlly, {
    label: 'help an ally',
    authorize: (world, p, actor) => (controls(world, actor, p.helperId) ? null : FORBIDDEN),
    decide(world, p) {
      const helper = pcOf(world, p.helperId, 'helperId');
      if (!helper.ok) return helper;
      const target = pcOf(world, p.targetId, 'targetId');
      if (!target.ok) return target;
      if (helper.value.id === target.value.id) return err('DH_HELP_SELF', 'a character cannot help their own roll', 'targetId');
      if ((own(getDaggerheart(world).help, target.value.id) ?? []).includes(helper.value.id)) return err('DH_ALREADY_HELPING', `${helper.value.name} is already helping ${target.value.name}`, 'helperId');
      const cost = daggerheartSettings(world).helpCost;
      const from = hopeOf(world, helper.value.id);
      if (from < cost) return err('DH_NOT_ENOUGH_HOPE', `${helper.value.name} has ${from} Hope; helping costs ${cost}`, 'helperId');
      return ok([
        { type: 'daggerheart.hopeSpent', characterId: helper.value.id, amount: cost, from, to: from - cost, reason: 'helpAlly' } satisfies RollEvent,
        { type: 'daggerheart.helpOffered', helperId: helper.value.id, targetId: target.value.id } satisfies RollEvent,
      ]);
    },
  }),
  'daggerheart.spendHope': handlerOf(D.spendHope, {
    label: 'spend Hope',
    authorize: (world, p, actor) => (controls(world, actor, p.characterId) ? null : FORBIDDEN),
    decide(world, { characterId, amount = 1, reason = '' }) {
      const pc = pcOf(world, characterId, 'characterId');
      if (!pc.ok) return pc;
      const from = hopeOf(world, pc.value.id);
      if (from < amount) return err('DH_NOT_ENOUGH_HOPE', `${pc.value.name} has ${from} Hope, not ${amount}`, 'amount');
      return ok([{ type: 'daggerheart.hopeSpent', characterId: pc.value.id, amount, from, to: from - amount, reason: reason.trim() } satisfies RollEvent]);
    },
  }),
  'daggerheart.gainHope': handlerOf(D.gainHope, {
    label: 'give Hope',
    decide(world, { characterId, amount = 1 }) {
      const pc = pcOf(world, characterId, 'characterId');
      if (!pc.ok) return pc;
      const from = hopeOf(world, pc.value.id);
      const to = Math.min(daggerheartSettings(world).hopeMax, from + amount);
      return ok([{ type: 'daggerheart.hopeGained', characterId: pc.value.id, amount: to - from, from, to, capped: to < from + amount, reason: 'gm' } satisfies RollEvent]);
    },
  }),
  'daggerheart.spendFear': handlerOf(D.spendFear, {
    label: 'spend Fear',
    decide(world, { amount = 1, reason = '' }) {
      const from = getDaggerheart(world).fear;
      if (from < amount) return err('DH_NOT_ENOUGH_FEAR', `the GM has ${from} Fear, not ${amount}`, 'amount');
      return ok([{ type: 'daggerheart.fearSpent', amount, from, to: from - amount, reason: reason.trim() } satisfies RollEvent]);
    },
  }),
  'daggerheart.gainFear': handlerOf(D.gainFear, {
    label: 'gain Fear',
    decide(world, { amount = 1, reason = '' }) {
      const from = getDaggerheart(world).fear;
      const to = Math.min(daggerheartSettings(world).fearMax, from + amount);
      return ok([{ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to < from + amount, reason: reason.trim() === '' ? 'gm' : reason.trim() } satisfies RollEvent]);
    },
  }),
  ...trackerCommands,
  ...spotlightCommands,
  ...adversaryAttackCommands,
  ...hitChoiceCommands,
};

/** A trait's value on a PC's sheet (0 when the sheet has none). */
function traitValue(pc: Character, trait: string): number {
  const v = trait === '' ? 0 : pc.stats[trait];
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
}

/** What a roll is called: "Finesse roll (cut the rope bridge)" with a trait, the player's words alone without one. */
function traitLabel(trait: string, label: string, reaction: boolean): string {
  if (trait === '') return label;
  const what = `${trait[0]!.toUpperCase()}${trait.slice(1)} ${reaction ? 'reaction roll' : 'roll'}`;
  return label === '' ? what : `${what} (${label})`;
}

/** "an Agility roll". */
const traitRollWords = (trait: string): string => `${/^[aeiou]/.test(trait) ? 'an' : 'a'} ${trait[0]!.toUpperCase()}${trait.slice(1)} roll`;

function requestOf(world: World, id: string): Result<RollRequest> {
  const r = own(requestsOf(world), id);
  return r === undefined ? err('NOT_FOUND', `no open roll request ${JSON.stringify(id).slice(0, 40)}`, 'requestId') : ok(r);
}

// ---------------------------------------------------------------- reducers

function withoutRequest(world: World, id: string | null | undefined): World {
  const s = getDaggerheart(world);
  if (typeof id !== 'string' || own(s.requests ?? {}, id) === undefined) return world;
  const requests = { ...s.requests };
  delete requests[id];
  return setDaggerheart(world, { ...s, requests });
}

const FEAR_REASONS: { readonly [k: string]: string } = { roll: '', gm: '' };

const evolve: Evolve<RollEvent> = {
  'daggerheart.actionRolled': (w, e) => {
    const roll = e.roll;
    const id = e.characterId;
    let next = withoutRequest(w, e.requestId);
    if (id !== null && e.helpers.length > 0) {
      const s = getDaggerheart(next);
      const help = { ...s.help };
      delete help[id];
      next = setDaggerheart(next, { ...s, help });
    }
    const highest = roll.keptHighest === true ? ` (the highest, ${Math.max(...roll.advantageDice)})` : '';
    const adv = roll.advantageDice.length === 0 ? '' : ` ${roll.advantageSign > 0 ? '+' : '-'} d6 [${roll.advantageDice.join(', ')}]${highest}`;
    // Every term named, so the sum reads as the card's does (review 10: the +2 read as part of the Fear die).
    const mod = roll.modifier === 0 ? '' : ` ${roll.modifier > 0 ? '+' : '-'} ${Math.abs(roll.modifier)} (modifier)`;
    // A roll of a trait, or against a foe, is the roller's ("Kira's Finesse roll (...)"); events stored before `trait` keep their old words.
    const whose = (typeof e.trait === 'string' && e.trait !== '') || typeof e.targetId === 'string';
    const who = (label: string) => {
      const what = label === '' ? (e.reaction ? 'a reaction roll' : 'an action roll') : label;
      return whose ? `${nameOf(w, id)}'s ${what}` : `${nameOf(w, id)} makes ${what}`;
    };
    const line = (label: string, against: string) => `${who(label)}: Hope ${roll.hope} + Fear ${roll.fear}${adv}${mod} = ${roll.total}${against}: ${OUTCOME_WORDS[roll.outcome]}.`;
    // A hidden difficulty is the GM's: the GM's line names it, players read the outcome only (`shown`, ADR 67), and a foe only by a name they know.
    const hidden = e.hidden === true;
    const text = line(e.label, hidden ? ` vs ${roll.difficulty} (hidden)` : ` vs ${roll.difficulty}`);
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.actionRolled', text, ...(hidden ? { shown: line(e.shownLabel ?? e.label, '') } : {}), data: { outcome: roll.outcome, total: roll.total, hope: roll.hope, fear: roll.fear } });
  },
  // What players receive of a roll against a hidden difficulty; the state already changed with the full record.
  'daggerheart.actionRollShown': (w) => w,
  'daggerheart.rollRequested': (w, e) => {
    const req = e.request;
    const s = getDaggerheart(w);
    const next = claimId(setDaggerheart(w, { ...s, requests: { ...(s.requests ?? {}), [req.id]: req } }), req.id);
    const against = req.hidden ? '' : ` against difficulty ${String(req.difficulty)}`;
    const what = `${req.trait === '' ? 'an action roll' : traitRollWords(req.trait)}${req.label === '' ? '' : ` (${req.label})`}`;
    return appendLog(next, { audience: characterAudience(w, req.characterId), kind: 'daggerheart.rollRequested', text: `The GM asks ${nameOf(w, req.characterId)} for ${what}${against}.`, data: { requestId: req.id } });
  },
  'daggerheart.requestCancelled': (w, e) => withoutRequest(w, e.requestId),
  'daggerheart.rollAsked': (w, e) => {
    const req = e.request;
    const s = getDaggerheart(w);
    const next = claimId(setDaggerheart(w, { ...s, requests: { ...(s.requests ?? {}), [req.id]: req } }), req.id);
    const what = `${req.trait === '' ? 'an action roll' : traitRollWords(req.trait)}${req.label === '' ? '' : ` (${req.label})`}`;
    return appendLog(next, { audience: characterAudience(w, req.characterId), kind: 'daggerheart.rollAsked', text: `${nameOf(w, req.characterId)} asks to make ${what}: the GM sets the difficulty.`, data: { requestId: req.id } });
  },
  'daggerheart.difficultySet': (w, e) => {
    const s = getDaggerheart(w);
    const req = own(s.requests ?? {}, e.requestId);
    if (req === undefined) return w;
    const set: RollRequest = { ...req, difficulty: e.difficulty, hidden: e.hidden, advantage: e.advantage, modifier: e.modifier, experience: e.experience === null ? null : { ...e.experience }, awaiting: false };
    const next = setDaggerheart(w, { ...s, requests: { ...s.requests, [req.id]: set } });
    const what = req.trait === '' ? 'action roll' : `${req.trait[0]!.toUpperCase()}${req.trait.slice(1)} roll`;
    const said = `The GM sets the difficulty of ${nameOf(w, req.characterId)}'s ${what}`;
    // A hidden difficulty is the GM's: players read that it is set, not what it is.
    return appendLog(next, { audience: characterAudience(w, req.characterId), kind: 'daggerheart.difficultySet', text: `${said}: ${e.difficulty}${e.hidden ? ' (hidden)' : ''}.`, ...(e.hidden ? { shown: `${said}.` } : {}), data: { requestId: req.id } });
  },
  'daggerheart.hopeGained': (w, e) => {
    const id = e.characterId;
    const next = withStats(w, id, { hope: e.to });
    const text = e.capped && e.amount === 0 ? `${nameOf(w, id)} is already at full Hope (${e.to}).` : `${nameOf(w, id)} gains Hope (${e.from} -> ${e.to}).`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.hope', text });
  },
  'daggerheart.hopeSpent': (w, e) => {
    const id = e.characterId;
    const next = withStats(w, id, { hope: e.to });
    const why = e.reason === 'helpAlly' ? ' to Help an Ally' : e.reason === '' ? '' : ` (${e.reason})`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.hope', text: `${nameOf(w, id)} spends ${e.amount} Hope${why} (${e.from} -> ${e.to}).` });
  },
  'daggerheart.helpOffered': (w, e) => {
    const s = getDaggerheart(w);
    const target = e.targetId;
    const next = setDaggerheart(w, { ...s, help: { ...s.help, [target]: [...(own(s.help, target) ?? []), e.helperId] } });
    return appendLog(next, { audience: characterAudience(w, target), kind: 'daggerheart.help', text: `${nameOf(w, e.helperId)} helps ${nameOf(w, target)}: advantage on their next action roll.` });
  },
  'daggerheart.fearGained': (w, e) => {
    const s = getDaggerheart(w);
    const next = setDaggerheart(w, { ...s, fear: e.to });
    // A rest's gain shows its roll as the rest's slot clears do: "1d4 [3] + 2 PCs".
    const dice = e.dice !== undefined && e.pcs !== undefined ? `: 1d4 [${e.dice.join(', ')}]${e.pcs > 0 ? ` + ${e.pcs} PC${e.pcs === 1 ? '' : 's'}` : ''}` : '';
    const reason = own(FEAR_REASONS, e.reason) === undefined ? ` (${e.reason}${dice})` : '';
    const text = e.amount === 0 ? `The GM's Fear is full (${e.to}).` : `The GM gains Fear${reason} (${e.from} -> ${e.to}).`;
    return appendLog(next, { audience: fearAudience(w), kind: 'daggerheart.fear', text });
  },
  'daggerheart.fearSpent': (w, e) => {
    const s = getDaggerheart(w);
    const next = setDaggerheart(w, { ...s, fear: e.to });
    const why = e.reason === '' ? '' : ` (${e.reason})`;
    return appendLog(next, { audience: fearAudience(w), kind: 'daggerheart.fear', text: `The GM spends ${e.amount} Fear${why} (${e.from} -> ${e.to}).` });
  },
};

const reducers: Record<string, Reducer> = {
  ...reducersOf(evolve),
  ...trackerReducers,
  ...adversaryAttackReducers,
  ...hitChoiceReducers,
  ...spotlightReducers,
};

// ---------------------------------------------------------------- views

function project(world: World, viewer: Viewer): World {
  if (viewer.role === 'gm') return world;
  const s = getDaggerheart(world);
  const visible = (id: string): boolean => own(world.characters, id)?.visibility === 'visible';
  const help: { [k: string]: string[] } = {};
  for (const [target, helpers] of Object.entries(s.help)) {
    if (!visible(target)) continue;
    const shown = helpers.filter(visible);
    if (shown.length > 0) help[target] = shown;
  }
  // A request is seen by the players while its PC is; a hidden difficulty is removed (null), never copied.
  const requests: { [k: string]: RollRequest } = {};
  for (const [id, r] of Object.entries(s.requests ?? {})) {
    if (!visible(r.characterId)) continue;
    // Field by field (ADR 25): a field this list does not name stays with the GM.
    requests[id] = {
      id: r.id,
      characterId: r.characterId,
      trait: r.trait,
      modifier: r.modifier,
      difficulty: r.hidden ? null : r.difficulty,
      hidden: r.hidden,
      advantage: r.advantage,
      experience: r.experience === null ? null : { name: r.experience.name, bonus: r.experience.bonus },
      label: r.label,
      ...(r.awaiting === true ? { awaiting: true } : {}),
      ...(r.asked === true ? { asked: true } : {}),
    };
  }
  // A hit waiting on a PC's Armor choice goes with its PC (its amount is in the players' log already).
  const hits: { [k: string]: PendingHit } = {};
  for (const [id, h] of Object.entries(s.hits ?? {})) if (visible(h.characterId)) hits[id] = { id: h.id, characterId: h.characterId, amount: h.amount };
  const fear = daggerheartSettings(world).fearVisible ? s.fear : null;
  return { ...world, ext: { ...world.ext, [DAGGERHEART_ID]: asJson({ fear, help, requests, hits }) } };
}

/** The projector's rule for one id (ADR 18): help offered to a character, and a roll request, go with their characters. */
function idStatus(world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined {
  const s = getDaggerheart(world);
  const helpers = own(s.help, id);
  const request = own(s.requests ?? {}, id);
  const hit = own(s.hits ?? {}, id);
  if (helpers === undefined && request === undefined && hit === undefined) return undefined;
  if (viewer.role === 'gm') return 'shown';
  const visible = (x: string): boolean => own(world.characters, x)?.visibility === 'visible';
  if (helpers !== undefined && visible(id) && helpers.some(visible)) return 'shown';
  if (request !== undefined && visible(request.characterId)) return 'shown';
  if (hit !== undefined && visible(hit.characterId)) return 'shown';
  return 'hidden';
}

/**
 * Marked HP decides who can hold the spotlight (encounter.ts canAct), but the kernel watches only its own HP:
 * after a hit or a cleared slot, a pending "pass the spotlight" is offered afresh (a fallen Imp was still on it).
 */
const HP_EVENTS: ReadonlySet<string> = new Set(['daggerheart.damageTaken', 'daggerheart.trackMarked']);
const spotlightAfterHp: Reaction = (world, e) => (HP_EVENTS.has(e.type) && (e.type !== 'daggerheart.trackMarked' || memberOf<TrackerEvent, 'daggerheart.trackMarked'>(e, 'daggerheart.trackMarked')?.track === 'hp') ? daggerheartKit.refreshPending(world) : []);

export const daggerheartModule: Module = {
  id: DAGGERHEART_ID,
  commands,
  reducers,
  reactions: [spotlightAfterHp, settleHitsAtEnd],
  project,
  projectReads: { reads: [`ext.${DAGGERHEART_ID}`, 'characters', 'settings'], writes: [`ext.${DAGGERHEART_ID}`] },
  idStatus,
  queries: { 'daggerheart.rollOdds': rollOddsQuery, 'daggerheart.hitChoice': hitChoiceQuery },
  eventView: { ...TRACKER_EVENT_VIEW, ...ADVERSARY_ATTACK_EVENT_VIEW },
  eventViewBasis: (w) => foeBasis(w),
  audience: {
    ...audiencesOf<RollEvent | ActionRollResolved>({
      // The full record names the difficulty: GM-only when it is hidden (players get actionRollShown).
      'daggerheart.actionRolled': (w, e) => (e.hidden === true ? AUDIENCE_GM : characterAudience(w, e.characterId)),
      'daggerheart.actionRollShown': (w, e) => characterAudience(w, e.characterId),
      'actionRoll.resolved': (w, e) => characterAudience(w, e.characterId),
      // A request stored whole: a hidden difficulty keeps it with the GM.
      'daggerheart.rollRequested': (w, e) => (e.request.hidden === true ? AUDIENCE_GM : characterAudience(w, e.request.characterId)),
      'daggerheart.requestCancelled': (w, e) => characterAudience(w, e.characterId),
      'daggerheart.rollAsked': (w, e) => characterAudience(w, e.request.characterId),
      // The event names the difficulty: GM-only when it is hidden (players read the request without it).
      'daggerheart.difficultySet': (w, e) => (e.hidden === true ? AUDIENCE_GM : characterAudience(w, e.characterId)),
      'daggerheart.hopeGained': (w, e) => characterAudience(w, e.characterId),
      'daggerheart.hopeSpent': (w, e) => characterAudience(w, e.characterId),
      'daggerheart.helpOffered': (w, e) => characterAudience(w, e.targetId),
      'daggerheart.fearGained': (w) => fearAudience(w),
      'daggerheart.fearSpent': (w) => fearAudience(w),
    }),
    ...TRACKER_AUDIENCE,
    ...SPOTLIGHT_AUDIENCE,
    ...ADVERSARY_ATTACK_AUDIENCE,
    ...HIT_CHOICE_AUDIENCE,
  },
};
