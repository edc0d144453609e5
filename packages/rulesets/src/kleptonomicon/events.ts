// The Kleptonomicon's event union (STYLE "Type the events"): what each
// decider writes and each reducer in evolve.ts reads. Events arrive upcast
// (ADR 28: `klepto.*` types, `id`/`attacker`/`target`/`defence` fields), so
// only today's names appear here. `combatant` is a combatant id as the
// encounter kernel keys its turns; `characterId` a character's.
import type { Json } from '@tablekeeper/engine';
import type { InterruptEffect, StyleVariant } from './movement.js';
import type { EncounterPhase, EpisodePhase } from './phases.js';

type Id = string;

export type KleptoEvent =
  | { readonly type: 'kleptonomicon.episodeStarted'; readonly episode: number }
  | { readonly type: 'kleptonomicon.introduced'; readonly characterId: Id; readonly clip: string | null }
  | { readonly type: 'kleptonomicon.coldOpened'; readonly text: string }
  | { readonly type: 'kleptonomicon.phaseChanged'; readonly from: EpisodePhase; readonly to: EpisodePhase; readonly encounterFrom: EncounterPhase | null; readonly encounterTo: EncounterPhase | null }
  | { readonly type: 'kleptonomicon.looseOrderSet'; readonly order: Id[] | null }
  | { readonly type: 'kleptonomicon.spotlightPassed'; readonly to: number }
  | { readonly type: 'kleptonomicon.improvisationProposed'; readonly improvisationId: Id; readonly characterId: Id; readonly description: string }
  | { readonly type: 'kleptonomicon.improvisationRuled'; readonly improvisationId: Id; readonly characterId: Id; readonly ruling: 'simple' | 'test' | 'impossible'; readonly roll: Json; readonly passed?: boolean }
  | { readonly type: 'kleptonomicon.tested'; readonly characterId: Id; readonly skill: string | null; readonly roll: Json; readonly passed: boolean }
  | { readonly type: 'kleptonomicon.abilityUsed'; readonly combatant: Id | null; readonly characterId: Id | null; readonly abilityId: string; readonly name: string; readonly time: string; readonly cost: string; readonly announced: boolean }
  | { readonly type: 'kleptonomicon.resourceSet'; readonly characterId: Id; readonly key: string; readonly from: number | null; readonly value: number; readonly max: number; readonly reason: string }
  | { readonly type: 'kleptonomicon.freeActionTaken'; readonly combatant: Id; readonly description: string; readonly count: number }
  | { readonly type: 'kleptonomicon.pauseEndedWithBeat'; readonly combatant: Id; readonly ownTurn: boolean }
  | { readonly type: 'kleptonomicon.sheetSet'; readonly characterId: Id; readonly stats: { readonly [k: string]: Json } }
  | { readonly type: 'kleptonomicon.xpAwarded'; readonly characterId: Id; readonly amount: number; readonly reason: string }
  | { readonly type: 'kleptonomicon.leveledUp'; readonly characterId: Id; readonly level: number; readonly xpSpent: number }
  | { readonly type: 'kleptonomicon.resolutionPlayed'; readonly characterId: Id | null; readonly text: string }
  | {
      readonly type: 'kleptonomicon.episodeEnded';
      readonly episode: number;
      readonly halve: boolean;
      readonly resets: { readonly characterId: Id; readonly key: string; readonly from: number; readonly to: number }[];
      readonly expired: Json;
    }
  | { readonly type: 'kleptonomicon.moved'; readonly combatant: Id; readonly style: string; readonly units: number; readonly cost: number; readonly distance: string; readonly opportunityAttackers: Id[] }
  | { readonly type: 'kleptonomicon.wentProne'; readonly combatant: Id }
  | { readonly type: 'kleptonomicon.stood'; readonly combatant: Id }
  | { readonly type: 'kleptonomicon.dashed'; readonly combatant: Id; readonly round: number; readonly outcome: 'doubled' | 'tripled' | 'slowed'; readonly test: Json }
  | { readonly type: 'kleptonomicon.styleGranted'; readonly combatant: Id; readonly style: string; readonly variant: StyleVariant }
  | { readonly type: 'kleptonomicon.movementInterrupted'; readonly combatant: Id; readonly style: string; readonly effect: InterruptEffect; readonly reason: string }
  | { readonly type: 'kleptonomicon.maneuverRolled'; readonly attackerId: Id; readonly targetId: Id; readonly roll: Json; readonly defense: number | null; readonly hit: boolean | null }
  | {
      /** A Basic Attack, an ability's attack or the improvised maneuver (ADR 51): the Test, the Defense it met, every damage die. */
      readonly type: 'kleptonomicon.attackRolled';
      readonly attackerId: Id;
      readonly targetId: Id;
      /** The sheet ability used; null for the Basic Attack. */
      readonly abilityId: string | null;
      readonly name: string;
      readonly maneuver: boolean;
      readonly roll: Json;
      /** The Defense the Score had to reach; null when none was known (the GM judges the hit). */
      readonly defense: number | null;
      readonly hit: boolean | null;
      readonly damageDice: string | null;
      readonly damageRolls: number[];
      readonly damage: number;
      /** How far the target was said to be, in words (ADR 124); absent when unsaid. */
      readonly distance?: string;
    };
