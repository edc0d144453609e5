// The Kleptonomicon sheet as the one sheet model (issue 17): what its rules
// read about a character (the Edge Save modifier and Sneaky for the turn
// order, movement styles, abilities), stored on the character's stats and
// written by the kleptonomicon.sheetSet event kleptonomicon.setSheet writes.
import { defineSheet, err, int, ok, own, text, type Json } from '@tablekeeper/engine';
import { z } from 'zod';
import { ABILITY_TIME_WORDS, ABILITY_TIMES, RECOVERY_ABILITIES, RECOVERY_WORDS } from './phases.js';
import { abilityKeyOf } from './context.js';
import { parseDamage } from './attack.js';
import { BASIC_ATTACKS, distances, NAMED_DISTANCES } from './distances.js';
import { sixthDistance } from './settings.js';
import { EDGE_SAVE_LIMIT } from './sheet.js';
import { MAX_STYLES, STYLE_NAME, STYLE_VARIANTS } from '../setting-shapes.js';
import type { KleptoEvent } from './events.js';

/** Health a GM may enter (a typo of a million would make a PC unkillable). */
export const HEALTH_LIMIT = 10_000;

const BASIC_ATTACK_KIND_WORDS = { melee: 'Melee (Swinging Distance, 1u)', ranged: 'Ranged (Shooting Distance, 16u)', magic: 'Magic (Throwing Distance, 8u)' };

/** Damage dice as text, checked when the sheet is set (parseDamage's limits). */
const damageDice = (description: string) => text(20, description);

const fields = {
  edgeSave: int(-EDGE_SAVE_LIMIT, EDGE_SAVE_LIMIT, 'Edge Save modifier (null: not set; the turn order then asks for one)').nullable().meta({ title: 'Edge Save' }).optional(),
  // The text gives a Basic Attack no defence number; the improvised maneuver's Score must reach this one (default: the Edge Save line).
  defense: int(0, 100, 'the Score an attack against this creature must reach').meta({ title: 'Defense' }).optional(),
  // 004 names Health among what Heal Up restores (Freeplay's return); it is what damage takes down (the damage box, a hit).
  maxHp: int(1, HEALTH_LIMIT, 'full Health: what Heal Up restores').meta({ title: 'Health (full)' }).optional(),
  hp: int(0, HEALTH_LIMIT, 'Health now (left empty: full)').meta({ title: 'Health now' }).optional(),
  sneaky: z.boolean().meta({ title: 'Sneaky', description: 'advantage on the Edge Saves (004 "Turn Order")' }).optional(),
  movementStyles: z
    .array(
      z.strictObject({
        // 004's common styles as suggestions; any other lower-case name (fly, levitate) is allowed.
        style: z.string().regex(STYLE_NAME).meta({ title: 'Style', description: 'a lower-case style name (walk, jump, climb, swim...)', examples: ['walk', 'jump', 'climb', 'swim'] }),
        variant: z.enum(STYLE_VARIANTS).meta({ title: 'Variant' }).optional(),
      }).meta({ title: 'Movement style' }),
    )
    .max(MAX_STYLES)
    .nullable()
    .meta({ title: 'Movement styles', description: "none listed: the table's default movement styles (walk, and a half jump, unless the table was made with others)" })
    .optional(),
  // 004 is silent on the Basic Attack's numbers (ADR 51): its Test modifier and damage dice live on the sheet.
  attackModifier: int(-50, 50, 'the Basic Attack Test modifier').meta({ title: 'Basic Attack modifier' }).optional(),
  attackDamage: damageDice('the Basic Attack damage on a hit, such as 1d6+1').meta({ title: 'Basic Attack damage' }).optional(),
  // ADR 124: which of 004's Basic Attacks the attack form starts with, and so its reach.
  attackKind: z.enum(BASIC_ATTACKS).meta({ title: 'Basic Attack kind', description: 'melee reaches Swinging Distance (1u), ranged Shooting (16u), magic Throwing (8u); none: melee', 'x-labels': BASIC_ATTACK_KIND_WORDS }).optional(),
  abilities: z
    .array(
      z.strictObject({
        // Made from the name when left out (ADR 51, as the 36th Way's: ADR 43); forms never ask for it (x-from-name).
        id: text(64, 'a key for the ability (default: made from its name)').min(1).meta({ title: 'Key', 'x-from-name': true }).optional(),
        name: text(80).meta({ title: 'Name' }).optional(),
        time: z.enum(ABILITY_TIMES as readonly [string, ...string[]]).meta({ title: 'Time', 'x-labels': ABILITY_TIME_WORDS }),
        seconds: int(0, 86_400, 'for a long ability: how many seconds it takes').meta({ title: 'Seconds' }).optional(),
        recovery: z.enum(RECOVERY_ABILITIES).meta({ title: 'Recovers', description: 'what it restores in the Reward phase', 'x-labels': RECOVERY_WORDS }).optional(),
        attack: z.boolean().meta({ title: 'Attacks a target', description: "a Test against the target's Defense, its effects on a hit" }).optional(),
        modifier: int(-50, 50, "the attack's Test modifier").meta({ title: 'Test modifier' }).optional(),
        damage: damageDice('damage on a hit, such as 1d6+1').meta({ title: 'Damage' }).optional(),
        slowed: int(0, 10, 'stacks of Slowed a hit inflicts (two interrupt movement)').meta({ title: 'Slowed stacks' }).optional(),
        interrupts: z.boolean().meta({ title: 'Interrupts movement', description: "a hit interrupts the target's movement" }).optional(),
        reach: text(32, "how far the attack reaches: a distance's key (swinging, spearing, spitting, throwing, shooting, or the table's sixth); none: swinging")
          .meta({ title: 'Reach', examples: NAMED_DISTANCES.map((d) => d.id) })
          .optional(),
      }).meta({ title: 'Ability' }),
    )
    .max(50)
    .meta({ title: 'Abilities' })
    .optional(),
};

export const kleptoSheetModel = defineSheet({
  rulesetId: 'kleptonomicon',
  fields,
  defaults: { edgeSave: null, sneaky: false, movementStyles: null, abilities: [] },
  playerEditable: [],
  // A foe's sheet is the GM's (ADR 33): its Edge Save, styles and abilities; its Defense shows when the GM reveals defences.
  foeFields: { shown: [], defences: ['defense'] },
  statsEvents: { 'kleptonomicon.sheetSet': 'characterId' },
  read(world, id) {
    const stats = own(world.characters, id)?.stats ?? {};
    return Object.fromEntries(Object.keys(fields).flatMap((k) => (Object.hasOwn(stats, k) ? [[k, stats[k]!]] : [])));
  },
  write(world, id, next, changed) {
    const stats: { [k: string]: Json } = { ...changed };
    // A new full Health with no Health now starts the character at full (as the Invite form's hit points do).
    if (typeof changed['maxHp'] === 'number' && (next['hp'] === undefined || next['hp'] === null)) stats['hp'] = changed['maxHp'];
    const was = own(world.characters, id)?.stats ?? {};
    const hp = stats['hp'] ?? was['hp'];
    const max = stats['maxHp'] ?? was['maxHp'];
    if (typeof hp === 'number' && typeof max === 'number' && hp > max) return err('INVALID_VALUE', `Health now (${hp}) must be at most full Health (${max})`, 'sheet.hp');
    if (typeof changed['attackDamage'] === 'string') {
      const d = parseDamage(changed['attackDamage'], 'sheet.attackDamage');
      if (!d.ok) return d;
    }
    const list = changed['abilities'];
    if (Array.isArray(list)) {
      // Each ability is keyed by its name when it has no id; two of one key would be one ability to every command.
      const seen = new Set<string>();
      const keyed: Json[] = [];
      for (let i = 0; i < list.length; i++) {
        const a = list[i] as { [k: string]: Json };
        const name = typeof a['name'] === 'string' ? a['name'] : '';
        const key = typeof a['id'] === 'string' ? a['id'] : abilityKeyOf(name);
        if (key === '') return err('INVALID_VALUE', `Abilities ${i + 1}: give the ability a name`, `sheet.abilities.${i}.name`);
        if (seen.has(key)) return err('INVALID_VALUE', `Abilities ${i + 1}: two abilities are called ${JSON.stringify(name || key)}; give each its own name`, `sheet.abilities.${i}.name`);
        seen.add(key);
        if (typeof a['damage'] === 'string') {
          const d = parseDamage(a['damage'], `Abilities ${i + 1} › damage`);
          if (!d.ok) return { ok: false, error: { ...d.error, path: `sheet.abilities.${i}.damage` } };
        }
        // ADR 124: a reach names one of this table's six distances (the sixth is the table's own key).
        if (typeof a['reach'] === 'string' && a['reach'] !== '') {
          const all = distances(sixthDistance(world));
          if (!all.some((d) => d.id === a['reach'])) return err('INVALID_VALUE', `Abilities ${i + 1} › reach: ${JSON.stringify(a['reach'])} is none of this table's distances (${all.map((d) => d.id).join(', ')})`, `sheet.abilities.${i}.reach`);
        }
        keyed.push({ ...a, id: key });
      }
      stats['abilities'] = keyed;
    }
    return ok([{ type: 'kleptonomicon.sheetSet', characterId: id, stats } satisfies KleptoEvent]);
  },
});
