// The OSR event union (STYLE "Type the events"): what each command writes and
// each reducer reads, under the command vocabulary's names (docs/vocabulary.md):
// a creature is `characterId` (or its role: `attackerId`, `targetId`,
// `helperId`), a combatant `combatantId`, a light source `sourceId`, a
// corruption `corruptionId`. Events stored under the old names are renamed on
// load by `osrEventFields` and, inside their records, `osrEventRecords` (ADR 28,
// ADR 39), so reducers see only these.
import type { EngineEvent, Json, Renamed } from '@tablekeeper/engine';
import type { Ability, CheckResult } from './checks.js';
import type { AttackKind, DamageRecord } from './combat.js';
import type { Cadence, Coin, LightLevel, LightSourceKind, Quarter, ThreatBand } from './exploration.js';
import type { Corruption } from './state.js';

type Id = string;

/** One rester's HP before and after a rest (stored as `id` before ADR 39). */
export interface Heal {
  readonly characterId: Id;
  readonly from: number;
  readonly to: number;
}

/** A corruption as its infection records it: the state's record under the vocabulary's names (`id`, `target` before ADR 39). */
export type Infection = Omit<Corruption, 'id' | 'target'> & { readonly corruptionId: Id; readonly characterId: Id };

export const infectionOf = (c: Corruption): Infection => {
  const { id, target, ...rest } = c;
  return { corruptionId: id, characterId: target, ...rest };
};

export const corruptionOf = (i: Infection): Corruption => {
  const { corruptionId, characterId, ...rest } = i;
  return { id: corruptionId, target: characterId, ...rest };
};
/** A d20 check as `resolveCheck` answered it (dice, natural, modifier, total, dc, success, shortfall): every stored roll has this shape. */
type Roll = CheckResult;
type Reasons = string[];

export type OsrEvent =
  // sheets, checks and combat
  | { readonly type: 'osr.sheetSet'; readonly characterId: Id; readonly stats: { readonly [field: string]: Json } }
  | { readonly type: 'osr.checked'; readonly characterId: Id | null; readonly label: string; readonly kind: string; readonly roll: Roll; readonly reasons: Reasons; readonly impossible: boolean }
  | {
      readonly type: 'osr.attacked';
      readonly attackerId: Id;
      readonly targetId: Id;
      readonly kind: AttackKind;
      readonly delivery: 'melee' | 'ranged';
      readonly range: 'close' | 'ranged' | 'far';
      readonly roll: Roll;
      readonly reasons: Reasons;
      readonly hit: boolean;
      readonly crit: boolean;
      readonly ac: number;
      /** On a hit: the damage dice, faces, bonus (with the ability modifier it holds), doubling and total. */
      readonly damage?: DamageRecord;
    }
  | {
      readonly type: 'osr.damageRolled';
      readonly targetId: Id;
      readonly dice: string;
      readonly faces: number[];
      readonly bonus: number;
      readonly doubled: boolean;
      /** Why it doubled, when a natural 1 did it (001 "Critical Failure"). */
      readonly doubledBy?: 'natural 1';
      readonly total: number;
      /** What dealt it, in words. */
      readonly source: string;
    }
  | { readonly type: 'osr.healRolled'; readonly targetId: Id; readonly dice: string; readonly faces: number[]; readonly total: number; readonly source: 'magic' | 'medicine' }
  | { readonly type: 'osr.hpChanged'; readonly characterId: Id; readonly from: number; readonly to: number; readonly reason: string }
  // dying and recovery
  | { readonly type: 'osr.downed'; readonly characterId: Id; readonly at: number; readonly fight: boolean }
  | { readonly type: 'osr.stabilized'; readonly targetId: Id; readonly helperId: Id | null; readonly method: string }
  | {
      readonly type: 'osr.injuryRolled';
      readonly characterId: Id;
      readonly d20: number;
      readonly extra: number | null;
      readonly row: string;
      readonly dead: boolean;
      readonly hp: number;
      readonly abilityLoss: { readonly ability: Ability; readonly amount: number; readonly from: number; readonly to: number } | null;
    }
  | { readonly type: 'osr.bodyPartLost'; readonly characterId: Id; readonly part: string }
  | { readonly type: 'osr.abilityChanged'; readonly characterId: Id; readonly ability: Ability; readonly from: number; readonly to: number; readonly reason: string }
  | { readonly type: 'osr.died'; readonly characterId: Id; readonly reason: string }
  | { readonly type: 'osr.leftUnconscious'; readonly characterId: Id }
  | {
      readonly type: 'osr.rested';
      readonly kind: 'safe' | 'unsafe';
      readonly nights: number;
      readonly fed: boolean;
      readonly characterIds: Id[];
      /** Each rester's HP before and after. */
      readonly heals: Heal[];
      readonly recovered: Id[];
    }
  | { readonly type: 'osr.hid'; readonly characterId: Id }
  | { readonly type: 'osr.revealed'; readonly characterId: Id; readonly reason: string }
  | { readonly type: 'osr.treated'; readonly characterId: Id }
  // exploration, light and time
  | {
      readonly type: 'osr.travelTurnRolled';
      readonly dice: number[];
      readonly approach: 'cautious' | 'normal' | 'careless';
      readonly natural: number;
      readonly band: ThreatBand;
      readonly prompts: string[];
      readonly cadence: Cadence;
      readonly turnsOut: number;
      readonly hour: number;
    }
  | { readonly type: 'osr.sceneCounted'; readonly scenes: number }
  | { readonly type: 'osr.returned'; readonly from: number }
  | { readonly type: 'osr.lightSet'; readonly level: LightLevel; readonly from: LightLevel }
  | { readonly type: 'osr.sourceLit'; readonly sourceId: Id; readonly kind: LightSourceKind; readonly characterId: Id | null; readonly label: string; readonly burnsOutAt: number }
  | { readonly type: 'osr.sourceDoused'; readonly sourceId: Id; readonly remaining: number }
  | { readonly type: 'osr.sourceBurnedOut'; readonly sourceId: Id; readonly at: number }
  | { readonly type: 'osr.timeRolled'; readonly faces: number[]; readonly from: number; readonly sum: number; readonly hour: number; readonly quarter: Quarter; readonly use: 'clock' | 'duration' | 'show' }
  | {
      readonly type: 'osr.returnRolled';
      readonly characterId: Id;
      readonly path: 'dangerous' | 'arduous';
      readonly dc: number;
      readonly roll: Roll;
      readonly reasons: Reasons;
      /** An arduous path's failure: loads of gear dropped on the way. */
      readonly loadLost?: number;
      /** An arduous path's failure paid (partly) from the purse (ADR 111): the coins dropped and the loads they were. */
      readonly purseLost?: { readonly cp: number; readonly sp: number; readonly gp: number; readonly loads: number };
      /** The GM's choice on an arduous path: the purse before the gear (absent: after it). */
      readonly purseFirst?: true;
      /** A dangerous path's failure: 1d6 per point under the DC. */
      readonly damage?: { readonly faces: number[]; readonly total: number; readonly doubled: boolean };
    }
  | { readonly type: 'osr.traveled'; readonly mode: 'overland' | 'river' | 'sea'; readonly days: number; readonly milesPerDay: number; readonly miles: number }
  /** `paidWith`: the pool that bought this move's movement action when it was not the movement action (absent before ADR 44). */
  | { readonly type: 'osr.moved'; readonly combatantId: Id; readonly characterId: Id | null; readonly feet: number; readonly mode: string; readonly cost: number; readonly used: number; readonly budget: number; readonly paidWith?: string }
  /** 001 "Quick Actions": what was done, and the pool that paid when it was not the quick action. */
  | { readonly type: 'osr.quickTaken'; readonly combatantId: Id; readonly characterId: Id | null; readonly what: string; readonly paidWith: string }
  | { readonly type: 'osr.strained'; readonly characterId: Id; readonly hours: number; readonly reason: string }
  // hazards, retreat and treasure
  /** `side`: the fight side a check rolled as a side speaks for (absent for a group, one alone, or events stored before it). */
  | { readonly type: 'osr.moraleRolled'; readonly characterId: Id; readonly group: Id[]; readonly trigger: string; readonly roll: Roll; readonly reasons: Reasons; readonly held: boolean; readonly side?: string; readonly why?: string }
  /** `side`: whose morale the prompt is about (the fallen's side; absent in prompts stored before it). */
  | { readonly type: 'osr.moralePrompted'; readonly trigger: string; readonly text: string; readonly side?: string }
  /** 001 "Death & Injury" at a fight's end: who died (not stabilized by then), who is still dying, who stands. */
  | {
      readonly type: 'osr.fightSummarized';
      readonly rounds: number;
      readonly dead: Id[];
      readonly dying: { readonly id: Id; readonly secondsLeft: number }[];
      readonly stable: Id[];
      readonly standing: { readonly id: Id; readonly side: string }[];
      /** At 0 HP without a death of their own to follow (a foe on the tracker only): down, not standing (review 10). Absent before it. */
      readonly down?: Id[];
    }
  /** 001 "Death & Injury": a party member still at 0 HP when the fight ends has the rest of its minute (ADR 53). */
  | { readonly type: 'osr.leftDying'; readonly characterId: Id; readonly secondsLeft: number }
  | { readonly type: 'osr.tidePrompted'; readonly side: string }
  | {
      readonly type: 'osr.chased';
      readonly characterId: Id;
      readonly forGroup: Id[];
      readonly direction: 'pursue' | 'flee';
      readonly ability: Ability;
      readonly dc: number;
      readonly roll: Roll;
      readonly reasons: Reasons;
      readonly success: boolean;
    }
  | { readonly type: 'osr.exhausted'; readonly characterId: Id; readonly reason: string }
  | { readonly type: 'osr.infected'; readonly corruption: Infection }
  | {
      readonly type: 'osr.stageEnded';
      readonly corruptionId: Id;
      readonly roll: Roll;
      readonly reasons: Reasons;
      readonly damage: { readonly ability: Ability; readonly faces: number[]; readonly doubled: boolean; readonly total: number } | null;
      readonly nextStage: number | null;
      readonly nextEndsAt: number | null;
    }
  | { readonly type: 'osr.corruptionEnded'; readonly corruptionId: Id; readonly characterId: Id; readonly reason: string }
  | { readonly type: 'osr.retreatStarted'; readonly combatantId: Id; readonly characterId: Id | null }
  | { readonly type: 'osr.retreatFailed'; readonly combatantId: Id; readonly reason: string }
  | { readonly type: 'osr.escaped'; readonly combatantId: Id; readonly characterId: Id | null }
  | { readonly type: 'osr.treasureShared'; readonly characterIds: Id[]; readonly gp: number; readonly each: number; readonly xpEach: number; readonly earned: boolean; readonly pursed?: boolean }
  | { readonly type: 'osr.coinsConverted'; readonly characterId: Id; readonly amount: number; readonly from: Coin; readonly to: Coin; readonly into: number }
  | { readonly type: 'osr.magicItemCaptured'; readonly item: string; readonly characterIds: Id[]; readonly value: number; readonly xpEach: number; readonly alreadyCounted: boolean }
  | { readonly type: 'osr.lootRolled'; readonly characterId: Id | null; readonly hd: number; readonly faces: number[]; readonly gp: number };

/**
 * docs/vocabulary.md, issue 17: the names events were stored under before the
 * union took the command vocabulary (old -> new, by today's type). The records an
 * event carries (a rest's heals, an infection's corruption) are renamed by
 * `osrEventRecords`.
 */
export const osrEventFields: { readonly [type in OsrEvent['type']]?: Renamed } = {
  'osr.sheetSet': { id: 'characterId' },
  'osr.checked': { character: 'characterId' },
  'osr.attacked': { attacker: 'attackerId', target: 'targetId' },
  'osr.damageRolled': { target: 'targetId' },
  'osr.healRolled': { target: 'targetId' },
  'osr.hpChanged': { id: 'characterId' },
  'osr.downed': { id: 'characterId' },
  'osr.stabilized': { id: 'targetId', by: 'helperId' },
  'osr.injuryRolled': { id: 'characterId' },
  'osr.bodyPartLost': { id: 'characterId' },
  'osr.abilityChanged': { id: 'characterId' },
  'osr.died': { id: 'characterId' },
  'osr.leftUnconscious': { id: 'characterId' },
  'osr.rested': { characters: 'characterIds' },
  'osr.hid': { id: 'characterId' },
  'osr.revealed': { id: 'characterId' },
  'osr.treated': { id: 'characterId' },
  'osr.sourceLit': { id: 'sourceId', owner: 'characterId' },
  'osr.sourceDoused': { id: 'sourceId' },
  'osr.sourceBurnedOut': { id: 'sourceId' },
  'osr.returnRolled': { character: 'characterId' },
  'osr.moved': { combatant: 'combatantId', character: 'characterId' },
  'osr.strained': { id: 'characterId' },
  'osr.moraleRolled': { character: 'characterId' },
  'osr.chased': { character: 'characterId' },
  'osr.exhausted': { id: 'characterId' },
  'osr.stageEnded': { id: 'corruptionId' },
  'osr.corruptionEnded': { id: 'corruptionId', target: 'characterId' },
  'osr.retreatStarted': { combatant: 'combatantId', character: 'characterId' },
  'osr.retreatFailed': { combatant: 'combatantId' },
  'osr.escaped': { combatant: 'combatantId', character: 'characterId' },
  'osr.treasureShared': { characters: 'characterIds' },
  'osr.magicItemCaptured': { characters: 'characterIds' },
  'osr.lootRolled': { character: 'characterId' },
};

type Fields = { readonly [k: string]: Json | undefined };
const isRecord = (v: Json | undefined): v is { readonly [k: string]: Json } => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A record under new names: each old key moved to its new one unless the new one is there already (as the engine's field renames do). */
function renamedRecord(r: { readonly [k: string]: Json }, renamed: Renamed): { readonly [k: string]: Json } | null {
  if (!Object.keys(renamed).some((k) => Object.hasOwn(r, k))) return null;
  return Object.fromEntries(Object.entries(r).flatMap(([k, v]) => (Object.hasOwn(renamed, k) ? (Object.hasOwn(r, renamed[k]!) ? [] : [[renamed[k]!, v]]) : [[k, v]])));
}

/**
 * ADR 39: records inside events stored before they took the vocabulary's names, by
 * today's type: a rest's heals named the rester `id`; an infection's corruption
 * was the state's record (`id`, `target`). The same event back when nothing is old.
 */
export const osrEventRecords: { readonly [type in OsrEvent['type']]?: (e: EngineEvent) => EngineEvent } = {
  'osr.rested': (e) => {
    const heals = (e as Fields)['heals'];
    if (!Array.isArray(heals)) return e;
    let changed = false;
    const now = heals.map((h) => {
      const r = isRecord(h) ? renamedRecord(h, { id: 'characterId' }) : null;
      if (r === null) return h;
      changed = true;
      return r;
    });
    return changed ? { ...e, heals: now } : e;
  },
  'osr.infected': (e) => {
    const c = (e as Fields)['corruption'];
    const r = isRecord(c) ? renamedRecord(c, { id: 'corruptionId', target: 'characterId' }) : null;
    return r === null ? e : { ...e, corruption: r };
  },
};
