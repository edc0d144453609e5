// 004 "Phases of Play": an Episode moves through Opening Credits, Freeplay,
// Encounters (Initiative, Main, Pause, Reward) and Closing Credits. Each phase
// limits which abilities may be used and how their times count.
import type { RuleError } from '@tablekeeper/engine';

export type EpisodePhase = 'between' | 'opening' | 'freeplay' | 'encounter' | 'closing';
export type EncounterPhase = 'initiative' | 'main' | 'pause' | 'reward';

/**
 * Ability times. The excerpt announces five with symbols but omits the list; we
 * keep what it does say: some need a Beat, some are free, some are reactions,
 * some take minutes or longer, and Episodic abilities are used in the Opening Credits.
 */
export type AbilityTime = 'beat' | 'free' | 'beatReaction' | 'freeReaction' | 'long' | 'episodic';

export const ABILITY_TIMES: readonly AbilityTime[] = ['beat', 'free', 'beatReaction', 'freeReaction', 'long', 'episodic'];

/** Recovery abilities that open up in the Reward phase (and Freeplay). */
export const RECOVERY_ABILITIES = ['dodgesUp', 'shieldsUp', 'healUp'] as const;

export interface Ability {
  readonly id: string;
  readonly name: string;
  readonly time: AbilityTime;
  /** For 'long' abilities: how many in-fiction seconds they take. */
  readonly seconds?: number;
  /** dodgesUp / shieldsUp / healUp for the recovery abilities. */
  readonly recovery?: (typeof RECOVERY_ABILITIES)[number];
  /** An ability that attacks (ADR 51): a Test against a target's Defense, then its effects on a hit. */
  readonly attack?: boolean;
  /** The attack's Test modifier. */
  readonly modifier?: number;
  /** Damage dice on a hit ("1d6+1"). */
  readonly damage?: string;
  /** Stacks of Slowed a hit inflicts (004: two interrupt movement). */
  readonly slowed?: number;
  /** A hit interrupts the target's movement (004: some abilities say so). */
  readonly interrupts?: boolean;
  /** How far the attack reaches, a distance key (ADR 124); none: Swinging Distance. */
  readonly reach?: string;
}

/** Ability times in words (the sheet editor and the actions' costs). */
export const ABILITY_TIME_WORDS: { readonly [t in AbilityTime]: string } = {
  beat: '1 Beat',
  free: 'Free',
  beatReaction: '1 Beat (a reaction)',
  freeReaction: 'Free (a reaction)',
  long: 'Minutes or longer',
  episodic: 'Episodic',
};

/** The recovery abilities in words. */
export const RECOVERY_WORDS: { readonly [r in (typeof RECOVERY_ABILITIES)[number]]: string } = { dodgesUp: 'Dodges Up', shieldsUp: 'Shields Up', healUp: 'Heal Up' };

export const needsBeat = (t: AbilityTime): boolean => t === 'beat' || t === 'beatReaction';
export const isReaction = (t: AbilityTime): boolean => t === 'beatReaction' || t === 'freeReaction';

/** Which phase changes the GM may make, and from where. */
export const EPISODE_TRANSITIONS: { readonly [to in EpisodePhase]: readonly EpisodePhase[] } = {
  opening: ['between'],
  freeplay: ['opening', 'encounter'],
  encounter: ['freeplay'],
  closing: ['freeplay'],
  between: ['closing'],
};

export const ENCOUNTER_TRANSITIONS: { readonly [to in EncounterPhase]: readonly (EncounterPhase | null)[] } = {
  initiative: [null],
  main: ['initiative', 'pause'],
  pause: ['main'],
  reward: ['main', 'pause'],
};

/**
 * Why no Encounter may start in this Episode phase (004 "Phases of Play": the
 * Opening Credits allow only Episodic abilities, the Closing Credits wind the
 * Episode down, and a fight is one of an Episode's phases). Between Episodes is
 * open only to a table that never started an Episode (`episodes` 0): scripts,
 * imports, older tables and GMs who do not play Episodes live there (ADR 74,
 * ADR 81). Once a table has played one, its fights happen inside the next.
 */
export function encounterStartRefusal(phase: EpisodePhase, episodes = 0): RuleError | null {
  if (phase === 'between' && episodes > 0)
    return { code: 'BETWEEN_EPISODES', message: 'no Encounter starts between Episodes once the table plays them: start the next Episode, go to Freeplay, then start it' };
  if (phase === 'opening') return { code: 'OPENING_CREDITS', message: 'no Encounter starts during the Opening Credits: go to Freeplay first, then start it' };
  if (phase === 'closing') return { code: 'CLOSING_CREDITS', message: 'no Encounter starts during the Closing Credits: end this Episode and start the next one for another Encounter' };
  return null;
}

const refuse = (code: string, message: string): RuleError => ({ code, message, path: 'abilityId' });

export interface UseContext {
  readonly phase: EpisodePhase;
  readonly encounterPhase: EncounterPhase | null;
  /** In the Main phase: is it the user's own turn? */
  readonly ownTurn: boolean;
}

/**
 * Whether an ability may be used now, and how its time counts:
 * - 'beat': spend a Beat; 'free': no cost; 'clock': advance the clock by its seconds.
 */
export function abilityUse(ability: Ability, ctx: UseContext): { ok: true; cost: 'beat' | 'free' | 'clock' } | { ok: false; error: RuleError } {
  switch (ctx.phase) {
    case 'between':
      return { ok: false, error: refuse('NO_EPISODE', 'no Episode is running: start one first') };
    case 'opening':
      // Only Episodic abilities in the Opening Credits.
      return ability.time === 'episodic' ? { ok: true, cost: 'free' } : { ok: false, error: refuse('OPENING_CREDITS', `only Episodic abilities may be used during the Opening Credits (${ability.name} is not one)`) };
    case 'freeplay':
    case 'closing':
      // Ability times are ignored in Freeplay unless they take minutes or longer.
      return { ok: true, cost: ability.time === 'long' ? 'clock' : 'free' };
    case 'encounter':
      break;
  }
  switch (ctx.encounterPhase) {
    case 'initiative':
      return { ok: false, error: refuse('INITIATIVE_PHASE', 'the turn order is still being set: no abilities yet') };
    case 'pause':
      // The Pause works like Freeplay (every use is announced).
      return { ok: true, cost: ability.time === 'long' ? 'clock' : 'free' };
    case 'reward':
      if (ability.recovery !== undefined) return { ok: true, cost: 'free' };
      return { ok: false, error: refuse('REWARD_PHASE', 'only Dodges Up, Shields Up and Heal Up are used in the Reward phase; return to Freeplay for the rest') };
    case 'main':
    case null:
      break;
  }
  if (ability.time === 'episodic') return { ok: false, error: refuse('EPISODIC', 'Episodic abilities are used in the Opening Credits') };
  if (ability.time === 'long') return { ok: false, error: refuse('TOO_LONG', `${ability.name} takes minutes or longer: not within a 6-second turn`) };
  if (!isReaction(ability.time) && !ctx.ownTurn) return { ok: false, error: refuse('NOT_YOUR_TURN', `${ability.name} is used on your own turn (only reactions are used outside it)`) };
  return { ok: true, cost: needsBeat(ability.time) ? 'beat' : 'free' };
}
