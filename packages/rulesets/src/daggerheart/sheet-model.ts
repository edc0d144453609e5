// The Daggerheart sheet as the one sheet model (issue 17): traits, Evasion,
// the damage thresholds, the HP / Stress / Armor slots and what is marked on
// them, Hope and tier, on the character's stats (the keys the trackers and
// action rolls already read). Written by the engine's character.sheetSet.
import { defineSheet, err, int, ok, own, SHEET_SET_EVENT } from '@tablekeeper/engine';
import { withTitles } from '../field-titles.js';
import { MAX_MODIFIER, TRAITS } from './limits.js';
import { TRACK_KEYS } from './rules.js';
import { daggerheartSettings } from './settings.js';

const slots = (what: string) => int(0, 30, `${what} slots (null: the table setting)`).nullable().optional();
const marked = (what: string) => int(0, 30, `${what} slots marked`).optional();

// The labels the sheet forms show, in 000's words: the traits by name, the slots and what is marked on them.
const TITLES: { readonly [field: string]: string } = {
  ...Object.fromEntries(TRAITS.map((t) => [t, t.charAt(0).toUpperCase() + t.slice(1)])),
  evasion: 'Evasion',
  major: 'Major threshold',
  severe: 'Severe threshold',
  [TRACK_KEYS.hp.slots]: 'HP slots',
  [TRACK_KEYS.stress.slots]: 'Stress slots',
  [TRACK_KEYS.armor.slots]: 'Armor slots',
  [TRACK_KEYS.hp.marked]: 'HP marked',
  [TRACK_KEYS.stress.marked]: 'Stress marked',
  [TRACK_KEYS.armor.marked]: 'Armor marked',
  hope: 'Hope',
  tier: 'Tier',
};

const fields = withTitles({
  ...Object.fromEntries(TRAITS.map((t) => [t, int(-MAX_MODIFIER, MAX_MODIFIER, `${t} trait modifier`).optional()])),
  evasion: int(0, 60, 'Evasion: the difficulty of attacks against this character').optional(),
  major: int(1, 200, 'Major damage threshold (null: not set; damage then cannot be marked)').nullable().optional(),
  severe: int(1, 400, 'Severe damage threshold').nullable().optional(),
  [TRACK_KEYS.hp.slots]: slots('HP'),
  [TRACK_KEYS.stress.slots]: slots('Stress'),
  [TRACK_KEYS.armor.slots]: slots('Armor'),
  [TRACK_KEYS.hp.marked]: marked('HP'),
  [TRACK_KEYS.stress.marked]: marked('Stress'),
  [TRACK_KEYS.armor.marked]: marked('Armor'),
  // The form reads this table's maximum from the setting named here (x-max-setting) and refuses more, in words.
  hope: int(0, 100, 'Hope (at most the table setting hopeMax)').meta({ description: 'Hope (at most the table setting hopeMax)', 'x-max-setting': 'daggerheart.hopeMax' }).optional(),
  tier: int(1, 4, 'tier (Tend to Wounds and Clear Stress add it)').optional(),
}, TITLES);

export const daggerheartSheetModel = defineSheet({
  rulesetId: 'daggerheart',
  fields,
  defaults: {
    ...Object.fromEntries(TRAITS.map((t) => [t, 0])),
    // No Evasion default: a PC's comes from its class, and a made-up 10 read as the character's (review 9).
    major: null,
    severe: null,
    hpMax: null,
    stressMax: null,
    armorMax: null,
    hpMarked: 0,
    stressMarked: 0,
    armorMarked: 0,
    // No Hope default: an unset Hope reads as the table's starting Hope (daggerheart.startingHope), and a
    // sheet form saved without touching it must not set it to 0 (review 6: saving a sheet wiped Kira's 2 Hope).
    tier: 1,
  },
  // None (review 13 #1): a player marks Stress and Armor with markTrack, spends Hope with spendHope and asks the GM
  // for damage and healing; a sheet field would let them clear marked HP or raise Hope around the GM.
  playerEditable: [],
  // An adversary's stats as players read them (ADR 33): that it is one; its Difficulty (or an NPC's Evasion) once the GM reveals defences.
  foeFields: { shown: ['adversary'], defences: ['difficulty', 'evasion'] },
  read(world, id) {
    const stats = own(world.characters, id)?.stats ?? {};
    return Object.fromEntries(Object.keys(fields).flatMap((k) => (Object.hasOwn(stats, k) ? [[k, stats[k]!]] : [])));
  },
  write(world, id, next, changed) {
    const { major, severe } = next;
    if (typeof major === 'number' && typeof severe === 'number' && severe < major) return err('INVALID_VALUE', `sheet.severe: must be at least the Major threshold (${major})`, 'sheet.severe');
    // The field takes what any table might allow; this table's Hope maximum decides (checked only when Hope is written,
    // so a lowered maximum does not block saving the rest of an old sheet).
    const hopeMax = daggerheartSettings(world).hopeMax;
    if (typeof changed['hope'] === 'number' && changed['hope'] > hopeMax) return err('INVALID_VALUE', `sheet.hope: at most ${hopeMax}, this table's Hope maximum`, 'sheet.hope');
    return ok([{ type: SHEET_SET_EVENT, id, stats: changed }]);
  },
});
