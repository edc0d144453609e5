// The 36th Way's event union (STYLE "Type the events"): what each decider
// writes and each reducer reads, under the command vocabulary's names
// (docs/vocabulary.md). Events stored under the old field names are renamed
// on load by `tswEventFields` (ADR 28), so reducers see only these.
import type { Json, Renamed } from '@tablekeeper/engine';
import type { Sheet } from './state.js';

type Id = string;
type Range = 'engaged' | 'nearby' | 'far';

export type TswEvent =
  | { readonly type: '36th-way.sheetSet'; readonly sheet: Sheet; readonly replaced: boolean }
  | { readonly type: '36th-way.sheetRemoved'; readonly characterId: Id }
  | { readonly type: '36th-way.outOfFightSet'; readonly characterId: Id; readonly value: boolean }
  | {
      readonly type: '36th-way.attackRolled';
      readonly attackerId: Id;
      readonly targetId: Id;
      readonly kind: string;
      readonly ability: string | null;
      readonly defense: string;
      readonly defenseValue: number;
      readonly roll: Json;
      readonly parts: { readonly level: number; readonly volition: number; readonly escalation: number; readonly bonus: number };
      readonly total: number;
      readonly critAt: number;
      readonly weak: boolean;
      readonly vulnerable: boolean;
      readonly hit: boolean;
      readonly crit: boolean;
      readonly critFail: boolean;
      readonly coupDeGrace: boolean;
      readonly invisibleSave: Json;
      readonly noEffect: boolean;
    }
  | {
      readonly type: '36th-way.damaged';
      readonly targetId: Id;
      readonly amount: number;
      readonly crit: boolean;
      readonly hpFrom: number;
      readonly hpTo: number;
      /** The dying record after the hit (null: not dying); absent on no stored event, read as null. */
      readonly dying: Sheet['dying'];
      readonly dead: boolean;
      readonly unconscious: boolean;
      /** Who dealt it (null: direct damage). */
      readonly sourceId?: Id | null;
      readonly reason?: string;
      readonly base?: number;
      readonly resisted?: boolean;
      readonly resistAt?: number | null;
      readonly types?: readonly string[];
      readonly roll?: Json;
      readonly condition?: string;
    }
  | {
      readonly type: '36th-way.healed';
      readonly characterId: Id;
      readonly helperId: Id | null;
      readonly reason: string;
      readonly dice: Json;
      readonly averaged: boolean;
      readonly amount: number;
      readonly hpFrom: number;
      readonly hpTo: number;
      readonly spent: number;
      readonly halved: boolean;
      readonly exhaustion: number;
      readonly revived: boolean;
    }
  | {
      readonly type: '36th-way.deathSaveRolled';
      readonly characterId: Id;
      readonly lastGasp: boolean;
      /** The ally who granted a Last Gasp save (null: the character's own save). */
      readonly helperId: Id | null;
      readonly firstSaveDisadvantage: number;
      readonly roll: Json;
      readonly target: number;
      readonly outcome: string;
      readonly failures: number;
      readonly dead: boolean;
      readonly counted: boolean;
      /** Rolled as the turn passed, nobody having rolled it on the turn (the GM's Next; older events: absent). */
      readonly passed?: boolean;
      /** The encounter turn it was the save of (null: an ally's granted save; absent in older events). */
      readonly turn?: number | null;
    }
  | { readonly type: '36th-way.deathSaveDue'; readonly characterId: Id; readonly turn: number; readonly target: number }
  | { readonly type: '36th-way.lastGaspStarted'; readonly characterId: Id; readonly hp: number; readonly effect: string }
  | { readonly type: '36th-way.lastGaspEnded'; readonly characterId: Id; readonly hp: number; readonly effect: string }
  | { readonly type: '36th-way.stabilized'; readonly targetId: Id; readonly helperId: Id }
  | { readonly type: '36th-way.abilityUsed'; readonly characterId: Id; readonly ability: string; readonly name: string; readonly expends: boolean; readonly power: Json; readonly sustain: number | null }
  | { readonly type: '36th-way.sustainRolled'; readonly characterId: Id; readonly ability: string; readonly roll: Json; readonly target: number; readonly success: boolean }
  | { readonly type: '36th-way.abilityLapsed'; readonly characterId: Id; readonly ability: string }
  | { readonly type: '36th-way.abilityRestored'; readonly characterId: Id; readonly ability: string; readonly reason: string }
  | { readonly type: '36th-way.recoveriesRestored'; readonly characterId: Id; readonly from: number; readonly to: number }
  | { readonly type: '36th-way.rechargeRolled'; readonly characterId: Id; readonly ability: string; readonly roll: Json; readonly target: number; readonly success: boolean }
  | { readonly type: '36th-way.quickRested' }
  | { readonly type: '36th-way.fullRested'; readonly day: number }
  | { readonly type: '36th-way.campaignLoss'; readonly reason: string; readonly day: number }
  | { readonly type: '36th-way.stanceChanged'; readonly characterId: Id; readonly stance: 'melee' | 'ranged' }
  | { readonly type: '36th-way.hitRecorded'; readonly attackerId: Id; readonly targetIds: Id[]; readonly round: number }
  | { readonly type: '36th-way.confusedSaveRolled'; readonly characterId: Id; readonly what: string; readonly roll: Json; readonly target: number; readonly success: boolean }
  | { readonly type: '36th-way.foughtInSpirit'; readonly characterId: Id; readonly allyId: Id; readonly boon: string; readonly reason: string }
  | { readonly type: '36th-way.checkRolled'; readonly characterId: Id; readonly roll: Json; readonly bonus: number; readonly difficulty: number; readonly sneak: boolean; readonly success: boolean }
  | { readonly type: '36th-way.diceyMoveRolled'; readonly characterId: Id; readonly roll: Json; readonly bonus: number; readonly difficulty: number; readonly success: boolean }
  | { readonly type: '36th-way.positioned'; readonly fromId: Id; readonly toId: Id; readonly range: Range }
  | { readonly type: '36th-way.moved'; readonly characterId: Id; readonly toId: Id; readonly range: Range; readonly from: Range; readonly leaving: Id[]; readonly intercept: boolean }
  | { readonly type: '36th-way.disengageRolled'; readonly characterId: Id; readonly from: Id[]; readonly roll: Json; readonly target: number; readonly success: boolean; readonly grabbedPenalty: boolean }
  | { readonly type: '36th-way.poppedOff'; readonly characterId: Id; readonly from: Id[] }
  | { readonly type: '36th-way.intercepted'; readonly interceptorId: Id; readonly moverId: Id; readonly allyId: Id }
  | { readonly type: '36th-way.provoked'; readonly provocationId: string; readonly characterId: Id; readonly against: Id[]; readonly reason: string; readonly round: number }
  | { readonly type: '36th-way.opportunityTaken'; readonly provocationId: string; readonly attackerId: Id; readonly targetId: Id }
  | { readonly type: '36th-way.opportunityDeclined'; readonly provocationId: string; readonly attackerId: Id; readonly targetId: Id };

/**
 * Old event field -> today's, per event type (issue 17's vocabulary). Stored
 * tables written before the rename replay through these (ADR 28); a reducer
 * reads only the new names.
 */
export const tswEventFields: { readonly [type in TswEvent['type']]?: Renamed } = {
  '36th-way.sheetRemoved': { id: 'characterId' },
  '36th-way.outOfFightSet': { id: 'characterId' },
  '36th-way.attackRolled': { attacker: 'attackerId', target: 'targetId' },
  '36th-way.damaged': { target: 'targetId', source: 'sourceId' },
  '36th-way.healed': { id: 'characterId', by: 'helperId' },
  '36th-way.deathSaveRolled': { id: 'characterId', grantedBy: 'helperId' },
  '36th-way.lastGaspStarted': { id: 'characterId' },
  '36th-way.lastGaspEnded': { id: 'characterId' },
  '36th-way.stabilized': { id: 'targetId', by: 'helperId' },
  '36th-way.abilityUsed': { who: 'characterId' },
  '36th-way.sustainRolled': { who: 'characterId' },
  '36th-way.abilityLapsed': { who: 'characterId' },
  '36th-way.abilityRestored': { who: 'characterId' },
  '36th-way.recoveriesRestored': { who: 'characterId' },
  '36th-way.rechargeRolled': { who: 'characterId' },
  '36th-way.stanceChanged': { who: 'characterId' },
  '36th-way.hitRecorded': { attacker: 'attackerId', targets: 'targetIds' },
  '36th-way.confusedSaveRolled': { who: 'characterId' },
  '36th-way.foughtInSpirit': { who: 'characterId', ally: 'allyId' },
  '36th-way.checkRolled': { who: 'characterId' },
  '36th-way.diceyMoveRolled': { who: 'characterId' },
  '36th-way.positioned': { a: 'fromId', b: 'toId' },
  '36th-way.moved': { who: 'characterId', to: 'toId' },
  '36th-way.disengageRolled': { who: 'characterId' },
  '36th-way.poppedOff': { who: 'characterId' },
  '36th-way.intercepted': { interceptor: 'interceptorId', mover: 'moverId', ally: 'allyId' },
  '36th-way.provoked': { id: 'provocationId', by: 'characterId' },
  '36th-way.opportunityTaken': { provocation: 'provocationId', attacker: 'attackerId', target: 'targetId' },
};
