// Marking an Armor Slot is the hit PC's player's choice (issue 20, ADR 50):
// a hit an Armor Slot would lessen waits as a pending hit until the player
// (on the phone) or the GM (for a PC without one) answers
// `daggerheart.answerHit`. The damage box and an adversary's attack both
// come through `hitEvents`; a command that names `useArmor` has decided and
// lands at once. `daggerheart.hitChoice` tells the chooser what each answer
// does before the click ("15 damage: severe (3 HP); mark an Armor Slot ->
// major (2 HP)").
import {
  asJson,
  audiencesOf,
  appendLog,
  claimId,
  declareCommand,
  declareQuery,
  err,
  handlerOf,
  mintId,
  ok,
  own,
  reducersOf,
  text,
  type Character,
  type EngineEvent,
  type Env,
  type EventAudience,
  type Evolve,
  type Query,
  type Reaction,
  type Reducer,
  type Result,
  type World,
} from '@tablekeeper/engine';
import { z } from 'zod';
import { armored, SEVERITY_WORDS, severityOf, thresholdsOf, trackOf, type Severity } from './rules.js';
import { daggerheartSettings } from './settings.js';
import { characterAudience, controls, FORBIDDEN, getDaggerheart, nameOf, setDaggerheart, withStats, type PendingHit } from './state.js';

/** Hits a table may hold waiting for their Armor choice. */
export const MAX_PENDING_HITS = 20;

const hitId = () => text(64, 'the pending hit (from the hit choice)').min(1);

export const answerHit = declareCommand('daggerheart.answerHit', {
  summary: "Answer a hit waiting on a PC: mark an Armor Slot against it, or take it as it is",
  who: 'own-character',
  input: z.strictObject({ hitId: hitId(), markArmor: z.boolean().meta({ description: 'mark an Armor Slot (one step less severe)' }) }),
});

export const hitChoice = declareQuery('daggerheart.hitChoice', {
  summary: 'What each answer to a waiting hit does: the severity and HP with and without an Armor Slot, and the slots left',
  who: 'own-character',
  input: z.strictObject({ hitId: hitId() }),
  result: z.looseObject({}),
});

/** The damage record of one hit on `target`, as daggerheart.takeDamage has always written it. */
export function damageEvent(world: World, target: Character, amount: number, useArmor: boolean): Result<EngineEvent> {
  const t = thresholdsOf(target.stats);
  if (t === null) return err('DH_NO_THRESHOLDS', `${target.name}'s sheet needs whole-number major and severe thresholds (severe at least major)`, 'characterId');
  const set = daggerheartSettings(world);
  const raw = severityOf(amount, t, set.massiveDamage);
  const armor = trackOf(target.stats, 'armor', set.armorSlots);
  if (useArmor && armor.marked >= armor.slots) return err('DH_NO_ARMOR', `${target.name} has no unmarked Armor Slot (${armor.marked}/${armor.slots})`, 'useArmor');
  // An Armor Slot only helps against a hit that would mark HP.
  const armorUsed = useArmor && raw > 0;
  const marks: Severity = armorUsed ? armored(raw) : raw;
  const hp = trackOf(target.stats, 'hp', set.hpSlots);
  return ok({
    type: 'daggerheart.damageTaken',
    characterId: target.id,
    amount,
    major: t.major,
    severe: t.severe,
    severity: raw,
    marks,
    armorUsed,
    armorFrom: armor.marked,
    armorTo: armorUsed ? armor.marked + 1 : armor.marked,
    hpFrom: hp.marked,
    hpTo: Math.min(hp.slots, hp.marked + marks),
  });
}

/** Whether the hit waits for its PC's choice: undecided, a PC, an Armor Slot left, and a severity the slot would lower. */
function waits(world: World, target: Character, amount: number, useArmor: boolean | undefined): boolean {
  if (useArmor !== undefined || target.kind !== 'pc' || !daggerheartSettings(world).armorChoice) return false;
  const t = thresholdsOf(target.stats);
  if (t === null) return false;
  const armor = trackOf(target.stats, 'armor', daggerheartSettings(world).armorSlots);
  return armor.marked < armor.slots && severityOf(amount, t, daggerheartSettings(world).massiveDamage) > 0;
}

/**
 * A hit on `target`: the damage at once (the command decided on Armor, or
 * there is nothing to choose), else a pending hit for the PC's player.
 */
export function hitEvents(world: World, target: Character, amount: number, useArmor: boolean | undefined, env: Env): Result<EngineEvent[]> {
  if (!waits(world, target, amount, useArmor)) {
    const e = damageEvent(world, target, amount, useArmor === true);
    return e.ok ? ok([e.value]) : e;
  }
  const pending = getDaggerheart(world).hits ?? {};
  if (Object.keys(pending).length >= MAX_PENDING_HITS) return err('LIMIT_EXCEEDED', `${MAX_PENDING_HITS} hits already wait for their Armor choice; answer them first`, 'characterId');
  const [id] = mintId(world, 'hit', env.rng);
  const hit: PendingHit = { id, characterId: target.id, amount };
  return ok([{ type: 'daggerheart.hitPending', hit: { ...hit } } satisfies HitEvent]);
}

export type HitEvent =
  | { readonly type: 'daggerheart.hitPending'; readonly hit: { readonly id: string; readonly characterId: string; readonly amount: number } }
  /** The hit is answered (the damage record follows in the same transaction), or dropped with its PC gone; `atEnd`: settled by the conflict's end. */
  | { readonly type: 'daggerheart.hitAnswered'; readonly hitId: string; readonly characterId: string; readonly markArmor: boolean; readonly atEnd?: boolean };

function pendingOf(world: World, id: string): Result<PendingHit> {
  const h = own(getDaggerheart(world).hits ?? {}, id);
  return h === undefined ? err('NOT_FOUND', `no hit waiting for an answer ${JSON.stringify(id).slice(0, 40)} (answered already?)`, 'hitId') : ok(h);
}

export const hitChoiceCommands = {
  'daggerheart.answerHit': handlerOf(answerHit, {
    label: 'answer a hit',
    authorize(world, p, actor) {
      const h = own(getDaggerheart(world).hits ?? {}, p.hitId);
      // A hit no longer waiting is refused by decide, in words (answered already?).
      return actor.role === 'gm' || h === undefined || controls(world, actor, h.characterId) ? null : FORBIDDEN;
    },
    decide(world, p) {
      const h = pendingOf(world, p.hitId);
      if (!h.ok) return h;
      const answered: EngineEvent = { type: 'daggerheart.hitAnswered', hitId: h.value.id, characterId: h.value.characterId, markArmor: p.markArmor } satisfies HitEvent;
      const target = own(world.characters, h.value.characterId);
      // Its PC has left the table: the hit goes with them.
      if (target === undefined) return ok([answered]);
      const e = damageEvent(world, target, h.value.amount, p.markArmor);
      if (!e.ok) return err(e.error.code, e.error.message, e.error.code === 'DH_NO_ARMOR' ? 'markArmor' : 'hitId');
      return ok([answered, e.value]);
    },
  }),
};

/** One answer as the chooser reads it: the severity, the HP it marks, and whether it can be chosen. */
interface HitOption {
  readonly markArmor: boolean;
  readonly severity: string;
  readonly hp: number;
  readonly allowed: boolean;
  readonly text: string;
  readonly reason?: string;
}

const hpWords = (n: number): string => `${n} HP`;

export const hitChoiceQuery: Query = (world, args, viewer) => {
  const id = args['hitId'];
  if (typeof id !== 'string') return err('INVALID_VALUE', 'hitId must be a pending hit id', 'hitId');
  const h = pendingOf(world, id);
  if (!h.ok) return h;
  if (viewer.role !== 'gm' && !controls(world, viewer, h.value.characterId)) return err('FORBIDDEN', `only the GM or ${nameOf(world, h.value.characterId)}'s player answers this hit`, 'hitId');
  const target = own(world.characters, h.value.characterId);
  const t = target === undefined ? null : thresholdsOf(target.stats);
  if (target === undefined || t === null) return err('NOT_FOUND', 'the hit PC has left or has no thresholds', 'hitId');
  const set = daggerheartSettings(world);
  const raw = severityOf(h.value.amount, t, set.massiveDamage);
  const armor = trackOf(target.stats, 'armor', set.armorSlots);
  const hp = trackOf(target.stats, 'hp', set.hpSlots);
  const left = armor.slots - armor.marked;
  const lower = armored(raw);
  const take: HitOption = { markArmor: false, severity: SEVERITY_WORDS[raw], hp: raw, allowed: true, text: `Take it: ${SEVERITY_WORDS[raw]} (${hpWords(raw)})` };
  const mark: HitOption = {
    markArmor: true,
    severity: SEVERITY_WORDS[lower],
    hp: lower,
    allowed: left > 0,
    text: `Mark an Armor Slot (${left} of ${armor.slots} left): ${SEVERITY_WORDS[lower]} (${hpWords(lower)})`,
    ...(left > 0 ? {} : { reason: 'no Armor Slot left' }),
  };
  const summary = `${h.value.amount} damage: ${SEVERITY_WORDS[raw]} (${hpWords(raw)}); mark an Armor Slot -> ${SEVERITY_WORDS[lower]} (${hpWords(lower)})`;
  return ok(asJson({ hitId: h.value.id, characterId: target.id, name: target.name, amount: h.value.amount, major: t.major, severe: t.severe, hpMarked: hp.marked, hpSlots: hp.slots, armorLeft: left, armorSlots: armor.slots, summary, options: [mark, take] }));
};

const evolve: Evolve<HitEvent> = {
  'daggerheart.hitPending': (w, e) => {
    const s = getDaggerheart(w);
    const hit: PendingHit = { id: e.hit.id, characterId: e.hit.characterId, amount: e.hit.amount };
    const next = claimId(setDaggerheart(w, { ...s, hits: { ...(s.hits ?? {}), [hit.id]: hit } }), hit.id);
    const who = nameOf(w, hit.characterId);
    return appendLog(next, { audience: characterAudience(w, hit.characterId), kind: 'daggerheart.hitPending', text: `${who} is hit for ${hit.amount} damage: ${who} chooses whether to mark an Armor Slot.`, data: { characterId: hit.characterId, hitId: hit.id } });
  },
  'daggerheart.hitAnswered': (w, e) => {
    const s = getDaggerheart(w);
    if (own(s.hits ?? {}, e.hitId) === undefined) return w;
    const hits = { ...s.hits };
    delete hits[e.hitId];
    const next = setDaggerheart(w, { ...s, hits });
    // Settled by the end: say so, before the damage line that follows.
    if (e.atEnd !== true || own(w.characters, e.characterId) === undefined) return next;
    const who = nameOf(w, e.characterId);
    return appendLog(next, { audience: characterAudience(w, e.characterId), kind: 'daggerheart.hitPending', text: `The conflict ends before ${who} chooses: the hit lands with no Armor Slot marked.`, data: { characterId: e.characterId } });
  },
};

export const hitChoiceReducers: Record<string, Reducer> = reducersOf(evolve);

/**
 * The end of a conflict settles every hit still waiting on its Armor choice (ADR 79, as ADR 76 does for the
 * teams' reactions): the choice is made when the damage lands, so a hit nobody answered lands as it is, with
 * no Armor Slot marked (the undecided case of ADR 50), never in the next conflict. One undo takes back both.
 */
export const settleHitsAtEnd: Reaction = (world, e) => {
  if (e.type !== 'encounter.ended') return [];
  const waiting = Object.values(getDaggerheart(world).hits ?? {}).sort((a, b) => (a.id < b.id ? -1 : 1));
  const out: EngineEvent[] = [];
  let now = world;
  for (const h of waiting) {
    out.push({ type: 'daggerheart.hitAnswered', hitId: h.id, characterId: h.characterId, markArmor: false, atEnd: true } satisfies HitEvent);
    const target = own(now.characters, h.characterId);
    const landed = target === undefined ? null : damageEvent(now, target, h.amount, false);
    if (landed === null || !landed.ok) continue;
    out.push(landed.value);
    // Two hits on one PC mark on from the first (the reducers apply them in this order).
    const hpTo = landed.value['hpTo'];
    if (typeof hpTo === 'number') now = withStats(now, h.characterId, { hpMarked: hpTo });
  }
  return out;
};

export const HIT_CHOICE_AUDIENCE: { readonly [type: string]: EventAudience } = audiencesOf<HitEvent>({
  'daggerheart.hitPending': (w, e) => characterAudience(w, e.hit.characterId),
  'daggerheart.hitAnswered': (w, e) => characterAudience(w, e.characterId),
});
