// Daggerheart's encounter: the engine's spotlight sequencer (ADR 14) with the
// table's optional action tokens, the published conditions, and "cannot act"
// once every HP slot of the combatant's character is marked.
import { daggerheartEncounter, encounterKit, type ConditionDef, type EncounterKit } from '@tablekeeper/engine';
import { trackOf } from './rules.js';
import { daggerheartSettings } from './settings.js';

/** Conditions of the published game (not in 000); the GM applies and removes them by hand. */
export const DAGGERHEART_CONDITIONS: readonly ConditionDef[] = [
  { id: 'hidden', name: 'Hidden', stacking: 'refresh', effects: {} },
  { id: 'restrained', name: 'Restrained', stacking: 'refresh', effects: {} },
  { id: 'vulnerable', name: 'Vulnerable', stacking: 'refresh', effects: {} },
];

export const daggerheartKit: EncounterKit = encounterKit({
  ...daggerheartEncounter({ tokensFrom: (settings) => (typeof settings['daggerheart.actionTokens'] === 'number' ? settings['daggerheart.actionTokens'] : 0) }),
  conditions: DAGGERHEART_CONDITIONS,
  // 000 keeps no rounds of fixed length: the spotlight moves, and time comes from action rolls (a setting) or the GM (ADR 44).
  secondsPerRound: 0,
  canActReads: ['characters', 'settings'],
  canAct(world, combatant) {
    const ch = combatant.characterId === null ? undefined : world.characters[combatant.characterId];
    if (ch === undefined) return true;
    const hp = trackOf(ch.stats, 'hp', daggerheartSettings(world).hpSlots);
    return hp.marked < hp.slots;
  },
});
