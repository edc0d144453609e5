// The Daggerheart module: action rolls with the duality dice (rules README
// "Daggerheart action roll (000)"), Hope for the rolling PC on a roll with Hope,
// Fear for the GM on a roll with Fear, spending Hope (Help an Ally) and Fear.
// Each action roll ends with the engine-level `actionRoll.resolved {outcome}`,
// which the countdowns module ticks standard, dynamic and chase countdowns on
// (000 "Standard Countdown": the trigger comes after the roll resolves).
import {
  AUDIENCE_ALL,
  AUDIENCE_GM,
  appendLog,
  audienceFor,
  clockAdvanced,
  err,
  ok,
  readInt,
  rollDuality,
  type Audience,
  type Character,
  type Command,
  type CommandHandler,
  type DualityOutcome,
  type DualityRoll,
  type EngineEvent,
  type Json,
  type Module,
  type Reducer,
  type Result,
  type RuleError,
  type Viewer,
  type World, own } from '@tablekeeper/engine';
import { daggerheartSettings } from './settings.js';

export const DAGGERHEART_ID = 'daggerheart';

/** world.ext.daggerheart: the GM's Fear and help offered to the next roll of each PC. */
export type DaggerheartState = {
  readonly fear: number;
  /** targetId -> helper character ids (each already paid their Hope). */
  readonly help: { readonly [targetId: string]: readonly string[] };
};

const EMPTY: DaggerheartState = { fear: 0, help: {} };

export function getDaggerheart(world: World): DaggerheartState {
  const raw = world.ext[DAGGERHEART_ID];
  return raw === undefined || raw === null ? EMPTY : (raw as unknown as DaggerheartState);
}

function setDaggerheart(world: World, s: DaggerheartState): World {
  return { ...world, ext: { ...world.ext, [DAGGERHEART_ID]: s as unknown as Json } };
}

/** A PC's Hope: stats.hope, or the starting Hope setting when none is recorded. */
export function hopeOf(world: World, characterId: string): number {
  const v = own(world.characters, characterId)?.stats['hope'];
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : daggerheartSettings(world).startingHope;
}

// ---------------------------------------------------------------- limits

export const MAX_MODIFIER = 30;
export const MAX_DIFFICULTY = 60;
/** Net situational advantage sources a command may name (helpers come on top). */
export const MAX_ADVANTAGE_SOURCES = 5;
export const MAX_SPEND = 12;
const MAX_LABEL = 80;

// ---------------------------------------------------------------- helpers

const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

function controls(world: World, actor: Viewer, characterId: unknown): boolean {
  if (actor.role === 'gm') return true;
  if (actor.role !== 'player' || typeof characterId !== 'string') return false;
  return own(world.seats, actor.seatId)?.characterIds.includes(characterId) === true;
}

const ownCharacter = (field: string) => (world: World, c: Command, actor: Viewer): RuleError | null => (controls(world, actor, c[field]) ? null : FORBIDDEN);

function readPc(world: World, c: Command, field: string): Result<Character> {
  const id = c[field];
  const ch = typeof id === 'string' ? own(world.characters, id) : undefined;
  if (ch === undefined) return err('NOT_FOUND', `${field}: no character ${JSON.stringify(id ?? null).slice(0, 40)}`, field);
  if (ch.kind !== 'pc') return err('DH_NOT_A_PC', `${ch.name} is not a PC: Hope and action rolls belong to PCs`, field);
  return ok(ch);
}

function readBool(c: Command, key: string): Result<boolean> {
  const v = c[key];
  if (v === undefined) return ok(false);
  if (typeof v !== 'boolean') return err('INVALID_VALUE', `${key} must be true or false`, key);
  return ok(v);
}

function readLabel(c: Command, key: string): Result<string> {
  const v = c[key];
  if (v === undefined) return ok('');
  if (typeof v !== 'string') return err('INVALID_VALUE', `${key} must be a string`, key);
  if (v.length > MAX_LABEL) return err('INVALID_VALUE', `${key} is longer than the limit of ${MAX_LABEL} characters`, key);
  return ok(v.trim());
}

const OUTCOME_WORDS: Record<DualityOutcome, string> = {
  critical: 'a critical success',
  successWithHope: 'a success with Hope',
  successWithFear: 'a success with Fear',
  failureWithHope: 'a failure with Hope',
  failureWithFear: 'a failure with Fear',
};

// ---------------------------------------------------------------- commands

const commands: Record<string, CommandHandler & { label: string }> = {
  'daggerheart.actionRoll': {
    label: 'make an action roll',
    // The GM may roll for anyone (or for no one in particular); a player only for their own PC.
    authorize: (world, c, actor) => (actor.role === 'gm' ? null : controls(world, actor, c['characterId']) ? null : FORBIDDEN),
    decide(world, c, env) {
      const set = daggerheartSettings(world);
      let character: Character | null = null;
      if (c['characterId'] !== undefined) {
        const pc = readPc(world, c, 'characterId');
        if (!pc.ok) return pc;
        character = pc.value;
      }
      const modifier = readInt(c, 'modifier', { min: -MAX_MODIFIER, max: MAX_MODIFIER, fallback: 0 });
      if (!modifier.ok) return modifier;
      const difficulty = readInt(c, 'difficulty', { min: 1, max: MAX_DIFFICULTY });
      if (!difficulty.ok) return difficulty;
      const advantage = readInt(c, 'advantage', { min: -MAX_ADVANTAGE_SOURCES, max: MAX_ADVANTAGE_SOURCES, fallback: 0 });
      if (!advantage.ok) return advantage;
      const reaction = readBool(c, 'reaction');
      if (!reaction.ok) return reaction;
      const label = readLabel(c, 'label');
      if (!label.ok) return label;
      // Help an Ally is for action rolls; a reaction roll leaves the offer waiting.
      const helpers = character !== null && !reaction.value ? [...(getDaggerheart(world).help[character.id] ?? [])] : [];
      const sources = advantage.value + helpers.length;
      const dice = set.advantageDiceStack ? sources : Math.sign(sources);
      const roll: DualityRoll = rollDuality(env.rng, { modifier: modifier.value, difficulty: difficulty.value, advantage: dice });
      const events: EngineEvent[] = [
        {
          type: 'daggerheart.actionRolled',
          characterId: character?.id ?? null,
          label: label.value,
          reaction: reaction.value,
          advantageSources: sources,
          helpers,
          roll: roll as unknown as Json,
        },
      ];
      const feeds = !reaction.value || set.reactionRollsGiveHopeFear;
      if (feeds && character !== null && (roll.withHope || (roll.critical && set.criticalGivesHope))) {
        const from = hopeOf(world, character.id);
        const to = Math.min(set.hopeMax, from + 1);
        events.push({ type: 'daggerheart.hopeGained', characterId: character.id, amount: to - from, from, to, capped: to === from, reason: 'roll' });
      }
      if (feeds && roll.withFear) {
        const from = getDaggerheart(world).fear;
        const to = Math.min(set.fearMax, from + 1);
        events.push({ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to === from, reason: 'roll' });
      }
      if (!reaction.value && set.actionRollsAdvanceClock) events.push(clockAdvanced(world, 'actionRoll', 1, 0));
      if (!reaction.value || set.reactionRollsTickCountdowns) {
        events.push({ type: 'actionRoll.resolved', outcome: roll.outcome, characterId: character?.id ?? null, reaction: reaction.value });
      }
      return ok(events);
    },
  },
  'daggerheart.helpAlly': {
    label: 'help an ally',
    authorize: ownCharacter('helperId'),
    decide(world, c) {
      const helper = readPc(world, c, 'helperId');
      if (!helper.ok) return helper;
      const target = readPc(world, c, 'targetId');
      if (!target.ok) return target;
      if (helper.value.id === target.value.id) return err('DH_HELP_SELF', 'a character cannot help their own roll', 'targetId');
      if ((getDaggerheart(world).help[target.value.id] ?? []).includes(helper.value.id)) return err('DH_ALREADY_HELPING', `${helper.value.name} is already helping ${target.value.name}`, 'helperId');
      const cost = daggerheartSettings(world).helpCost;
      const from = hopeOf(world, helper.value.id);
      if (from < cost) return err('DH_NOT_ENOUGH_HOPE', `${helper.value.name} has ${from} Hope; helping costs ${cost}`, 'helperId');
      return ok([
        { type: 'daggerheart.hopeSpent', characterId: helper.value.id, amount: cost, from, to: from - cost, reason: 'helpAlly' },
        { type: 'daggerheart.helpOffered', helperId: helper.value.id, targetId: target.value.id },
      ]);
    },
  },
  'daggerheart.spendHope': {
    label: 'spend Hope',
    authorize: ownCharacter('characterId'),
    decide(world, c) {
      const pc = readPc(world, c, 'characterId');
      if (!pc.ok) return pc;
      const amount = readInt(c, 'amount', { min: 1, max: MAX_SPEND, fallback: 1 });
      if (!amount.ok) return amount;
      const reason = readLabel(c, 'reason');
      if (!reason.ok) return reason;
      const from = hopeOf(world, pc.value.id);
      if (from < amount.value) return err('DH_NOT_ENOUGH_HOPE', `${pc.value.name} has ${from} Hope, not ${amount.value}`, 'amount');
      return ok([{ type: 'daggerheart.hopeSpent', characterId: pc.value.id, amount: amount.value, from, to: from - amount.value, reason: reason.value }]);
    },
  },
  'daggerheart.gainHope': {
    label: 'give Hope',
    decide(world, c) {
      const pc = readPc(world, c, 'characterId');
      if (!pc.ok) return pc;
      const amount = readInt(c, 'amount', { min: 1, max: MAX_SPEND, fallback: 1 });
      if (!amount.ok) return amount;
      const from = hopeOf(world, pc.value.id);
      const to = Math.min(daggerheartSettings(world).hopeMax, from + amount.value);
      return ok([{ type: 'daggerheart.hopeGained', characterId: pc.value.id, amount: to - from, from, to, capped: to < from + amount.value, reason: 'gm' }]);
    },
  },
  'daggerheart.spendFear': {
    label: 'spend Fear',
    decide(world, c) {
      const amount = readInt(c, 'amount', { min: 1, max: MAX_SPEND, fallback: 1 });
      if (!amount.ok) return amount;
      const reason = readLabel(c, 'reason');
      if (!reason.ok) return reason;
      const from = getDaggerheart(world).fear;
      if (from < amount.value) return err('DH_NOT_ENOUGH_FEAR', `the GM has ${from} Fear, not ${amount.value}`, 'amount');
      return ok([{ type: 'daggerheart.fearSpent', amount: amount.value, from, to: from - amount.value, reason: reason.value }]);
    },
  },
  'daggerheart.gainFear': {
    label: 'gain Fear',
    decide(world, c) {
      const amount = readInt(c, 'amount', { min: 1, max: MAX_SPEND, fallback: 1 });
      if (!amount.ok) return amount;
      const from = getDaggerheart(world).fear;
      const to = Math.min(daggerheartSettings(world).fearMax, from + amount.value);
      return ok([{ type: 'daggerheart.fearGained', amount: to - from, from, to, capped: to < from + amount.value, reason: 'gm' }]);
    },
  },
};

// ---------------------------------------------------------------- reducers

const str = (e: EngineEvent, k: string): string => String(e[k]);
const num = (e: EngineEvent, k: string): number => Number(e[k]);

function withHope(world: World, id: string, hope: number): World {
  const c = own(world.characters, id);
  return c === undefined ? world : { ...world, characters: { ...world.characters, [id]: { ...c, stats: { ...c.stats, hope } } } };
}

/** Who may read about a character: everyone only while it is fully visible. */
function characterAudience(world: World, id: unknown): Audience {
  if (typeof id !== 'string') return AUDIENCE_ALL;
  const c = own(world.characters, id);
  return c === undefined ? AUDIENCE_GM : audienceFor(c.visibility);
}

const fearAudience = (world: World): Audience => (daggerheartSettings(world).fearVisible ? AUDIENCE_ALL : AUDIENCE_GM);

const nameOf = (world: World, id: unknown): string => (typeof id === 'string' ? (own(world.characters, id)?.name ?? 'someone') : 'The GM');

const reducers: Record<string, Reducer> = {
  'daggerheart.actionRolled': (w, e) => {
    const roll = e['roll'] as unknown as DualityRoll;
    const id = e['characterId'];
    const helpers = Array.isArray(e['helpers']) ? e['helpers'] : [];
    let next = w;
    if (typeof id === 'string' && helpers.length > 0) {
      const s = getDaggerheart(next);
      const help = { ...s.help };
      delete help[id];
      next = setDaggerheart(next, { ...s, help });
    }
    const adv = roll.advantageDice.length === 0 ? '' : ` ${roll.advantageSign > 0 ? '+' : '-'} d6 [${roll.advantageDice.join(', ')}]`;
    const mod = roll.modifier === 0 ? '' : ` ${roll.modifier > 0 ? '+' : '-'} ${Math.abs(roll.modifier)}`;
    const what = e['label'] === '' ? (e['reaction'] === true ? 'a reaction roll' : 'an action roll') : String(e['label']);
    const text = `${nameOf(w, id)} makes ${what}: Hope ${roll.hope}, Fear ${roll.fear}${adv}${mod} = ${roll.total} vs ${roll.difficulty}: ${OUTCOME_WORDS[roll.outcome]}.`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.actionRolled', text, data: { outcome: roll.outcome, total: roll.total } });
  },
  'daggerheart.hopeGained': (w, e) => {
    const id = str(e, 'characterId');
    const next = withHope(w, id, num(e, 'to'));
    const text = e['capped'] === true && num(e, 'amount') === 0 ? `${nameOf(w, id)} is already at full Hope (${num(e, 'to')}).` : `${nameOf(w, id)} gains Hope (${num(e, 'from')} -> ${num(e, 'to')}).`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.hope', text });
  },
  'daggerheart.hopeSpent': (w, e) => {
    const id = str(e, 'characterId');
    const next = withHope(w, id, num(e, 'to'));
    const why = e['reason'] === 'helpAlly' ? ' to Help an Ally' : e['reason'] === '' ? '' : ` (${str(e, 'reason')})`;
    return appendLog(next, { audience: characterAudience(w, id), kind: 'daggerheart.hope', text: `${nameOf(w, id)} spends ${num(e, 'amount')} Hope${why} (${num(e, 'from')} -> ${num(e, 'to')}).` });
  },
  'daggerheart.helpOffered': (w, e) => {
    const s = getDaggerheart(w);
    const target = str(e, 'targetId');
    const next = setDaggerheart(w, { ...s, help: { ...s.help, [target]: [...(s.help[target] ?? []), str(e, 'helperId')] } });
    return appendLog(next, { audience: characterAudience(w, target), kind: 'daggerheart.help', text: `${nameOf(w, e['helperId'])} helps ${nameOf(w, target)}: advantage on their next action roll.` });
  },
  'daggerheart.fearGained': (w, e) => {
    const s = getDaggerheart(w);
    const next = setDaggerheart(w, { ...s, fear: num(e, 'to') });
    const text = num(e, 'amount') === 0 ? `The GM's Fear is full (${num(e, 'to')}).` : `The GM gains Fear (${num(e, 'from')} -> ${num(e, 'to')}).`;
    return appendLog(next, { audience: fearAudience(w), kind: 'daggerheart.fear', text });
  },
  'daggerheart.fearSpent': (w, e) => {
    const s = getDaggerheart(w);
    const next = setDaggerheart(w, { ...s, fear: num(e, 'to') });
    const why = e['reason'] === '' ? '' : ` (${str(e, 'reason')})`;
    return appendLog(next, { audience: fearAudience(w), kind: 'daggerheart.fear', text: `The GM spends ${num(e, 'amount')} Fear${why} (${num(e, 'from')} -> ${num(e, 'to')}).` });
  },
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
  const fear = daggerheartSettings(world).fearVisible ? s.fear : null;
  return { ...world, ext: { ...world.ext, [DAGGERHEART_ID]: { fear, help } } };
}

export const daggerheartModule: Module = {
  id: DAGGERHEART_ID,
  commands,
  reducers,
  project,
  audience: {
    'daggerheart.actionRolled': (w, e) => characterAudience(w, e['characterId']),
    'actionRoll.resolved': (w, e) => characterAudience(w, e['characterId']),
    'daggerheart.hopeGained': (w, e) => characterAudience(w, e['characterId']),
    'daggerheart.hopeSpent': (w, e) => characterAudience(w, e['characterId']),
    'daggerheart.helpOffered': (w, e) => characterAudience(w, e['targetId']),
    'daggerheart.fearGained': (w) => fearAudience(w),
    'daggerheart.fearSpent': (w) => fearAudience(w),
  },
};
