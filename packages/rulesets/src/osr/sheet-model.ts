// The OSR sheet as the one sheet model (issue 17): the fields osr.setSheet
// takes, with the text's defaults. Stored on the character's stats, so
// character.sheet.set writes the same osr.sheetSet event osr.setSheet does.
import { defineSheet, err, own, ok, type Json } from '@tablekeeper/engine';
import { withTitles } from '../field-titles.js';
import { ABILITIES } from './checks.js';
import { osrSheet } from './declarations.js';
import type { OsrEvent } from './events.js';
import { readSheet } from './sheet.js';

// The labels the sheet forms show, in 001's words (review 10 read "str (optional)", "hd", "max hp").
const TITLES: { readonly [field: string]: string } = {
  str: 'Strength (STR)',
  dex: 'Dexterity (DEX)',
  con: 'Constitution (CON)',
  int: 'Intelligence (INT)',
  wis: 'Wisdom (WIS)',
  cha: 'Charisma (CHA)',
  level: 'Level',
  hd: 'Hit Dice (HD)',
  hp: 'HP',
  maxHp: 'Max HP',
  ac: 'AC',
  load: 'Loads carried',
  speed: 'Speed (feet)',
  proficiency: 'Proficiency bonus',
  darksight: 'Darksight',
  surfacer: 'Surfacer (darkness shakes its morale)',
  moraleBonus: 'Morale bonus',
  follows: 'Follows (a retainer\'s PC)',
  cp: 'Copper pieces (cp)',
  sp: 'Silver pieces (sp)',
  gp: 'Gold pieces (gp)',
};

export const osrSheetModel = defineSheet({
  rulesetId: 'osr',
  fields: withTitles(osrSheet.shape, TITLES),
  defaults: {
    ...Object.fromEntries(ABILITIES.map((a) => [a, 10])),
    level: 1,
    hd: 1,
    ac: 10,
    load: 0,
    speed: 30,
    proficiency: null,
    darksight: false,
    surfacer: true,
    moraleBonus: 0,
    follows: null,
    cp: 0,
    sp: 0,
    gp: 0,
  },
  // What a player tracks on their own sheet between the GM's rulings (osr.setLoad is theirs too).
  playerEditable: ['load', 'cp', 'sp', 'gp'],
  // A foe character's stats as players read them (ADR 33): none by default, its AC once the GM reveals defences.
  foeFields: { shown: [], defences: ['ac'] },
  statsEvents: { 'osr.sheetSet': 'id' },
  read(world, id) {
    const stats = own(world.characters, id)?.stats ?? {};
    return Object.fromEntries(Object.keys(osrSheet.shape).flatMap((k) => (Object.hasOwn(stats, k) ? [[k, stats[k]!]] : [])));
  },
  write(world, id, next, changed) {
    // A whole sheet without hp starts at full health (001 "Healing & HP").
    const stats: { [k: string]: Json } = { ...changed };
    if (next['hp'] === undefined && typeof next['maxHp'] === 'number' && changed['maxHp'] !== undefined) stats['hp'] = next['maxHp'];
    const merged = readSheet({ ...own(world.characters, id)!.stats, ...stats });
    if (merged.hp > merged.maxHp) return err('INVALID_VALUE', `sheet.hp: must be at most maxHp (${merged.maxHp}) (001 "Healing & HP")`, 'sheet.hp');
    return ok([{ type: 'osr.sheetSet', characterId: id, stats } satisfies OsrEvent]);
  },
});
