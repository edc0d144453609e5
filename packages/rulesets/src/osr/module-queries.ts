// The OSR module's named queries: osr.attackOdds, osr.checkOdds and osr.characterStatus,
// the wire face of queries.ts. The engine answers them on the asker's own
// projected world; a character whose values a player may not read (hidden,
// or shown only by name) gets an error, never numbers from an emptied sheet.
import { asJson } from '@tablekeeper/engine/events';
import { canSee, defineQuery, FOE_SECRET, isFoeCharacter, secretDefence, seesFoeDefence, showsFoeNumbers, type Query, type Viewer, type World, own } from '@tablekeeper/engine';
import { proficiencyFor } from './combat-commands.js';
import { attackOddsDeclaration, characterStatusDeclaration, chaseOddsDeclaration, checkOddsDeclaration, moraleOddsDeclaration, returnOddsDeclaration } from './declarations.js';
import { CHASE_ABILITY, chaseDc, chaseRoller, returnDc } from './exploration.js';
import { livingPcs } from './exploration-commands.js';
import { getOsr } from './state.js';
import { MORALE_DC } from './hazard-commands.js';
import { attackOddsAt, characterStatus, checkOddsAt } from './queries.js';
import { readDice, specText } from './rolls.js';
import { failDamageOdds } from './odds.js';
import { advantageCounts, attackReach, checkAdvantage, fail, isHidden, noAcYet, okv, type R } from './shared.js';
import { bestModifier, mod } from './sheet.js';
import { sheetOf } from './state.js';

/**
 * A character id this viewer may reckon with: known, and its values readable.
 * (A veiled combatant's link to its character is already gone from a player's
 * projection, so only the character's own visibility can be checked here.)
 */
function readableCharacter(world: World, viewer: Viewer, id: string, field: string): R<string> {
  const ch = own(world.characters, id);
  if (ch === undefined) return fail('NOT_FOUND', `${field}: no character ${JSON.stringify(id)}`, field);
  if (viewer.role !== 'gm' && !canSee(ch.visibility, viewer)) return fail('VALUES_HIDDEN', `the GM keeps ${ch.name}'s numbers secret`, field);
  return okv(id);
}

/** osr.attackOdds: the osr.attack arguments that change the odds, with the command's own limits. */
const attackOddsQuery = defineQuery(attackOddsDeclaration, (world, p, viewer) => {
  const att = readableCharacter(world, viewer, p.attackerId, 'attackerId');
  if (!att.ok) return att;
  const noAc = noAcYet(world, p.targetId);
  if (noAc !== null) return noAc;
  const tgt = readableCharacter(world, viewer, p.targetId, 'targetId');
  if (!tgt.ok) return tgt;
  if (att.value === tgt.value) return fail('INVALID_VALUE', 'an attack needs a target other than the attacker', 'targetId');
  // Exact odds would give away a foe's AC, or a foe attacker's scores (ADR 33): players get them once the GM reveals them.
  if (viewer.role !== 'gm') {
    if (isFoeCharacter(world, att.value) && !showsFoeNumbers(world)) return fail(FOE_SECRET, `the GM keeps ${own(world.characters, att.value)!.name}'s numbers secret`, 'attackerId');
    if (isFoeCharacter(world, tgt.value) && !seesFoeDefence(world, viewer)) return fail(FOE_SECRET, secretDefence(own(world.characters, tgt.value)!.name, 'AC'), 'targetId');
  }
  // As osr.attack refuses it: someone in stealth cannot be targeted directly.
  if (isHidden(world, tgt.value)) return fail('TARGET_HIDDEN', 'a character in stealth cannot be targeted directly (001 "Positioning")', 'targetId');
  const reach = attackReach(p);
  if (!reach.ok) return reach;
  const { kind, delivery, range } = reach.value;
  const dmg = readDice(p.damage ?? '1d6', 'damage');
  if (!dmg.ok) return dmg;
  const o = attackOddsAt(world, {
    attacker: att.value,
    target: tgt.value,
    kind,
    proficient: p.proficient ?? false,
    bonus: p.bonus ?? 0,
    ranged: delivery === 'ranged',
    inMelee: range === 'close',
    longRange: p.longRange === true,
    ...advantageCounts(p.advantage),
    damage: dmg.value,
  });
  return okv({ ...o, kind, delivery, range });
});

/** osr.checkOdds: the chance of an osr.check (or a stabilize check) with the same modifier parts, before anyone rolls. */
const checkOddsQuery = defineQuery(checkOddsDeclaration, (world, p, viewer) => {
  const id = readableCharacter(world, viewer, p.characterId, 'characterId');
  if (!id.ok) return id;
  // A foe's scores stay with the GM (ADR 33), as in osr.characterStatus.
  if (viewer.role !== 'gm' && isFoeCharacter(world, id.value) && !showsFoeNumbers(world)) return fail(FOE_SECRET, `the GM keeps ${own(world.characters, id.value)!.name}'s numbers secret`, 'characterId');
  const modifier = (p.bonus ?? 0) + (p.proficient === true ? proficiencyFor(world, id.value) : 0) + (p.ability === undefined ? 0 : mod(sheetOf(world, id.value), p.ability));
  const difficulty = p.difficulty ?? 10;
  const counts = advantageCounts(p.advantage);
  const pass = checkOddsAt(world, id.value, { modifier, dc: difficulty, tags: p.tags ?? [], ...counts });
  if (p.damageOnFail === undefined) return okv({ pass, modifier, difficulty });
  const dmg = readDice(p.damageOnFail, 'damageOnFail');
  if (!dmg.ok) return dmg;
  // As osr.check rolls it: the same advantage sources, and a natural 1 doubles only a PC's damage.
  const adv = checkAdvantage(world, id.value, { ...counts, tags: p.tags ?? [] });
  const pc = own(world.characters, id.value)?.kind === 'pc';
  const damage = failDamageOdds(modifier, difficulty, adv.advantage, adv.impossible, pc);
  return okv({ pass, modifier, difficulty, damage: { dice: specText(dmg.value), ...damage } });
});

/**
 * osr.moraleOdds: the chance the first listed holds, as osr.morale rolls it (001 "Morale Checks"): WIS mod, proficiency
 * if fitting, and the sheet's morale bonus (001 bases it on HD but gives no table, so the GM enters it on the stat block).
 */
const moraleOddsQuery = defineQuery(moraleOddsDeclaration, (world, p, viewer) => {
  const id = readableCharacter(world, viewer, p.characterIds[0]!, 'characterIds.0');
  if (!id.ok) return id;
  const s = sheetOf(world, id.value);
  const wis = mod(s, 'wis');
  const proficiency = p.proficient === true ? proficiencyFor(world, id.value) : 0;
  const modifier = wis + proficiency + s.moraleBonus;
  const pass = checkOddsAt(world, id.value, { modifier, dc: MORALE_DC, ...advantageCounts(p.advantage) });
  return okv({ pass, modifier, wis, proficiency, moraleBonus: s.moraleBonus, difficulty: MORALE_DC });
});

/**
 * osr.chaseOdds: the first listed runner's chance, with osr.chase's ability and DC (001 "Chases"); as one
 * group, the chance of the one roll osr.chase makes for all, by the worst modifier among them.
 */
const chaseOddsQuery = defineQuery(chaseOddsDeclaration, (world, p, viewer) => {
  const ability = CHASE_ABILITY[p.ground ?? 'open'];
  const ids: string[] = [];
  for (const [i, x] of (p.together === true ? p.characterIds : p.characterIds.slice(0, 1)).entries()) {
    const id = readableCharacter(world, viewer, x, `characterIds.${i}`);
    if (!id.ok) return id;
    ids.push(id.value);
  }
  const roller = chaseRoller(ids, (x) => mod(sheetOf(world, x), ability));
  const modifier = mod(sheetOf(world, roller), ability);
  const difficulty = chaseDc(p.speed ?? 30, p.dcAdjust ?? 0);
  return okv({ pass: checkOddsAt(world, roller, { modifier, dc: difficulty, ...advantageCounts(p.advantage) }), modifier, difficulty, ability });
});

/** osr.returnChances: what osr.rollToReturn would roll for each PC it takes by default, before anyone rolls (review 11 #15). Not named '...Odds': its answer is a list per PC, not one of the odds shapes the web words (ADR 58). */
const returnOddsQuery = defineQuery(returnOddsDeclaration, (world) => {
  const difficulty = returnDc(getOsr(world).turnsOut);
  const pcs = livingPcs(world).map((id) => {
    const modifier = bestModifier(sheetOf(world, id), false) + proficiencyFor(world, id);
    return { characterId: id, name: own(world.characters, id)!.name, modifier, pass: checkOddsAt(world, id, { modifier, dc: difficulty }) };
  });
  return okv({ difficulty, pcs });
});

/** osr.characterStatus: derived numbers (modifiers, speed, dying, resilience...) for one readable character. */
const characterStatusQuery = defineQuery(characterStatusDeclaration, (world, p, viewer) => {
  const id = readableCharacter(world, viewer, p.characterId, 'characterId');
  if (!id.ok) return id;
  // A foe's derived numbers come from its stats, which stay with the GM (ADR 33).
  if (viewer.role !== 'gm' && isFoeCharacter(world, id.value) && !showsFoeNumbers(world)) return fail(FOE_SECRET, `the GM keeps ${own(world.characters, id.value)!.name}'s numbers secret`, 'characterId');
  return okv(asJson(characterStatus(world, id.value)));
});

export const osrQueries: { readonly [name: string]: Query } = {
  'osr.attackOdds': attackOddsQuery,
  'osr.checkOdds': checkOddsQuery,
  'osr.moraleOdds': moraleOddsQuery,
  'osr.chaseOdds': chaseOddsQuery,
  'osr.returnChances': returnOddsQuery,
  'osr.characterStatus': characterStatusQuery,
};
