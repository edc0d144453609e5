// An adversary's attack from its stat block (issue 20, ADR 40). Text 000
// defines adversary stat blocks with an attack modifier and damage but not how
// the attack is rolled; our reading (ADR 40, the published game's): d20 plus
// the attack modifier against the PC's Evasion, meeting it hits; a natural 20
// hits whatever the Evasion and adds the damage dice's maximum; advantage rolls
// a second d20 and keeps the higher (disadvantage the lower). The damage then
// goes through the PC's thresholds as daggerheart.takeDamage does. No Hope or
// Fear moves: 000 ties them to the PCs' duality rolls only.
import {
  audiencesOf,
  stored,
  characterId,
  declareCommand,
  declareQuery,
  err,
  FOE_SECRET,
  foeNumbersView,
  handlerOf,
  int,
  isFoeCharacter,
  ok,
  own,
  appendLog,
  AUDIENCE_ALL,
  AUDIENCE_GM,
  showsFoeNumbers,
  reducersOf,
  type Character,
  type EngineEvent,
  type EventAudience,
  type Evolve,
  type Json,
  type Query,
  type Reducer,
  type Result,
  type World,
} from '@tablekeeper/engine';
import { z } from 'zod';
import { diceOfText } from '../foe-sheets.js';
import { evasionOf, thresholdsOf, trackOf } from './rules.js';
import { daggerheartSettings } from './settings.js';
import { nameOf } from './state.js';
import { hitEvents } from './hit-choice.js';

const round = (p: number): number => Math.round(p * 1e12) / 1e12;

export const adversaryAttack = declareCommand('daggerheart.adversaryAttack', {
  summary: "An adversary attacks a PC: d20 + its attack vs the PC's Evasion, its damage through the PC's thresholds",
  who: 'gm',
  input: z.strictObject({
    attackerId: characterId('the adversary who attacks'),
    targetId: characterId('the PC it attacks'),
    advantage: int(-1, 1, '1: advantage (two d20, the higher), -1: disadvantage (the lower)').optional(),
    useArmor: z.boolean().meta({ description: "the PC marks an Armor Slot against the damage (omit: the PC's player chooses when hit)" }).optional(),
  }),
});

export const adversaryAttackOdds = declareQuery('daggerheart.adversaryAttackOdds', {
  summary: "Exact odds of an adversary's attack on a PC before the roll (hit, critical, the Evasion it needs)",
  who: 'gm',
  input: z.strictObject({ attackerId: characterId(), targetId: characterId(), advantage: int(-1, 1).optional(), useArmor: z.boolean().optional() }),
  result: z.looseObject({}),
});

/** What the roll reads off the two sheets: the adversary's attack and damage, the PC's Evasion. */
interface Sides {
  readonly attacker: Character;
  readonly target: Character;
  readonly attack: number;
  readonly evasion: number;
  readonly dice: { count: number; sides: number; bonus: number } | null;
}

const wholeNumber = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

function sidesOf(world: World, attackerId: string, targetId: string): Result<Sides> {
  const attacker = own(world.characters, attackerId);
  if (attacker === undefined) return err('NOT_FOUND', `attackerId: no character ${JSON.stringify(attackerId).slice(0, 40)}`, 'attackerId');
  if (attacker.stats['adversary'] !== true) return err('DH_NOT_AN_ADVERSARY', `${attacker.name} is not an adversary (add it from a stat block)`, 'attackerId');
  const target = own(world.characters, targetId);
  if (target === undefined) return err('NOT_FOUND', `targetId: no character ${JSON.stringify(targetId).slice(0, 40)}`, 'targetId');
  if (target.kind !== 'pc') return err('DH_NOT_A_PC', `${target.name} is not a PC: an adversary's attack goes against a PC's Evasion`, 'targetId');
  const evasion = evasionOf(target.stats);
  if (evasion === null) return err('DH_NO_EVASION', `${target.name}'s sheet has no Evasion to roll against (set it on the sheet)`, 'targetId');
  const text = typeof attacker.stats['damage'] === 'string' ? attacker.stats['damage'].trim() : '';
  const dice = text === '' ? null : diceOfText(text);
  if (text !== '' && dice === null) return err('DH_BAD_DAMAGE', `${attacker.name}'s damage "${text.slice(0, 40)}" is not dice such as 1d8+2 (fix it in its stat block)`, 'attackerId');
  return ok({ attacker, target, attack: wholeNumber(attacker.stats['attack']) ?? 0, evasion, dice });
}

/** Chance a d20 (with net advantage -1, 0 or 1) plus `attack` meets `evasion`, a natural 20 always hitting when crits are on. */
export function adversaryHitOdds(attack: number, evasion: number, advantage: number, crits: boolean): { hit: number; crit: number } {
  // One d20: each face 1/20. Two kept high: P(max = f) = (2f - 1) / 400; kept low: P(min = f) = (41 - 2f) / 400.
  const face = (f: number): number => (advantage > 0 ? (2 * f - 1) / 400 : advantage < 0 ? (41 - 2 * f) / 400 : 1 / 20);
  let hit = 0;
  for (let f = 1; f <= 20; f++) if (f + attack >= evasion || (crits && f === 20)) hit += face(f);
  return { hit: round(hit), crit: crits ? round(face(20)) : 0 };
}

export const adversaryAttackOddsQuery: Query = (world, args, viewer) => {
  const attackerId = args['attackerId'];
  const targetId = args['targetId'];
  if (typeof attackerId !== 'string') return err('INVALID_VALUE', 'attackerId must be a character id', 'attackerId');
  // The odds would give away the adversary's attack modifier (ADR 33): the GM's, until every number is shown.
  if (viewer.role !== 'gm' && !showsFoeNumbers(world)) return err(FOE_SECRET, `the GM keeps ${nameOf(world, attackerId)}'s attack secret`, 'attackerId');
  if (typeof targetId !== 'string') return err('INVALID_VALUE', 'targetId must be a character id', 'targetId');
  const adv = args['advantage'] ?? 0;
  if (adv !== -1 && adv !== 0 && adv !== 1) return err('INVALID_VALUE', 'advantage must be -1, 0 or 1', 'advantage');
  const s = sidesOf(world, attackerId, targetId);
  if (!s.ok) return s;
  const crits = daggerheartSettings(world).adversaryCrits;
  const o = adversaryHitOdds(s.value.attack, s.value.evasion, adv, crits);
  return ok({ ...o, attack: s.value.attack, evasion: s.value.evasion, needed: Math.max(1, Math.min(21, s.value.evasion - s.value.attack)), advantage: adv, damage: typeof s.value.attacker.stats['damage'] === 'string' ? s.value.attacker.stats['damage'] : '' });
};

export type AdversaryAttackEvent = {
  readonly type: 'daggerheart.adversaryAttacked';
  readonly attackerId: string;
  readonly targetId: string;
  /** The d20s rolled (two with advantage or disadvantage) and the one kept. */
  readonly d20: readonly number[];
  readonly natural: number;
  readonly advantage: number;
  readonly attack: number;
  readonly total: number;
  readonly evasion: number;
  readonly hit: boolean;
  readonly crit: boolean;
  /** The stat block's damage as written ("1d8+2"), its dice faces, and what a critical adds (the dice's maximum). */
  readonly damageDice: string;
  readonly damageRolls: readonly number[];
  readonly critBonus: number;
  readonly damage: number;
};

export const adversaryAttackCommands = {
  'daggerheart.adversaryAttack': handlerOf(adversaryAttack, {
    label: "roll an adversary's attack",
    decide(world, p, env) {
      const s = sidesOf(world, p.attackerId, p.targetId);
      if (!s.ok) return s;
      const { attacker, target, attack, evasion, dice } = s.value;
      const set = daggerheartSettings(world);
      const t = thresholdsOf(target.stats);
      // Refused before any die is rolled, so a roll never lands without somewhere to put its damage.
      if (t === null) return err('DH_NO_THRESHOLDS', `${target.name}'s sheet needs whole-number major and severe thresholds (severe at least major)`, 'targetId');
      const armor = trackOf(target.stats, 'armor', set.armorSlots);
      if (p.useArmor === true && armor.marked >= armor.slots) return err('DH_NO_ARMOR', `${target.name} has no unmarked Armor Slot (${armor.marked}/${armor.slots})`, 'useArmor');
      const advantage = p.advantage ?? 0;
      const d20 = advantage === 0 ? [env.rng.die(20)] : [env.rng.die(20), env.rng.die(20)];
      const natural = advantage > 0 ? Math.max(...d20) : advantage < 0 ? Math.min(...d20) : d20[0]!;
      const crit = set.adversaryCrits && natural === 20;
      const total = natural + attack;
      const hit = crit || total >= evasion;
      const damageRolls: number[] = [];
      if (hit && dice !== null) for (let i = 0; i < dice.count; i++) damageRolls.push(env.rng.die(dice.sides));
      const critBonus = crit && dice !== null ? dice.count * dice.sides : 0;
      const damage = hit && dice !== null ? Math.max(0, damageRolls.reduce((a, b) => a + b, 0) + dice.bonus + critBonus) : 0;
      const rolled: AdversaryAttackEvent = {
        type: 'daggerheart.adversaryAttacked',
        attackerId: attacker.id,
        targetId: target.id,
        d20,
        natural,
        advantage,
        attack,
        total,
        evasion,
        hit,
        crit,
        damageDice: typeof attacker.stats['damage'] === 'string' ? attacker.stats['damage'].trim() : '',
        damageRolls,
        critBonus,
        damage,
      };
      const events: EngineEvent[] = [stored(rolled)];
      if (hit && damage > 0) {
        // The same path as daggerheart.takeDamage: undecided, a hit an Armor Slot would lessen waits for the PC's choice (ADR 50).
        const landed = hitEvents(world, target, damage, p.useArmor, env);
        if (!landed.ok) return landed;
        events.push(...landed.value);
      }
      return ok(events);
    },
  }),
};

const signed = (n: number): string => (n < 0 ? `- ${-n}` : `+ ${n}`);

const evolve: Evolve<AdversaryAttackEvent> = {
  'daggerheart.adversaryAttacked': (w, e) => {
    const seen = seenAs(w, e.attackerId);
    const who = `${nameOf(w, e.attackerId)} attacked ${nameOf(w, e.targetId)}`;
    // One only known to exist is "Unknown" to players (as the encounter's own lines say it).
    const theirs = seen === 'existence' ? `Unknown attacked ${nameOf(w, e.targetId)}` : who;
    const kept = e.d20.length > 1 ? `d20 ${e.d20.join(' / ')} (${e.advantage > 0 ? 'advantage' : 'disadvantage'}: ${e.natural})` : `d20 ${e.natural}`;
    const outcome = e.crit ? 'a critical hit' : e.hit ? 'a hit' : 'a miss';
    const dmg = !e.hit ? '' : e.damageDice === '' ? ' (no damage on its stat block)' : `; ${e.damageDice}: [${e.damageRolls.join(', ')}]${e.critBonus > 0 ? ` + ${e.critBonus} (critical: the dice's maximum)` : ''} = ${e.damage} damage`;
    const text = `${who}: ${kept} ${signed(e.attack)} = ${e.total} vs Evasion ${e.evasion}, ${outcome}${dmg}.`;
    // Its attack modifier and damage dice are the GM's (ADR 33, ADR 40): players read the d20, the outcome and the damage dealt.
    const hideNumbers = isFoeCharacter(w, e.attackerId) && !showsFoeNumbers(w);
    const shown = hideNumbers ? `${theirs}: ${kept} vs Evasion ${e.evasion}, ${outcome}${e.hit && e.damage > 0 ? ` for ${e.damage} damage` : ''}.` : seen === 'existence' ? text.replace(who, theirs) : undefined;
    return appendLog(w, { audience: seen === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL, kind: 'daggerheart.attack', text, ...(shown === undefined ? {} : { shown }), data: { characterId: e.targetId, ...(e.hit && e.damage > 0 ? { damageTo: e.targetId } : {}) } });
  },
};

export const adversaryAttackReducers: Record<string, Reducer> = reducersOf(evolve);

/** How players know the attacker: not at all (hidden, or not yet revealed), only that it is there, or by name. */
function seenAs(w: World, id: unknown): 'hidden' | 'existence' | 'visible' {
  const v = typeof id === 'string' ? own(w.characters, id)?.visibility : undefined;
  return v === 'visible' ? 'visible' : v === 'existence' ? 'existence' : 'hidden';
}

export const ADVERSARY_ATTACK_AUDIENCE: { readonly [type: string]: EventAudience } = audiencesOf<AdversaryAttackEvent>({
  // A hidden adversary's attack is the GM's (the PC's damage line still follows the PC); one known to exist attacks in the open.
  'daggerheart.adversaryAttacked': (w, e) => (seenAs(w, e.attackerId) === 'hidden' ? AUDIENCE_GM : AUDIENCE_ALL),
});

export const ADVERSARY_ATTACK_EVENT_VIEW: { readonly [type: string]: (w: World, e: EngineEvent) => EngineEvent } = {
  'daggerheart.adversaryAttacked': foeNumbersView({ id: 'attackerId', numbers: ['attack', 'total', 'damageDice', 'damageRolls', 'critBonus'], foe: (w, id) => typeof id === 'string' && isFoeCharacter(w, id) }),
};
