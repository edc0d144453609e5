// Named, documented settings of The 36th Way (002). Every place where the
// text is silent, or where the rules README settles a dice mechanic, is a
// setting a table can override through world.settings[key].
import type { Json, World } from '@tablekeeper/engine';
import type { SettingDef } from '../ruleset.js';

/** The shared setting declaration (allowed values and ranges are checked on every change). */
export type TswSettingDef = SettingDef;

const TEXT = '002_c2dc3d650823e22d.txt';
const README = 'rules/README.md, "The 36th Way (002)"';

export const TSW_SETTINGS: readonly TswSettingDef[] = [
  {
    key: '36th-way.advantage', allowed: ['extra-dice-keep-three'],
    default: 'extra-dice-keep-three',
    description: 'N net Advantage rolls 3+N d6 and keeps the highest three; N net Disadvantage keeps the lowest three; they cancel one for one. The natural result is the sum of the kept dice.',
    source: README,
  },
  { key: '36th-way.maxNetAdvantage', range: [1, 10], default: 6, description: 'Largest net Advantage or Disadvantage counted on one roll (extra dice beyond this are ignored).', source: `${README} (our limit)` },
  { key: '36th-way.critAt', range: [3, 19], default: 17, description: 'Natural result at or above which an attack crits (before Weak / Vulnerable lower it).', source: `${TEXT}, "Attacks"` },
  { key: '36th-way.critFailAt', range: [0, 18], default: 3, description: 'Natural result at or below which an attack is a Crit Fail.', source: `${TEXT}, "Attacks"` },
  { key: '36th-way.critAlwaysHits', default: true, description: 'A crit hits whatever the defense (the text only says a crit deals double damage).', source: `${TEXT}, "Attacks" (our reading)` },
  { key: '36th-way.critFailAlwaysMisses', default: true, description: 'A Crit Fail misses whatever the total, with no miss effects.', source: `${TEXT}, "Attacks" (our reading)` },
  { key: '36th-way.critMultiplier', range: [1, 4], default: 2, description: 'Damage multiplier of a crit ("typically deals double damage").', source: `${TEXT}, "Attacks"` },
  { key: '36th-way.halfRounding', allowed: ['down', 'up'], choiceWords: { down: 'halved damage and healing round down', up: 'halved damage and healing round up' }, default: 'down', description: 'How halved damage and healing round ("down" or "up").', source: `${TEXT}, "Resistance and Weakness", "Recoveries" (our choice)` },
  {
    key: '36th-way.resistMultiType', allowed: ['all-types', 'any-type'], choiceWords: { 'all-types': 'a mixed-type attack is resisted only when every type is resisted', 'any-type': 'a mixed-type attack is resisted when any of its types is' },
    default: 'all-types',
    description: 'An attack dealing several damage types is resisted only when the target resists every one of them ("all-types", using the lowest threshold), or when it resists any ("any-type", using the highest).',
    source: `${TEXT}, "Resistance and Weakness" (our reading: silent)`,
  },
  { key: '36th-way.npcEscalation', default: false, description: 'Whether enemies add the escalation die to attacks by default ("and sometimes NPCs"; a sheet may override).', source: `${TEXT}, "Escalation Die"` },
  { key: '36th-way.saveEndsTarget', range: [3, 18], default: 11, description: 'Target of a save against a save-ends effect that names none.', source: `${README}; ${TEXT}, "Actions" (our default)` },
  { key: '36th-way.oneRoundSaveTarget', range: [3, 18], default: 13, description: 'Target of a Rally save against an effect that is not save-ends.', source: `${TEXT}, "Rally"` },
  { key: '36th-way.saveCritAt', range: [3, 19], default: 17, description: 'Natural result at or above which a save (death save) is a crit.', source: `${TEXT}, "Dying and Death" (our reading: same as attacks)` },
  { key: '36th-way.deathSaveTarget', range: [3, 18], default: 13, description: 'Target of a death save.', source: `${TEXT}, "Dying and Death"` },
  { key: '36th-way.deathSaveFailures', range: [1, 10], default: 4, description: 'Failed death saves in one encounter that kill a character who is not stabilized.', source: `${TEXT}, "Dying and Death"` },
  { key: '36th-way.dyingMode', allowed: ['dying', 'unconscious'], choiceWords: { dying: 'PCs at 0 HP make death saves and can die', unconscious: 'PCs at 0 HP fall unconscious instead of dying' }, default: 'dying', description: '"dying": failed death saves can kill; "unconscious": a PC at 0 HP or less is only knocked out and revived at a Full Rest.', source: `${TEXT}, "Dying and Death"` },
  { key: '36th-way.npcAtZero', title: 'Enemies at 0 HP', allowed: ['dead', 'unconscious'], choiceWords: { dead: 'enemies at 0 HP die', unconscious: 'enemies at 0 HP are knocked out instead of killed' }, default: 'dead', description: 'An enemy at 0 HP or less is "dead" or "unconscious" (with premeditation).', source: `${TEXT}, "Damage and Recovery"` },
  { key: '36th-way.maxRecoveries', range: [0, 30], default: 8, description: 'Recoveries a PC sheet starts with when it names none.', source: `${TEXT}, "Recoveries"` },
  { key: '36th-way.disengageTarget', range: [3, 18], default: 11, description: 'Disengage difficulty against one enemy; +1 per extra enemy.', source: `${TEXT}, "Disengaging and Popping Off"` },
  { key: '36th-way.invisibleSaveTarget', range: [3, 18], default: 11, description: 'Save an attacker rolls before attacking an Invisible target.', source: `${TEXT}, "Conditions and Effects"` },
  { key: '36th-way.confusedSaveTarget', range: [3, 18], default: 11, description: 'Save a Confused character rolls when using a non-attack ability or a non-damaging attack.', source: `${TEXT}, "Conditions and Effects"` },
  { key: '36th-way.lastGaspSaveTarget', range: [3, 18], default: 13, description: 'Target of a Last Gasp save (a kind of death save).', source: `${TEXT}, "Last Gasp Saves"` },
  { key: '36th-way.enforcePositions', default: true, description: 'In an encounter, basic melee and opportunity attacks need an engaged target and basic ranged attacks a target within the stance\'s reach.', source: `${TEXT}, "Basic Attacks", "Positioning and Movement"` },
  { key: '36th-way.recoveryRoll', allowed: ['roll', 'average'], choiceWords: { roll: 'recoveries without a choice are rolled', average: 'recoveries without a choice take the average' }, default: 'roll', description: 'Recoveries spent without a choice (death saves, Rally, quick rests) are "roll"ed or taken as the "average" (each die rounded down).', source: `${TEXT}, "Recoveries"` },
  { key: '36th-way.quickRestMinutes', range: [0, 240], default: 10, description: 'Minutes a Quick Rest takes on the table\'s clock (the text calls it a small breather and gives no length; ADR 44).', source: `${TEXT}, "Quick Rest"` },
  { key: '36th-way.fullRestHours', range: [0, 72], default: 8, description: 'Hours a Full Rest takes on the table\'s clock (the text says it usually involves some downtime and gives no length; ADR 44).', source: `${TEXT}, "Full Rest"` },
  { key: '36th-way.sustainRoll', allowed: ['save'], default: 'save', description: 'A Sustain X entry is a 3d6 roll that must reach X.', source: `${README} (saves are 3d6 against the target)` },
];

const DEFAULTS: Readonly<Record<string, Json>> = Object.fromEntries(TSW_SETTINGS.map((s) => [s.key, s.default]));

/** A setting's value in this world, falling back to its default (and to the default if the table stored the wrong type). */
export function setting<T extends Json>(world: World | null, key: string): T {
  const d = DEFAULTS[key];
  const v = world?.settings[key];
  if (v === undefined || v === null || typeof v !== typeof d) return d as T;
  return v as T;
}

export function numSetting(world: World | null, key: string): number {
  const v = setting<Json>(world, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : Number(DEFAULTS[key]);
}

export function halve(n: number, world: World | null): number {
  return setting<string>(world, '36th-way.halfRounding') === 'up' ? Math.ceil(n / 2) : Math.floor(n / 2);
}
