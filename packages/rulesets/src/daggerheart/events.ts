// Daggerheart's event union (STYLE "Type the events"): what the action roll,
// Hope and Fear, roll requests and the spotlight write, beside the trackers'
// own union (trackers.ts). Fields that tables stored before roll requests
// never carried are optional; each reader says what their absence means.
import type { DualityRoll } from '@tablekeeper/engine';
import type { RollRequest } from './selectors.js';
import type { TrackerEvent } from './trackers.js';

type Id = string;

/** The events module.ts writes and reduces. */
export type RollEvent =
  | {
      readonly type: 'daggerheart.actionRolled';
      readonly characterId: Id | null;
      readonly label: string;
      readonly reaction: boolean;
      readonly advantageSources: number;
      readonly helpers: readonly Id[];
      /** The duality roll as rolled, difficulty included; `keptHighest` when helpers' d6 were thrown on advantage (ADR 50). */
      readonly roll: DualityRoll & { readonly keptHighest?: boolean };
      /** Absent before roll requests: the difficulty was never hidden. */
      readonly hidden?: boolean;
      readonly requestId?: Id | null;
      /** The trait rolled, when one was named; its absence (and events stored before it) keeps the "X makes ..." words. */
      readonly trait?: string;
      /** The adversary rolled against (its Difficulty is the roll's), and the label players read when they may not know it (ADR 79). */
      readonly targetId?: Id;
      readonly shownLabel?: string;
    }
  /** What players receive of a roll against a hidden difficulty: the roll without it. */
  | { readonly type: 'daggerheart.actionRollShown'; readonly characterId: Id | null; readonly label: string; readonly requestId: Id | null; readonly roll: Omit<DualityRoll, 'difficulty'> & { readonly keptHighest?: boolean } }
  /** The request as stored. */
  | { readonly type: 'daggerheart.rollRequested'; readonly request: RollRequest }
  | { readonly type: 'daggerheart.requestCancelled'; readonly requestId: Id; readonly characterId: Id }
  /** The player's ask (a `RollRequest` awaiting its difficulty), and the GM's answer to it (ADR 50). */
  | { readonly type: 'daggerheart.rollAsked'; readonly request: RollRequest }
  | {
      readonly type: 'daggerheart.difficultySet';
      readonly requestId: Id;
      readonly characterId: Id;
      readonly difficulty: number;
      readonly hidden: boolean;
      readonly advantage: number;
      readonly modifier: number;
      readonly experience: { readonly name: string; readonly bonus: number } | null;
    }
  | { readonly type: 'daggerheart.hopeGained'; readonly characterId: Id; readonly amount: number; readonly from: number; readonly to: number; readonly capped: boolean; readonly reason: string }
  | { readonly type: 'daggerheart.hopeSpent'; readonly characterId: Id; readonly amount: number; readonly from: number; readonly to: number; readonly reason: string }
  | { readonly type: 'daggerheart.helpOffered'; readonly helperId: Id; readonly targetId: Id }
  | {
      readonly type: 'daggerheart.fearGained';
      readonly amount: number;
      readonly from: number;
      readonly to: number;
      readonly capped: boolean;
      readonly reason: string;
      /** A rest's 1d4, and the PCs a long rest adds (absent on events stored before the line showed them). */
      readonly dice?: readonly number[];
      readonly pcs?: number;
    }
  | { readonly type: 'daggerheart.fearSpent'; readonly amount: number; readonly from: number; readonly to: number; readonly reason: string };

/** The spotlight's one event: who holds it now (the kernel's turn events carry the rest). */
export type SpotlightEvent =
  | { readonly type: 'daggerheart.spotlightPassed'; readonly combatantId: Id }
  /** A roll with Fear took the spotlight from its holder to the GM (ADR 50); encounter.turnEnded follows. */
  | { readonly type: 'daggerheart.spotlightToGm'; readonly combatantId: Id };

export type DaggerheartEvent = RollEvent | TrackerEvent | SpotlightEvent;
