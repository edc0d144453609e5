// The OSR module's named queries: osr.attackOdds, osr.checkOdds and osr.characterStatus,
// the wire face of queries.ts. The engine answers them on the asker's own
// projected world; a character whose values a player may not read (hidden,
// or shown only by name) gets an error, never numbers from an emptied sheet.
import { canSee, type Command, type Json, type Query, type Viewer, type World, own } from '@tablekeeper/engine';
import { isAttackKind } from './combat.js';
import { proficiencyFor } from './combat-commands.js';
import { attackOddsAt, characterStatus, checkOddsAt } from './queries.js';
import { readDice } from './rolls.js';
import { fail, okv, readAbility, readAdvantageCounts, readBool, readNum, readOpt, type R } from './shared.js';
import { mod } from './sheet.js';
import { getOsr, sheetOf } from './state.js';

type Args = { readonly [key: string]: Json };
const asCommand = (name: string, args: Args): Command => ({ ...args, type: name }) as Command;

/**
 * A character id this viewer may reckon with: known, and its values readable.
 * (A veiled combatant's link to its character is already gone from a player's
 * projection, so only the character's own visibility can be checked here.)
 */
function readableCharacter(world: World, viewer: Viewer, c: Command, field: string): R<string> {
  const id = c[field];
  const ch = typeof id === 'string' ? own(world.characters, id) : undefined;
  if (typeof id !== 'string' || ch === undefined) return fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id ?? null)}`, field);
  if (viewer.role !== 'gm' && !canSee(ch.visibility, viewer)) return fail('VALUES_HIDDEN', `the GM keeps ${ch.name}'s numbers secret`, field);
  return okv(id);
}

/** osr.attackOdds: the osr.attack arguments that change the odds, with the command's own limits. */
function attackOddsQuery(world: World, args: Args, viewer: Viewer): R<Json> {
  const c = asCommand('osr.attackOdds', args);
  const att = readableCharacter(world, viewer, c, 'attackerId');
  if (!att.ok) return att;
  const tgt = readableCharacter(world, viewer, c, 'targetId');
  if (!tgt.ok) return tgt;
  if (att.value === tgt.value) return fail('INVALID_VALUE', 'an attack needs a target other than the attacker', 'targetId');
  // As osr.attack refuses it: someone in stealth cannot be targeted directly.
  if (getOsr(world).hidden.includes(tgt.value)) return fail('TARGET_HIDDEN', 'a character in stealth cannot be targeted directly (001 "Positioning")', 'targetId');
  const kind = c['kind'] ?? 'melee';
  if (!isAttackKind(kind)) return fail('INVALID_VALUE', 'kind must be melee, ranged, arcane or divine', 'kind');
  const delivery = readOpt(c, 'delivery', ['melee', 'ranged'] as const, kind === 'melee' ? 'melee' : 'ranged');
  if (!delivery.ok) return delivery;
  const range = readOpt(c, 'range', ['close', 'ranged', 'far'] as const, delivery.value === 'melee' ? 'close' : 'ranged');
  if (!range.ok) return range;
  if (range.value === 'far') return fail('OUT_OF_RANGE', 'far is beyond weapons and spells (001 "Positioning")', 'range');
  if (delivery.value === 'melee' && range.value !== 'close') return fail('OUT_OF_RANGE', 'a melee attack needs close range (5-10 feet)', 'range');
  // Long range brings the light's own penalties, which attackOddsAt does not reckon with yet: say so rather than be wrong.
  if (c['longRange'] === true) return fail('UNSUPPORTED', 'odds for long-range attacks are not computed yet', 'longRange');
  const counts = readAdvantageCounts(c);
  if (!counts.ok) return counts;
  const dmg = readDice(c['damage'] ?? '1d6', 'damage');
  if (!dmg.ok) return dmg;
  const bonus = readNum(c, 'bonus', -30, 30, 0);
  if (!bonus.ok) return bonus;
  const prof = readBool(c, 'proficient', false);
  if (!prof.ok) return prof;
  const o = attackOddsAt(world, {
    attacker: att.value,
    target: tgt.value,
    kind,
    proficient: prof.value,
    bonus: bonus.value,
    ranged: delivery.value === 'ranged',
    inMelee: range.value === 'close',
    advantage: counts.value.advantage,
    disadvantage: counts.value.disadvantage,
    damage: dmg.value,
  });
  return okv({ ...o, kind, delivery: delivery.value, range: range.value } as unknown as Json);
}

/** osr.checkOdds: the chance of an osr.check (or a stabilize check) with the same modifier parts, before anyone rolls. */
function checkOddsQuery(world: World, args: Args, viewer: Viewer): R<Json> {
  const c = asCommand('osr.checkOdds', args);
  const id = readableCharacter(world, viewer, c, 'characterId');
  if (!id.ok) return id;
  const dc = readNum(c, 'difficulty', 1, 40, 10);
  if (!dc.ok) return dc;
  const bonus = readNum(c, 'bonus', -30, 30, 0);
  if (!bonus.ok) return bonus;
  const prof = readBool(c, 'proficient', false);
  if (!prof.ok) return prof;
  let modifier = bonus.value + (prof.value ? proficiencyFor(world, id.value) : 0);
  if (c['ability'] !== undefined) {
    const ab = readAbility(c, 'ability');
    if (!ab.ok) return ab;
    modifier += mod(sheetOf(world, id.value), ab.value);
  }
  const counts = readAdvantageCounts(c);
  if (!counts.ok) return counts;
  const pass = checkOddsAt(world, id.value, { modifier, dc: dc.value, advantage: counts.value.advantage, disadvantage: counts.value.disadvantage });
  return okv({ pass, modifier, difficulty: dc.value });
}

/** osr.characterStatus: derived numbers (modifiers, speed, dying, resilience...) for one readable character. */
function characterStatusQuery(world: World, args: Args, viewer: Viewer): R<Json> {
  const id = readableCharacter(world, viewer, asCommand('osr.characterStatus', args), 'id');
  if (!id.ok) return id;
  return okv(characterStatus(world, id.value) as unknown as Json);
}

export const osrQueries: { readonly [name: string]: Query } = {
  'osr.attackOdds': attackOddsQuery,
  'osr.checkOdds': checkOddsQuery,
  'osr.characterStatus': characterStatusQuery,
};
