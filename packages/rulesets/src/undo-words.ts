// What undo and redo take back, per ruleset command, in words with the
// creatures' names ("Bram's attack on Goblin 2"): templates the engine fills
// from the command and its events with the names the asking viewer may see
// (engine core/undo-words.ts). A command not listed reads as its label.
import type { CommandWords, Module } from '@tablekeeper/engine';

type Words = { readonly [commandType: string]: CommandWords };

const attack = (ns: string, targets = ['targetId']): Words => ({
  [`${ns}.attack`]: { say: ["{by}'s attack on {on}", 'an attack on {on}', "{by}'s attack"], by: ['attackerId'], on: targets },
});
const one = (type: string, say: string, by = ['characterId']): Words => ({ [type]: { say: [say], by } });

export const OSR_WORDS: Words = {
  ...attack('osr'),
  'osr.damage': { say: ['{=amount} damage to {on}'], on: ['targetId'] },
  'osr.heal': { say: ['healing {on} by {=amount}'], on: ['targetId'] },
  'osr.stabilize': { say: ['{by} stabilizing {on}', 'stabilizing {on}'], by: ['helperId'], on: ['targetId'] },
  'osr.morale': { say: ['morale for {on}'], on: ['characterIds'] },
  ...one('osr.check', "{by}'s check"),
  ...one('osr.move', '{by} moving'),
  ...one('osr.quick', "{by}'s quick action"),
};

export const TSW_WORDS: Words = {
  ...attack('36th-way', ['targetIds']),
  '36th-way.damage': { say: ['{=amount} damage to {on}'], on: ['targetId'] },
  '36th-way.heal': { say: ['healing {on}'], on: ['characterId'] },
  '36th-way.stabilize': { say: ['{by} stabilizing {on}', 'stabilizing {on}'], by: ['helperId'], on: ['targetId', 'characterId'] },
  ...one('36th-way.rally', '{by} rallying'),
  ...one('36th-way.move', '{by} moving'),
  ...one('36th-way.disengage', '{by} disengaging'),
  // An ability is named by its stored id, which may be the GM's own key: said as "ability", never the id.
  ...one('36th-way.useAbility', "{by}'s ability"),
  ...one('36th-way.check', "{by}'s check"),
  '36th-way.sheet.set': { say: ["{by}'s sheet"], by: ['sheet.id'] },
  '36th-way.sheet.remove': { say: ["removing {by}'s sheet"], by: ['characterId'] },
};

export const TEAMS_WORDS: Words = {
  ...attack('teams'),
  'teams.damage': { say: ['{=amount} damage to {on}'], on: ['targetId'] },
  'teams.act': { say: ["{by}'s {=action} on {on}", "{by}'s {=action}", "{by}'s action"], by: ['characterId'], on: ['targetId'] },
  'teams.killingStrike': { say: ["{by}'s Killing Strike on {on}", "{by}'s Killing Strike"], by: ['attackerId'], on: ['targetId'] },
  'teams.setTrack': { say: ["{by}'s {=field}"], by: ['characterId'] },
  // The retired aliases say what the shared sheet commands say (ADR 39).
  'teams.setSheet': { say: ["{by}'s sheet"], by: ['characterId'] },
  'teams.removeSheet': { say: ["removing {by}'s sheet"], by: ['characterId'] },
};

export const KLEPTO_WORDS: Words = {
  ...attack('kleptonomicon'),
  ...one('kleptonomicon.test', "{by}'s Test"),
  ...one('kleptonomicon.move', '{by} moving'),
  ...one('kleptonomicon.dash', "{by}'s Dash"),
  'kleptonomicon.useAbility': { say: ["{by}'s ability"], by: ['combatantId', 'characterId'] },
};

export const DAGGERHEART_WORDS: Words = {
  'daggerheart.adversaryAttack': { say: ["{by}'s attack on {on}", 'an attack on {on}'], by: ['attackerId'], on: ['targetId'] },
  'daggerheart.takeDamage': { say: ['{=amount} damage to {on}'], on: ['characterId'] },
  ...one('daggerheart.actionRoll', "{by}'s action roll"),
  'daggerheart.helpAlly': { say: ['{by} helping {on}'], by: ['helperId'], on: ['targetId'] },
  ...one('daggerheart.markTrack', "{by}'s {=track}"),
};

/** The module with its commands' undo words. */
export function withWords<M extends Module>(module: M, words: Words): M {
  return { ...module, words: { ...(module.words ?? {}), ...words } };
}
