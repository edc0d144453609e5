// The Kleptonomicon module (004): the Episode as a state machine (Opening
// Credits, Freeplay, Encounter with Initiative / Main / Pause / Reward, Closing
// Credits), abilities gated by phase and paid in Beats, movement styles and
// Dash, improvised actions, experience and the between-Episode resets.
// Turn order, Beats and fleeting stacks live in the encounter kernel.
import {
  AUDIENCE_ALL,
  AUDIENCE_GM,
  appendLog,
  canSee,
  clockAdvanced,
  err,
  getEncounter,
  mintId,
  claimId,
  ok,
  type Audience,
  type Command,
  type CommandHandler,
  type EncounterKit,
  type EngineEvent,
  type Json,
  type Module,
  type ProjectorReads,
  type Reaction,
  type Reducer,
  type Result,
  type RuleError,
  type Viewer,
  type World, own } from '@tablekeeper/engine';
import { distanceFor } from './distances.js';
import {
  grantStyle,
  interruptEffect,
  interruptStyle,
  planDash,
  planDropProne,
  planMove,
  planStand,
  startTurnMovement,
  type MovementStyle,
  type StyleVariant,
  type TurnMovement,
} from './movement.js';
import { ABILITY_TIMES, abilityUse, ENCOUNTER_TRANSITIONS, EPISODE_TRANSITIONS, type Ability, type EncounterPhase, type EpisodePhase } from './phases.js';
import { kleptoQueries } from './queries.js';
import { kleptoTest } from './roll.js';
import { K, numberSetting, setting, sixthDistance } from './settings.js';
import { EDGE_SAVE_LIMIT, kleptoSheetLine, kleptoSheetOf } from './sheet.js';
import { getKlepto, KLEPTO_ID, updateKlepto, type KleptoState, type Resource } from './state.js';

const MAX_TEXT = 500;
const BEATS_PER_ROUND = 2;
const MAX_MODIFIER = 50;
const FORBIDDEN: RuleError = { code: 'FORBIDDEN', message: 'only the GM or the player of that character may do this' };

// ---------------------------------------------------------------- reading commands

function text(c: Command, key: string, required = true): Result<string | null> {
  const v = c[key];
  if (v === undefined || v === null) return required ? err('INVALID_VALUE', `${key} is required`, key) : ok(null);
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT) return err('INVALID_VALUE', `${key} must be a non-empty string of at most ${MAX_TEXT} characters`, key);
  return ok(v);
}

function int(c: Command, key: string, dflt: number, min: number, max: number): Result<number> {
  const v = c[key] ?? dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return err('INVALID_VALUE', `${key} must be an integer in [${min}, ${max}]`, key);
  return ok(v);
}

// ---------------------------------------------------------------- who is who

function controlsCharacter(world: World, actor: Viewer, characterId: Json | undefined): boolean {
  if (actor.role === 'gm') return true;
  if (actor.role !== 'player' || typeof characterId !== 'string') return false;
  return own(world.seats, actor.seatId)?.characterIds.includes(characterId) === true;
}

function characterOfCombatant(world: World, id: string): string | null {
  return own(getEncounter(world).combatants, id)?.characterId ?? null;
}

function controlsCombatant(world: World, actor: Viewer, combatantId: Json | undefined): boolean {
  if (actor.role === 'gm') return true;
  if (typeof combatantId !== 'string') return false;
  const ch = characterOfCombatant(world, combatantId);
  return ch !== null && controlsCharacter(world, actor, ch);
}

const byCharacter =
  (key = 'characterId') =>
  (world: World, c: Command, actor: Viewer): RuleError | null =>
    controlsCharacter(world, actor, c[key]) ? null : FORBIDDEN;

const byCombatant =
  (key = 'combatantId', old?: string) =>
  (world: World, c: Command, actor: Viewer): RuleError | null =>
    // Judged on the command as sent: a renamed field (ADR 21) may still come under its old name.
    controlsCombatant(world, actor, c[key] ?? (old === undefined ? undefined : c[old])) ? null : FORBIDDEN;

/** Sheet numbers: the linked character's stats, else the combatant's own (NPCs). */
function sheet(world: World, combatantId: string): { readonly [k: string]: Json } {
  const c = own(getEncounter(world).combatants, combatantId);
  const ch = c?.characterId != null ? own(world.characters, c.characterId) : undefined;
  return ch?.stats ?? c?.stats ?? {};
}

function stylesOf(world: World, combatantId: string): MovementStyle[] {
  const raw = sheet(world, combatantId)['movementStyles'] ?? setting(world, K.defaultStyles);
  const out: MovementStyle[] = [];
  if (Array.isArray(raw)) {
    for (const s of raw) {
      if (s === null || typeof s !== 'object' || Array.isArray(s) || typeof s['style'] !== 'string') continue;
      const v = s['variant'];
      out.push({ style: s['style'], variant: v === 'half' || v === 'double' ? v : 'normal' });
    }
  }
  return out;
}

function abilitiesOf(world: World, characterId: string | null, combatantId: string | null): Ability[] {
  const stats = characterId !== null ? own(world.characters, characterId)?.stats : combatantId !== null ? sheet(world, combatantId) : undefined;
  const raw = stats?.['abilities'];
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((a): Ability[] => {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) return [];
    const id = a['id'];
    const time = a['time'];
    if (typeof id !== 'string' || typeof time !== 'string' || !(ABILITY_TIMES as readonly string[]).includes(time)) return [];
    const name = typeof a['name'] === 'string' ? a['name'] : id;
    const seconds = typeof a['seconds'] === 'number' ? a['seconds'] : undefined;
    const recovery = a['recovery'] === 'dodgesUp' || a['recovery'] === 'shieldsUp' || a['recovery'] === 'healUp' ? a['recovery'] : undefined;
    return [{ id, name, time: time as Ability['time'], ...(seconds !== undefined ? { seconds } : {}), ...(recovery !== undefined ? { recovery } : {}) }];
  });
}

/** Which resources each recovery ability restores ("Reward Phase": Dodges, Shield, Health and Vitality). */
const RECOVERS: { readonly [r: string]: readonly string[] } = { dodgesUp: ['dodges'], shieldsUp: ['shield'], healUp: ['health', 'vitality'] };

function nameOf(world: World, id: string): string {
  return own(getEncounter(world).combatants, id)?.name ?? own(world.characters, id)?.name ?? id;
}

function isSecretCombatant(world: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return false;
  const v = own(getEncounter(world).combatants, id)?.visibility;
  return v === 'hidden' || v === 'existence';
}

function isSecretCharacter(world: World, id: Json | undefined): boolean {
  if (typeof id !== 'string') return false;
  const ch = own(world.characters, id);
  return ch !== undefined && ch.visibility !== 'visible';
}

/** Events about a hidden combatant or an unrevealed character stay with the GM. */
function audienceOf(world: World, e: EngineEvent): Audience {
  for (const k of ['combatant', 'combatantId', 'target', 'targetId', 'attacker', 'attackerId', 'by']) if (isSecretCombatant(world, e[k])) return AUDIENCE_GM;
  if (isSecretCharacter(world, e['characterId'])) return AUDIENCE_GM;
  return AUDIENCE_ALL;
}

function log(world: World, e: EngineEvent, kind: string, line: string, data?: Json): World {
  return appendLog(world, { audience: audienceOf(world, e), kind, text: line, ...(data !== undefined ? { data } : {}) });
}

// ---------------------------------------------------------------- the module

export function kleptonomiconModule(kit: EncounterKit): Module {
  const inPhase = (st: KleptoState, ...phases: EpisodePhase[]): RuleError | null =>
    phases.includes(st.phase) ? null : { code: 'WRONG_PHASE', message: `not during ${describePhase(st)} (needs ${phases.join(' or ')})` };

  const inEncounterPhase = (st: KleptoState, ...phases: EncounterPhase[]): RuleError | null =>
    st.phase === 'encounter' && st.encounterPhase !== null && phases.includes(st.encounterPhase)
      ? null
      : { code: 'WRONG_PHASE', message: `not during ${describePhase(st)} (needs the ${phases.join(' or ')} phase of an Encounter)` };

  function phaseChange(st: KleptoState, to: EpisodePhase, encounterTo: EncounterPhase | null): EngineEvent {
    return { type: 'kleptonomicon.phaseChanged', from: st.phase, to, encounterFrom: st.encounterPhase, encounterTo };
  }

  /** The current combatant's movement this turn, checking it is their turn in the Main phase. */
  function turnMovement(world: World, id: Json | undefined): Result<{ id: string; tm: TurnMovement }> {
    const st = getKlepto(world);
    const bad = inEncounterPhase(st, 'main');
    if (bad !== null) return { ok: false, error: bad };
    if (typeof id !== 'string') return err('INVALID_VALUE', 'combatantId is required', 'combatantId');
    const enc = getEncounter(world);
    if (own(enc.combatants, id) === undefined) return err('NOT_FOUND', `no combatant "${id}"`, 'combatantId');
    if (enc.current !== id) return err('NOT_YOUR_TURN', `${nameOf(world, id)} moves on their own turn`, 'combatantId');
    const tm = st.movement[id] ?? startTurnMovement(stylesOf(world, id), st.prone.includes(id));
    return ok({ id, tm });
  }

  const commands: Record<string, CommandHandler> = {
    // ------------------------------------------------------------ the Episode
    'kleptonomicon.startEpisode': {
      label: 'start an Episode',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.opening);
        if (bad !== null) return { ok: false, error: { ...bad, message: 'an Episode is already running; finish its Closing Credits first' } };
        return ok([{ type: 'kleptonomicon.episodeStarted', episode: st.episode + 1 }]);
      },
    },
    'kleptonomicon.introduce': {
      label: 'introduce a character',
      authorize: byCharacter(),
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'opening');
        if (bad !== null) return { ok: false, error: bad };
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const clip = text(c, 'clip', false);
        if (!clip.ok) return clip;
        return ok([{ type: 'kleptonomicon.introduced', characterId: ch, clip: clip.value }]);
      },
    },
    'kleptonomicon.coldOpen': {
      label: 'add a cold open',
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'opening');
        if (bad !== null) return { ok: false, error: bad };
        const t = text(c, 'text');
        return t.ok ? ok([{ type: 'kleptonomicon.coldOpened', text: t.value }]) : t;
      },
    },
    'kleptonomicon.freeplay': {
      label: 'move to Freeplay',
      decide(world) {
        const st = getKlepto(world);
        const fromReward = st.phase === 'encounter' && st.encounterPhase === 'reward';
        if (st.phase !== 'opening' && !fromReward) return err('WRONG_PHASE', `Freeplay follows the Opening Credits or an Encounter's Reward phase, not ${describePhase(st)}`);
        return ok([phaseChange(st, 'freeplay', null)]);
      },
    },
    'kleptonomicon.looseOrder': {
      label: 'set a loose turn order',
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'freeplay');
        if (bad !== null) return { ok: false, error: bad };
        const order = c['order'];
        if (order === null) return ok([{ type: 'kleptonomicon.looseOrderSet', order: null }]);
        if (!Array.isArray(order) || order.length === 0 || order.length > 50) return err('INVALID_VALUE', 'order must be a list of 1-50 character ids, or null to drop it', 'order');
        for (let i = 0; i < order.length; i++) {
          const id = order[i];
          if (typeof id !== 'string' || own(world.characters, id) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(id)}`, `order[${i}]`);
        }
        return ok([{ type: 'kleptonomicon.looseOrderSet', order }]);
      },
    },
    'kleptonomicon.passSpotlight': {
      label: 'pass the spotlight',
      decide(world) {
        const st = getKlepto(world);
        if (st.phase !== 'freeplay' || st.looseOrder === null) return err('NO_LOOSE_ORDER', 'Freeplay has no loose turn order to pass along');
        return ok([{ type: 'kleptonomicon.spotlightPassed', to: (st.spotlight + 1) % st.looseOrder.length }]);
      },
    },
    'kleptonomicon.improvise': {
      label: 'try an improvised action',
      authorize: byCharacter(),
      decide(world, c, env) {
        const st = getKlepto(world);
        if (st.phase === 'between') return err('NO_EPISODE', 'no Episode is running');
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const d = text(c, 'description');
        if (!d.ok) return d;
        if (Object.keys(st.improvised).length >= 200) return err('LIMIT_EXCEEDED', 'at most 200 improvised actions per Episode');
        const [id] = mintId(world, 'imp', env.rng);
        return ok([{ type: 'kleptonomicon.improvisationProposed', improvisationId: id, characterId: ch, description: d.value }]);
      },
    },
    'kleptonomicon.rule': {
      label: 'rule on an improvised action',
      decide(world, c, env) {
        const st = getKlepto(world);
        const id = c['improvisationId'];
        const req = typeof id === 'string' ? own(st.improvised, id) : undefined;
        if (req === undefined) return err('NOT_FOUND', `no improvised action ${JSON.stringify(id)}`, 'improvisationId');
        if (req.status !== 'pending') return err('ALREADY_RULED', 'the GM already ruled on this');
        const ruling = c['ruling'];
        if (ruling !== 'simple' && ruling !== 'test' && ruling !== 'impossible') return err('INVALID_VALUE', 'ruling must be "simple", "test" or "impossible"', 'ruling');
        if (ruling !== 'test') return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: null }]);
        const m = int(c, 'modifier', 0, -MAX_MODIFIER, MAX_MODIFIER);
        if (!m.ok) return m;
        const a = int(c, 'advantage', 0, -10, 10);
        if (!a.ok) return a;
        const roll = kleptoTest(env.rng, { modifier: m.value, advantage: a.value });
        // Every Test fails at the table's fail Score (6 or lower by default), this one too.
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.improvisationRuled', improvisationId: req.id, characterId: req.characterId, ruling, roll: roll as unknown as Json, passed: roll.score > failAt }]);
      },
    },
    'kleptonomicon.test': {
      label: 'roll a Test',
      authorize: byCharacter(),
      decide(world, c, env) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const skill = text(c, 'skill', false);
        if (!skill.ok) return skill;
        const m = int(c, 'modifier', 0, -MAX_MODIFIER, MAX_MODIFIER);
        if (!m.ok) return m;
        const a = int(c, 'advantage', 0, -10, 10);
        if (!a.ok) return a;
        const roll = kleptoTest(env.rng, { modifier: m.value, advantage: a.value });
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        return ok([{ type: 'kleptonomicon.tested', characterId: ch, skill: skill.value, roll: roll as unknown as Json, passed: roll.score > failAt }]);
      },
    },
    'kleptonomicon.useAbility': {
      label: 'use an ability',
      authorize: (world, c, actor) => (typeof c['combatantId'] === 'string' ? byCombatant()(world, c, actor) : byCharacter()(world, c, actor)),
      decide(world, c) {
        const st = getKlepto(world);
        const combatantId = typeof c['combatantId'] === 'string' ? c['combatantId'] : null;
        const enc = getEncounter(world);
        if (combatantId !== null && own(enc.combatants, combatantId) === undefined) return err('NOT_FOUND', `no combatant "${combatantId}"`, 'combatantId');
        const characterId = combatantId !== null ? characterOfCombatant(world, combatantId) : typeof c['characterId'] === 'string' ? c['characterId'] : null;
        if (combatantId === null && (characterId === null || own(world.characters, characterId) === undefined)) return err('NOT_FOUND', 'characterId (or combatantId in an Encounter) is required', 'characterId');
        if (st.phase === 'encounter' && st.encounterPhase === 'main' && combatantId === null) return err('INVALID_VALUE', 'in the Main phase an ability is used by a combatant (combatantId)', 'combatantId');
        const abilityId = c['abilityId'];
        const ability = abilitiesOf(world, characterId, combatantId).find((a) => a.id === abilityId);
        if (ability === undefined) return err('NOT_FOUND', `no ability ${JSON.stringify(abilityId)} on this sheet`, 'abilityId');
        const use = abilityUse(ability, { phase: st.phase, encounterPhase: st.encounterPhase, ownTurn: combatantId !== null && enc.current === combatantId });
        if (!use.ok) return { ok: false, error: use.error };
        const announced = st.phase === 'encounter';
        const events: EngineEvent[] = [{ type: 'kleptonomicon.abilityUsed', combatant: combatantId, characterId, abilityId: ability.id, name: ability.name, time: ability.time, cost: use.cost, announced }];
        if (use.cost === 'beat') {
          const spend = kit.spend(world, combatantId!, { kind: ability.time === 'beatReaction' ? 'reaction' : 'ability', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${nameOf(world, combatantId!)} has no Beat left this round`, 'combatantId');
          events.push(spend.value);
        }
        if (use.cost === 'clock') events.push(clockAdvanced(world, 'time', 1, Math.max(60, Math.min(ability.seconds ?? 60, 366 * 24 * 3600))));
        if (ability.recovery !== undefined && characterId !== null) {
          const amount = c['amount'];
          if (amount !== undefined && (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 10_000)) return err('INVALID_VALUE', 'amount must be a positive integer (omit it to restore fully)', 'amount');
          const res = st.resources[characterId] ?? {};
          for (const key of RECOVERS[ability.recovery] ?? []) {
            const r = res[key];
            if (r === undefined) continue;
            const to = typeof amount === 'number' ? Math.min(r.max, r.value + amount) : r.max;
            if (to !== r.value) events.push({ type: 'kleptonomicon.resourceSet', characterId, key, from: r.value, value: to, max: r.max, reason: ability.name });
          }
        }
        return ok(events);
      },
    },
    'kleptonomicon.freeAction': {
      label: 'take a free action',
      authorize: byCombatant(),
      decide(world, c, env) {
        const tm = turnMovement(world, c['combatantId']);
        if (!tm.ok) return tm;
        const d = text(c, 'description');
        if (!d.ok) return d;
        const used = getKlepto(world).freeActions[tm.value.id] ?? 0;
        const limit = numberSetting(world, K.freeActionsPerTurn) ?? 2;
        // Only the GM may allow more, when they fit in the same six seconds.
        if (used >= limit && !(c['gmAllows'] === true && env.actor.role === 'gm')) return err('FREE_ACTIONS_USED', `${limit} improvised free actions already this turn; the GM may allow more`, 'gmAllows');
        return ok([{ type: 'kleptonomicon.freeActionTaken', combatant: tm.value.id, description: d.value, count: used + 1 }]);
      },
    },
    // 004 "Turn Order": the Edge Save modifier and Sneaky live on the character's sheet (the GM sets them).
    'kleptonomicon.setSheet': {
      label: "set a character's Edge Save and Sneaky",
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch ?? null)}`, 'characterId');
        const stats: { [k: string]: Json } = {};
        if (c['edgeSave'] !== undefined) {
          const e = int(c, 'edgeSave', 0, -EDGE_SAVE_LIMIT, EDGE_SAVE_LIMIT);
          if (!e.ok) return e;
          stats['edgeSave'] = e.value;
        }
        if (c['sneaky'] !== undefined) {
          if (typeof c['sneaky'] !== 'boolean') return err('INVALID_VALUE', 'sneaky must be true or false', 'sneaky');
          stats['sneaky'] = c['sneaky'];
        }
        if (Object.keys(stats).length === 0) return err('INVALID_VALUE', 'give edgeSave, sneaky or both', 'edgeSave');
        return ok([{ type: 'kleptonomicon.sheetSet', characterId: ch, stats }]);
      },
    },
    'kleptonomicon.pause': {
      label: 'pause the Encounter',
      decide(world) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, ...ENCOUNTER_TRANSITIONS.pause.filter((p): p is EncounterPhase => p !== null));
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'encounter', 'pause')]);
      },
    },
    'kleptonomicon.resume': {
      label: 'resume the Encounter',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'pause');
        if (bad !== null) return { ok: false, error: bad };
        const events: EngineEvent[] = [phaseChange(st, 'encounter', 'main')];
        // Ending the Pause by spending a Beat: that Beat is gone from the spender's next turn.
        const by = c['endedWithBeatBy'];
        if (by !== undefined) {
          if (typeof by !== 'string' || own(getEncounter(world).combatants, by) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(by)}`, 'endedWithBeatBy');
          // On one's own turn the Beats left would reset at its end anyway: the Beat comes out of the next turn's two.
          const ownTurn = getEncounter(world).current === by;
          const spend = kit.spend(world, by, { kind: 'ability', cost: 1, ...(ownTurn ? { forNextTurn: true } : {}) });
          if (!spend.ok) return err('NO_BEATS', ownTurn ? `${nameOf(world, by)} already owes every Beat of their next turn` : `${nameOf(world, by)} has no Beat left to end the Pause with`, 'endedWithBeatBy');
          events.push({ type: 'kleptonomicon.pauseEndedWithBeat', combatant: by, ownTurn }, spend.value);
        }
        return ok(events);
      },
    },
    'kleptonomicon.awardSecondaryXp': {
      label: 'award XP for secondary goals',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'reward');
        if (bad !== null) return { ok: false, error: bad };
        const ids = c['characterIds'];
        if (!Array.isArray(ids) || ids.length === 0 || ids.length > 50) return err('INVALID_VALUE', 'characterIds must be a list of 1-50 characters', 'characterIds');
        const events: EngineEvent[] = [];
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i];
          if (typeof id !== 'string' || own(world.characters, id) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(id)}`, `characterIds[${i}]`);
          if (st.secondaryAwarded.includes(id)) return err('ALREADY_AWARDED', `${nameOf(world, id)} already has the second point for this Encounter`, `characterIds[${i}]`);
          events.push({ type: 'kleptonomicon.xpAwarded', characterId: id, amount: 1, reason: 'secondary goal' });
        }
        return ok(events);
      },
    },
    'kleptonomicon.awardXp': {
      label: 'award experience',
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const n = int(c, 'amount', 1, -100, 100);
        if (!n.ok) return n;
        if (n.value === 0) return err('INVALID_VALUE', 'amount must not be 0', 'amount');
        if ((getKlepto(world).xp[ch] ?? 0) + n.value < 0) return err('INVALID_VALUE', 'experience cannot go below 0', 'amount');
        const reason = text(c, 'reason', false);
        if (!reason.ok) return reason;
        return ok([{ type: 'kleptonomicon.xpAwarded', characterId: ch, amount: n.value, reason: reason.value ?? 'GM award' }]);
      },
    },
    'kleptonomicon.levelUp': {
      label: 'level up',
      authorize: byCharacter(),
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const st = getKlepto(world);
        const need = numberSetting(world, K.xpPerLevel);
        const have = st.xp[ch] ?? 0;
        if (need === null) {
          // No number in the excerpt: the GM says when it is enough.
          return c['gmApproves'] === true && own(world.characters, ch) !== undefined ? ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: 0 }]) : err('GM_DECIDES', 'the GM decides when a character has enough experience (set kleptonomicon.xpPerLevel to count it)', 'gmApproves');
        }
        if (have < need) return err('NOT_ENOUGH_XP', `${have} of ${need} Experience Points`, 'characterId');
        return ok([{ type: 'kleptonomicon.leveledUp', characterId: ch, level: (st.levels[ch] ?? 1) + 1, xpSpent: need }]);
      },
    },
    'kleptonomicon.setResource': {
      label: 'set a resource',
      decide(world, c) {
        const ch = c['characterId'];
        if (typeof ch !== 'string' || own(world.characters, ch) === undefined) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        const key = c['key'];
        if (typeof key !== 'string' || !/^[a-zA-Z][a-zA-Z0-9]{0,31}$/.test(key)) return err('INVALID_VALUE', 'key must be a short name such as health, vitality, shield or dodges', 'key');
        const max = int(c, 'max', getKlepto(world).resources[ch]?.[key]?.max ?? 0, 0, 100_000);
        if (!max.ok) return max;
        const value = int(c, 'value', max.value, 0, max.value);
        if (!value.ok) return value;
        return ok([{ type: 'kleptonomicon.resourceSet', characterId: ch, key, from: getKlepto(world).resources[ch]?.[key]?.value ?? null, value: value.value, max: max.value, reason: 'set' }]);
      },
    },
    'kleptonomicon.closingCredits': {
      label: 'roll the Closing Credits',
      decide(world) {
        const st = getKlepto(world);
        const bad = inPhase(st, ...EPISODE_TRANSITIONS.closing);
        if (bad !== null) return { ok: false, error: bad };
        return ok([phaseChange(st, 'closing', null)]);
      },
    },
    'kleptonomicon.resolutionScene': {
      label: 'play a resolution scene',
      authorize: (world, c, actor) => (c['characterId'] === undefined ? (actor.role === 'gm' ? null : FORBIDDEN) : byCharacter()(world, c, actor)),
      decide(world, c) {
        const bad = inPhase(getKlepto(world), 'closing');
        if (bad !== null) return { ok: false, error: bad };
        const t = text(c, 'text');
        if (!t.ok) return t;
        const ch = c['characterId'];
        if (ch !== undefined && (typeof ch !== 'string' || own(world.characters, ch) === undefined)) return err('NOT_FOUND', `no character ${JSON.stringify(ch)}`, 'characterId');
        return ok([{ type: 'kleptonomicon.resolutionPlayed', characterId: ch ?? null, text: t.value }]);
      },
    },
    'kleptonomicon.endEpisode': {
      label: 'end the Episode',
      decide(world, c) {
        const st = getKlepto(world);
        const bad = inPhase(st, 'closing');
        if (bad !== null) return { ok: false, error: bad };
        const h = c['halve'] ?? setting(world, K.halveResets);
        if (typeof h !== 'boolean') return err('INVALID_VALUE', 'halve must be true or false', 'halve');
        // Resets restore each tracked resource; halved, only half of what was lost (rounded down) comes back.
        const resets: Json[] = [];
        for (const [ch, res] of Object.entries(st.resources)) {
          for (const [key, r] of Object.entries(res)) {
            const to = h ? r.value + Math.floor((r.max - r.value) / 2) : r.max;
            if (to !== r.value) resets.push({ characterId: ch, key, from: r.value, to });
          }
        }
        return ok([{ type: 'kleptonomicon.episodeEnded', episode: st.episode, halve: h, resets, expired: st.episodic as unknown as Json }]);
      },
    },

    // ------------------------------------------------------------ movement (Main phase, own turn)
    'kleptonomicon.move': {
      label: 'move',
      authorize: byCombatant(),
      decide(world, c) {
        const t = turnMovement(world, c['combatantId']);
        if (!t.ok) return t;
        const style = c['style'] ?? t.value.tm.active;
        if (typeof style !== 'string') return err('INVALID_VALUE', 'style must be a movement style', 'style');
        const units = c['units'];
        if (typeof units !== 'number') return err('INVALID_VALUE', 'units must be a number', 'units');
        const r = planMove(t.value.tm, style, units);
        if (!r.ok) return { ok: false, error: r.error };
        // Leaving an enemy's Swinging Distance invites an Opportunity Attack (a reaction: it needs a Beat).
        const leaving = c['leaving'] ?? [];
        if (!Array.isArray(leaving) || leaving.length > 20) return err('INVALID_VALUE', 'leaving must be a list of combatant ids', 'leaving');
        const enc = getEncounter(world);
        const attackers: string[] = [];
        for (let i = 0; i < leaving.length; i++) {
          const id = leaving[i];
          if (typeof id !== 'string' || own(enc.combatants, id) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(id)}`, `leaving[${i}]`);
          const econ = kit.economy(world, id);
          if ((econ.spent['beats'] ?? 0) >= BEATS_PER_ROUND + (econ.granted['beats'] ?? 0)) continue;
          attackers.push(id);
        }
        return ok([{ type: 'kleptonomicon.moved', combatant: t.value.id, style, units, cost: r.value.spent - t.value.tm.spent, distance: distanceFor(units, sixthDistance(world)).name, opportunityAttackers: attackers }]);
      },
    },
    'kleptonomicon.dropProne': {
      label: 'drop prone',
      authorize: byCombatant(),
      decide(world, c) {
        const t = turnMovement(world, c['combatantId']);
        if (!t.ok) return t;
        const r = planDropProne(t.value.tm);
        return r.ok ? ok([{ type: 'kleptonomicon.wentProne', combatant: t.value.id }]) : { ok: false, error: r.error };
      },
    },
    'kleptonomicon.stand': {
      label: 'stand up',
      authorize: byCombatant(),
      decide(world, c) {
        const t = turnMovement(world, c['combatantId']);
        if (!t.ok) return t;
        const r = planStand(t.value.tm);
        return r.ok ? ok([{ type: 'kleptonomicon.stood', combatant: t.value.id }]) : { ok: false, error: r.error };
      },
    },
    'kleptonomicon.dash': {
      label: 'Dash',
      authorize: byCombatant(),
      decide(world, c, env) {
        const t = turnMovement(world, c['combatantId']);
        if (!t.ok) return t;
        const id = t.value.id;
        const enc = getEncounter(world);
        const d = getKlepto(world).dashes[id];
        const count = d !== undefined && d.round === enc.round ? d.count : 0;
        let test: ReturnType<typeof kleptoTest> | null = null;
        if (count === 1) {
          const athletics = sheet(world, id)['athletics'];
          test = kleptoTest(env.rng, { modifier: typeof athletics === 'number' ? athletics : 0, advantage: 0 });
        }
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        const plan = planDash(t.value.tm, count, test === null ? null : { passed: test.score > failAt });
        if (!plan.ok) return { ok: false, error: plan.error };
        const events: EngineEvent[] = [];
        if (setting(world, K.dashCostsBeat) === true) {
          const spend = kit.spend(world, id, { kind: 'ability', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${nameOf(world, id)} has no Beat left for the Dash`, 'combatantId');
          events.push(spend.value);
        }
        events.push({ type: 'kleptonomicon.dashed', combatant: id, round: enc.round, outcome: plan.value.outcome.kind, test: test as unknown as Json });
        if (plan.value.outcome.kind === 'slowed') {
          const slowed = kit.applyCondition(world, { target: id, condition: 'slowed', duration: { kind: 'indefinite' }, source: id }, env.rng);
          if (slowed.ok) events.push(slowed.value);
        }
        return ok(events);
      },
    },
    'kleptonomicon.grantStyle': {
      label: 'grant a movement style',
      decide(world, c) {
        const t = turnMovement(world, c['combatantId']);
        if (!t.ok) return t;
        const style = c['style'];
        if (typeof style !== 'string' || !/^[a-z][a-z-]{0,31}$/.test(style)) return err('INVALID_VALUE', 'style must be a lower-case style name (climb, swim...)', 'style');
        const v = c['variant'] ?? 'half';
        if (v !== 'half' && v !== 'normal' && v !== 'double') return err('INVALID_VALUE', 'variant must be half, normal or double (improvised styles are Half unless the GM says otherwise)', 'variant');
        return ok([{ type: 'kleptonomicon.styleGranted', combatant: t.value.id, style, variant: v }]);
      },
    },
    'kleptonomicon.interrupt': {
      label: 'interrupt movement',
      decide(world, c) {
        const id = c['combatantId'];
        if (typeof id !== 'string' || own(getEncounter(world).combatants, id) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(id)}`, 'combatantId');
        return ok([interruption(world, id, 'an ability that interrupts movement', c['heavy'] === true)]);
      },
    },
    'kleptonomicon.improvisedManeuver': {
      label: 'make an improvised maneuver',
      authorize: byCombatant('attackerId', 'attacker'),
      decide(world, c, env) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'main');
        if (bad !== null) return { ok: false, error: bad };
        const enc = getEncounter(world);
        const attacker = c['attackerId'];
        const target = c['targetId'];
        if (typeof attacker !== 'string' || own(enc.combatants, attacker) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(attacker)}`, 'attackerId');
        if (typeof target !== 'string' || own(enc.combatants, target) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(target)}`, 'targetId');
        if (enc.current !== attacker) return err('NOT_YOUR_TURN', 'a maneuver is a Basic Attack on your own turn', 'attackerId');
        const m = int(c, 'modifier', 0, -MAX_MODIFIER, MAX_MODIFIER);
        if (!m.ok) return m;
        const a = int(c, 'advantage', 0, -10, 10);
        if (!a.ok) return a;
        const defense = int(c, 'defense', 0, 0, 100);
        if (!defense.ok) return defense;
        const spend = kit.spend(world, attacker, { kind: 'ability', cost: 1 });
        if (!spend.ok) return err('NO_BEATS', `${nameOf(world, attacker)} has no Beat left for a Basic Attack`, 'attackerId');
        // The improvised maneuver adds Slowed to a Basic Attack at one extra Disadvantage.
        const roll = kleptoTest(env.rng, { modifier: m.value, advantage: a.value - 1 });
        const hit = c['defense'] === undefined ? null : roll.score >= defense.value;
        const events: EngineEvent[] = [spend.value, { type: 'kleptonomicon.maneuverRolled', attackerId: attacker, targetId: target, roll: roll as unknown as Json, defense: c['defense'] === undefined ? null : defense.value, hit }];
        if (hit === true) {
          const slowed = kit.applyCondition(world, { target, condition: 'slowed', duration: { kind: 'indefinite' }, source: attacker }, env.rng);
          if (slowed.ok) events.push(slowed.value);
        }
        return ok(events);
      },
    },
  };

  // ------------------------------------------------------------ reducers

  const onState =
    (fn: (st: KleptoState, e: EngineEvent, w: World) => KleptoState): Reducer =>
    (w, e) =>
      updateKlepto(w, (st) => fn(st, e, w));

  const str = (j: Json | undefined): string => (typeof j === 'string' ? j : '');

  function withMovement(st: KleptoState, w: World, id: string, fn: (tm: TurnMovement) => TurnMovement): KleptoState {
    const tm = st.movement[id] ?? startTurnMovement(stylesOf(w, id), st.prone.includes(id));
    const next = fn(tm);
    return { ...st, movement: { ...st.movement, [id]: next }, prone: next.prone ? [...new Set([...st.prone, id])] : st.prone.filter((x) => x !== id) };
  }

  const reducers: Record<string, Reducer> = {
    'kleptonomicon.episodeStarted': (w, e) =>
      log(
        updateKlepto(w, (st) => ({ ...st, episode: Number(e['episode']), phase: 'opening', encounterPhase: null, opening: { introduced: [], clips: {}, coldOpen: null }, looseOrder: null, spotlight: 0, episodic: {} })),
        e,
        'kleptonomicon.episode',
        `Episode ${String(e['episode'])} begins: Opening Credits.`,
      ),
    'kleptonomicon.introduced': (w, e) => {
      const ch = str(e['characterId']);
      const clip = e['clip'];
      const next = updateKlepto(w, (st) => ({
        ...st,
        opening: { ...st.opening, introduced: [...new Set([...st.opening.introduced, ch])], clips: typeof clip === 'string' ? { ...st.opening.clips, [ch]: clip } : st.opening.clips },
      }));
      return log(next, e, 'kleptonomicon.introduced', typeof clip === 'string' ? `${nameOf(w, ch)} is introduced. Clip: ${clip}` : `${nameOf(w, ch)} is introduced.`);
    },
    'kleptonomicon.coldOpened': (w, e) => log(updateKlepto(w, (st) => ({ ...st, opening: { ...st.opening, coldOpen: str(e['text']) } })), e, 'kleptonomicon.coldOpen', `Cold open: ${str(e['text'])}`),
    'kleptonomicon.phaseChanged': (w, e) => {
      const to = e['to'] as EpisodePhase;
      const encTo = (e['encounterTo'] ?? null) as EncounterPhase | null;
      const next = updateKlepto(w, (st) => ({ ...st, phase: to, encounterPhase: encTo, looseOrder: to === 'freeplay' ? st.looseOrder : null }));
      return log(next, e, 'kleptonomicon.phase', `Now: ${describePhase(getKlepto(next))}.`);
    },
    'kleptonomicon.looseOrderSet': (w, e) => {
      const order = Array.isArray(e['order']) ? (e['order'] as string[]) : null;
      return log(updateKlepto(w, (st) => ({ ...st, looseOrder: order, spotlight: 0 })), e, 'kleptonomicon.looseOrder', order === null ? 'Freeplay without a turn order.' : `Loose turn order: ${order.map((id) => nameOf(w, id)).join(', ')}.`);
    },
    'kleptonomicon.spotlightPassed': (w, e) => {
      const next = updateKlepto(w, (st) => ({ ...st, spotlight: Number(e['to']) }));
      const st = getKlepto(next);
      return log(next, e, 'kleptonomicon.spotlight', `Spotlight: ${nameOf(w, st.looseOrder?.[st.spotlight] ?? '')}.`);
    },
    'kleptonomicon.improvisationProposed': (w, e) => {
      const id = str(e['improvisationId']);
      const next = claimId(
        updateKlepto(w, (st) => ({ ...st, improvised: { ...st.improvised, [id]: { id, characterId: str(e['characterId']), description: str(e['description']), status: 'pending' } } })),
        id,
      );
      return log(next, e, 'kleptonomicon.improvise', `${nameOf(w, str(e['characterId']))} tries: ${str(e['description'])}`);
    },
    'kleptonomicon.improvisationRuled': (w, e) => {
      const id = str(e['improvisationId']);
      const ruling = e['ruling'] as 'simple' | 'test' | 'impossible';
      const next = updateKlepto(w, (st) => {
        const req = st.improvised[id];
        return req === undefined ? st : { ...st, improvised: { ...st.improvised, [id]: { ...req, status: ruling } } };
      });
      const roll = e['roll'];
      const score = roll !== null && typeof roll === 'object' && !Array.isArray(roll) ? roll['score'] : null;
      const line = ruling === 'impossible' ? 'the GM rules it impossible: it fails, no Test.' : ruling === 'simple' ? 'it simply happens.' : `a Test: Score ${String(score)}${typeof e['passed'] === 'boolean' ? ` (${e['passed'] ? 'pass' : 'fail'})` : ''}.`;
      return log(next, e, 'kleptonomicon.ruling', `${nameOf(w, str(e['characterId']))}: ${line}`);
    },
    'kleptonomicon.tested': (w, e) => {
      const roll = e['roll'] as { score?: number } | null;
      return log(w, e, 'kleptonomicon.test', `${nameOf(w, str(e['characterId']))} ${e['skill'] === null ? 'tests' : `tests ${str(e['skill'])}`}: Score ${String(roll?.score)} (${e['passed'] === true ? 'pass' : 'fail'}).`, e['roll'] ?? null);
    },
    'kleptonomicon.abilityUsed': (w, e) => {
      let next = w;
      const ch = e['characterId'];
      if (e['time'] === 'episodic' && typeof ch === 'string') {
        // What an Episodic ability grants lasts until the Episode ends.
        next = updateKlepto(w, (st) => ({ ...st, episodic: { ...st.episodic, [ch]: [...(st.episodic[ch] ?? []), str(e['name'])] } }));
      }
      const who = typeof e['combatant'] === 'string' ? nameOf(w, e['combatant']) : typeof ch === 'string' ? nameOf(w, ch) : 'someone';
      const cost = e['cost'] === 'beat' ? ' (a Beat)' : '';
      return log(next, e, 'kleptonomicon.ability', `${who} uses ${str(e['name'])}${cost}.`);
    },
    'kleptonomicon.resourceSet': (w, e) => {
      const ch = str(e['characterId']);
      const key = str(e['key']);
      const r: Resource = { value: Number(e['value']), max: Number(e['max']) };
      const next = updateKlepto(w, (st) => ({ ...st, resources: { ...st.resources, [ch]: { ...(st.resources[ch] ?? {}), [key]: r } } }));
      return log(next, e, 'kleptonomicon.resource', `${nameOf(w, ch)}: ${key} ${r.value}/${r.max}.`);
    },
    'kleptonomicon.freeActionTaken': (w, e) => {
      const id = str(e['combatant']);
      return log(updateKlepto(w, (st) => ({ ...st, freeActions: { ...st.freeActions, [id]: Number(e['count']) } })), e, 'kleptonomicon.free', `${nameOf(w, id)}: ${str(e['description'])}`);
    },
    'kleptonomicon.pauseEndedWithBeat': (w, e) => log(w, e, 'kleptonomicon.pause', `${nameOf(w, str(e['combatant']))} ends the Pause with a Beat (one Beat fewer on their next turn).`),
    'kleptonomicon.sheetSet': (w, e) => {
      const ch = str(e['characterId']);
      const c = own(w.characters, ch);
      if (c === undefined) return w;
      const stats = { ...c.stats, ...((e['stats'] ?? {}) as { [k: string]: Json }) };
      const next = { ...w, characters: { ...w.characters, [ch]: { ...c, stats } } };
      return log(next, e, 'kleptonomicon.sheet', `${nameOf(w, ch)}'s sheet: ${kleptoSheetLine(kleptoSheetOf(stats))}.`);
    },
    'kleptonomicon.xpAwarded': (w, e) => {
      const ch = str(e['characterId']);
      const n = Number(e['amount']);
      const next = updateKlepto(w, (st) => ({
        ...st,
        xp: { ...st.xp, [ch]: (st.xp[ch] ?? 0) + n },
        secondaryAwarded: e['reason'] === 'secondary goal' ? [...st.secondaryAwarded, ch] : st.secondaryAwarded,
      }));
      return log(next, e, 'kleptonomicon.xp', `${nameOf(w, ch)} gains ${n} Experience Point${Math.abs(n) === 1 ? '' : 's'} (${str(e['reason'])}).`);
    },
    'kleptonomicon.leveledUp': (w, e) => {
      const ch = str(e['characterId']);
      const next = updateKlepto(w, (st) => ({ ...st, levels: { ...st.levels, [ch]: Number(e['level']) }, xp: { ...st.xp, [ch]: (st.xp[ch] ?? 0) - Number(e['xpSpent']) } }));
      return log(next, e, 'kleptonomicon.level', `${nameOf(w, ch)} reaches level ${String(e['level'])}.`);
    },
    'kleptonomicon.resolutionPlayed': (w, e) => log(w, e, 'kleptonomicon.resolution', `Resolution scene${typeof e['characterId'] === 'string' ? ` (${nameOf(w, e['characterId'])})` : ''}: ${str(e['text'])}`),
    'kleptonomicon.episodeEnded': (w, e) => {
      const resets = Array.isArray(e['resets']) ? e['resets'] : [];
      const next = updateKlepto(w, (st) => {
        const resources: { [ch: string]: { [k: string]: Resource } } = Object.fromEntries(Object.entries(st.resources).map(([k, v]) => [k, { ...v }]));
        for (const r of resets) {
          if (r === null || typeof r !== 'object' || Array.isArray(r)) continue;
          const ch = str(r['characterId']);
          const key = str(r['key']);
          const cur = resources[ch]?.[key];
          if (cur !== undefined) resources[ch]![key] = { ...cur, value: Number(r['to']) };
        }
        return { ...st, phase: 'between', encounterPhase: null, episodic: {}, movement: {}, dashes: {}, freeActions: {}, prone: [], improvised: {}, looseOrder: null, resources };
      });
      return log(next, e, 'kleptonomicon.episodeEnded', `Episode ${String(e['episode'])} ends${e['halve'] === true ? ' (halved resets)' : ''}: resets done, Episodic effects expire.`);
    },
    'kleptonomicon.moved': (w, e) => {
      const id = str(e['combatant']);
      const style = str(e['style']);
      const units = Number(e['units']);
      const next = updateKlepto(w, (st) => withMovement(st, w, id, (tm) => { const r = planMove(tm, style, units); return r.ok ? r.value : tm; }));
      const oa = Array.isArray(e['opportunityAttackers']) ? (e['opportunityAttackers'] as string[]) : [];
      const tail = oa.length > 0 ? ` Opportunity Attack open to ${oa.map((x) => nameOf(w, x)).join(', ')}.` : '';
      return log(next, e, 'kleptonomicon.move', `${nameOf(w, id)} moves ${units}u by ${style} (${str(e['distance'])}).${tail}`);
    },
    'kleptonomicon.wentProne': (w, e) => {
      const id = str(e['combatant']);
      return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => { const r = planDropProne(tm); return r.ok ? r.value : tm; })), e, 'kleptonomicon.prone', `${nameOf(w, id)} drops Prone.`);
    },
    'kleptonomicon.stood': (w, e) => {
      const id = str(e['combatant']);
      return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => { const r = planStand(tm); return r.ok ? r.value : tm; })), e, 'kleptonomicon.stand', `${nameOf(w, id)} stands up (1u).`);
    },
    'kleptonomicon.dashed': (w, e) => {
      const id = str(e['combatant']);
      const outcome = str(e['outcome']);
      const round = Number(e['round']);
      const next = updateKlepto(w, (st) => {
        const prev = st.dashes[id];
        const count = prev !== undefined && prev.round === round ? prev.count + 1 : 1;
        const withDash = withMovement(st, w, id, (tm) => ({ ...tm, multiplier: outcome === 'tripled' ? 3 : outcome === 'doubled' ? Math.max(tm.multiplier, 2) : tm.multiplier }));
        return { ...withDash, dashes: { ...st.dashes, [id]: { round, count } } };
      });
      const words = outcome === 'doubled' ? 'doubles their movement' : outcome === 'tripled' ? 'passes the Athletics Test: triple movement' : 'fails the Athletics Test and is Slowed';
      return log(next, e, 'kleptonomicon.dash', `${nameOf(w, id)} Dashes and ${words}.`);
    },
    'kleptonomicon.styleGranted': (w, e) => {
      const id = str(e['combatant']);
      return log(updateKlepto(w, (st) => withMovement(st, w, id, (tm) => grantStyle(tm, str(e['style']), e['variant'] as StyleVariant))), e, 'kleptonomicon.style', `${nameOf(w, id)} may ${str(e['variant'])} ${str(e['style'])} this turn.`);
    },
    'kleptonomicon.movementInterrupted': (w, e) => {
      const id = str(e['combatant']);
      const next = updateKlepto(w, (st) => (st.movement[id] === undefined ? st : withMovement(st, w, id, (tm) => interruptStyle(tm, str(e['style'])))));
      const eff = str(e['effect']);
      const what = eff === 'fall' ? 'falls' : eff === 'float' ? 'floats up 1u a turn' : eff === 'sink' ? 'sinks 2u a turn' : 'is unaffected';
      return log(next, e, 'kleptonomicon.interrupted', `${nameOf(w, id)}'s ${str(e['style'])} is interrupted (${str(e['reason'])}): ${what}.`);
    },
    'kleptonomicon.maneuverRolled': (w, e) => {
      const roll = e['roll'] as { score?: number } | null;
      const hit = e['hit'];
      const verdict = hit === null ? 'the GM judges the hit' : hit === true ? 'hit: Slowed' : 'miss';
      return log(w, e, 'kleptonomicon.maneuver', `${nameOf(w, str(e['attackerId']))} tries an improvised maneuver on ${nameOf(w, str(e['targetId']))}: Score ${String(roll?.score)} (${verdict}).`);
    },

    // ---------------------------------------------------------- kernel events this ruleset follows
    'encounter.started': onState((st) => ({ ...st, phase: 'encounter', encounterPhase: 'initiative', secondaryAwarded: [], movement: {}, dashes: {}, freeActions: {} })),
    'encounter.turnStarted': onState((st, e, w) => {
      const id = str(e['id']);
      return {
        ...st,
        encounterPhase: st.encounterPhase === 'initiative' ? 'main' : st.encounterPhase,
        movement: { ...st.movement, [id]: startTurnMovement(stylesOf(w, id), st.prone.includes(id)) },
        freeActions: { ...st.freeActions, [id]: 0 },
      };
    }),
    'encounter.ended': onState((st) => ({ ...st, phase: 'encounter', encounterPhase: 'reward', movement: {}, freeActions: {} })),
  };

  function interruption(world: World, id: string, reason: string, heavy: boolean): EngineEvent {
    const st = getKlepto(world);
    const style = st.movement[id]?.active ?? 'walk';
    return { type: 'kleptonomicon.movementInterrupted', combatant: id, style, effect: interruptEffect(style, { heavy: heavy || sheet(world, id)['heavy'] === true }), reason };
  }

  // ------------------------------------------------------------ reactions

  const reactions: Reaction[] = [
    // One point of experience per Encounter for each PC who took part.
    (world, e) => {
      if (e.type !== 'encounter.ended') return [];
      const enc = getEncounter(world);
      const pcs = [...new Set(enc.roster.map((id) => own(enc.combatants, id)).filter((c) => c?.kind === 'pc' && c.characterId !== null && own(world.characters, c.characterId) !== undefined).map((c) => c!.characterId!))];
      return pcs.map((characterId) => ({ type: 'kleptonomicon.xpAwarded', characterId, amount: 1, reason: 'encounter' }));
    },
    // Two stacks of Slowed interrupt the active movement style.
    (world, e) => {
      if (e.type !== 'condition.applied' && e.type !== 'condition.stacked') return [];
      const target = e['target'];
      if (typeof target !== 'string') return [];
      const inst = Object.values(getEncounter(world).conditions).find((c) => c.target === target && c.defId === 'slowed');
      if (inst === undefined || inst.stacks < 2) return [];
      const before = e.type === 'condition.stacked' ? Number(e['from']) : 0;
      if (before >= 2) return [];
      return [interruption(world, target, 'two stacks of Slowed', false)];
    },
  ];

  // ------------------------------------------------------------ views

  /** A map of numbers as players read it: its numbers only. */
  const numbers = (m: { readonly [k: string]: number }): { [k: string]: number } => Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number'));
  /** A turn's movement, field by field. */
  const shownMovement = (m: TurnMovement): TurnMovement => ({
    styles: m.styles.map((x) => ({ style: x.style, variant: x.variant, ...(x.improvised === undefined ? {} : { improvised: x.improvised }) })),
    multiplier: m.multiplier,
    used: numbers(m.used),
    spent: m.spent,
    active: m.active,
    prone: m.prone,
    interrupted: m.interrupted.filter((x) => typeof x === 'string'),
  });

  // Default-deny (ADR 10): every field of the player's state is listed here; visibility is judged on the
  // unprojected world, so a character the core projector already removed counts as secret, not unknown.
  const project = (world: World, viewer: Viewer, source: World = world): World => {
    if (viewer.role === 'gm') return world;
    const st = getKlepto(world);
    const enc = getEncounter(world);
    // The kernel's projector has already removed hidden combatants: anyone not in the viewer's roster is secret.
    const secretC = (id: string): boolean => !Object.hasOwn(enc.combatants, id) || own(enc.combatants, id)!.visibility !== 'visible';
    const secretCh = (id: string): boolean => !Object.hasOwn(source.characters, id) || !canSee(own(source.characters, id)!.visibility, viewer);
    const dropC = <T>(m: { readonly [id: string]: T }): { [id: string]: T } => Object.fromEntries(Object.entries(m).filter(([id]) => !secretC(id)));
    const dropCh = <T>(m: { readonly [id: string]: T }): { [id: string]: T } => Object.fromEntries(Object.entries(m).filter(([id]) => !secretCh(id)));
    const view: KleptoState = {
      episode: st.episode,
      phase: st.phase,
      encounterPhase: st.encounterPhase,
      spotlight: st.spotlight,
      secondaryAwarded: st.secondaryAwarded.filter((id) => !secretCh(id)),
      // Records field by field (ADR 25): a key a record gains later stays with the GM.
      movement: Object.fromEntries(Object.entries(dropC(st.movement)).map(([id, m]) => [id, shownMovement(m)])),
      dashes: Object.fromEntries(Object.entries(dropC(st.dashes)).map(([id, d]) => [id, { round: d.round, count: d.count }])),
      freeActions: numbers(dropC(st.freeActions)),
      prone: st.prone.filter((id) => !secretC(id)),
      xp: numbers(dropCh(st.xp)),
      levels: numbers(dropCh(st.levels)),
      resources: Object.fromEntries(
        Object.entries(dropCh(st.resources)).map(([id, rs]) => [id, Object.fromEntries(Object.entries(rs).filter(([, r]) => r !== null && typeof r === 'object').map(([k, r]) => [k, { value: r.value, max: r.max }]))]),
      ),
      episodic: Object.fromEntries(Object.entries(dropCh(st.episodic)).map(([id, list]) => [id, list.filter((x) => typeof x === 'string')])),
      improvised: Object.fromEntries(
        Object.entries(st.improvised)
          .filter(([, r]) => !secretCh(r.characterId))
          .map(([k, r]) => [k, { id: r.id, characterId: r.characterId, description: r.description, status: r.status }]),
      ),
      looseOrder: st.looseOrder?.filter((id) => !secretCh(id)) ?? null,
      opening: {
        introduced: st.opening.introduced.filter((id) => !secretCh(id)),
        clips: Object.fromEntries(Object.entries(dropCh(st.opening.clips)).filter(([, c]) => typeof c === 'string')),
        coldOpen: st.opening.coldOpen,
      },
    };
    return { ...world, ext: { ...world.ext, [KLEPTO_ID]: view as unknown as Json } };
  };

  // The projector's rule for one id (ADR 18): entries keyed by a combatant or character go with it, an improvisation with its character.
  const idStatus = (world: World, viewer: Viewer, id: string): 'shown' | 'hidden' | undefined => {
    const st = getKlepto(world);
    const byC = own(st.movement, id) !== undefined || own(st.dashes, id) !== undefined;
    const byCh = own(st.resources, id) !== undefined || own(st.episodic, id) !== undefined;
    const improvised = own(st.improvised, id);
    if (!byC && !byCh && improvised === undefined) return undefined;
    if (viewer.role === 'gm') return 'shown';
    const seesCh = (x: string): boolean => {
      const ch = own(world.characters, x);
      return ch !== undefined && canSee(ch.visibility, viewer);
    };
    if (byC && own(getEncounter(world).combatants, id)?.visibility === 'visible') return 'shown';
    if (byCh && seesCh(id)) return 'shown';
    if (improvised !== undefined && seesCh(improvised.characterId)) return 'shown';
    return 'hidden';
  };

  const audience = Object.fromEntries(Object.keys(reducers).filter((t) => t.startsWith('kleptonomicon.')).map((t) => [t, audienceOf]));

  const projectReads: ProjectorReads = { reads: [`ext.${KLEPTO_ID}`, 'characters', 'ext.encounter'], writes: [`ext.${KLEPTO_ID}`] };
  return { id: KLEPTO_ID, commands, reducers, reactions, project, projectReads, idStatus, audience, queries: kleptoQueries };
}

export function describePhase(st: KleptoState): string {
  switch (st.phase) {
    case 'between':
      return 'the time between Episodes';
    case 'opening':
      return 'the Opening Credits';
    case 'freeplay':
      return 'Freeplay';
    case 'closing':
      return 'the Closing Credits';
    case 'encounter':
      return `the ${st.encounterPhase ?? 'main'} phase of an Encounter`;
  }
}
