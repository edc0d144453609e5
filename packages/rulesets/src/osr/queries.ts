// Read-only questions a GM or a player's screen asks of the table: a
// character's derived numbers, and exact odds for an attack or check as the
// table stands now (same modifiers and advantage sources as the commands).
import type { World } from '@tablekeeper/engine';
import { own } from '@tablekeeper/engine';
import { ABILITIES, abilityModifier, type Ability } from './checks.js';
import { ATTACK_ABILITY, damageFormula, type AttackKind } from './combat.js';
import { specText } from './rolls.js';
import { proficiencyFor } from './combat-commands.js';
import { hourOfClock, quarterOf, resilienceDc, timeDiceFor, type CheckTag, type Quarter } from './exploration.js';
import { attackOdds, checkChance, type AttackOdds } from './odds.js';
import { osrSettings } from './settings.js';
import { conditionEffect } from './conditions.js';
import { checkAdvantage, isExhausted, isHidden } from './shared.js';
import { carriedLoad, encumbrance } from './sheet.js';
import { getOsr, sheetOf } from './state.js';

export interface CharacterStatus {
  readonly modifiers: { readonly [a in Ability]: number };
  readonly proficiency: number;
  readonly hp: number;
  readonly maxHp: number;
  /** Speed after load; 0 when exhausted or completely encumbered. */
  readonly speed: number;
  readonly overloaded: number;
  readonly exhausted: boolean;
  readonly dying: { readonly downAt: number; readonly deadAfter: number; readonly untilFightEnds: boolean } | null;
  readonly dead: boolean;
  readonly hidden: boolean;
  /** Hours out without food and rest, the CON limit, and the DC if a check is due. */
  readonly resilience: { readonly hours: number; readonly limit: number; readonly dc: number | null };
  readonly xp: number;
}

export function characterStatus(world: World, id: string): CharacterStatus | null {
  if (own(world.characters, id) === undefined) return null;
  const s = sheetOf(world, id);
  const st = getOsr(world);
  const enc = encumbrance(s.str, carriedLoad(s), s.speed);
  const exhausted = isExhausted(world, id);
  const d = st.dying[id];
  const hours = Math.floor((world.clock.seconds - (st.restedAt[id] ?? 0)) / 3600);
  const modifiers = Object.fromEntries(ABILITIES.map((a) => [a, abilityModifier(s[a])])) as { [a in Ability]: number };
  return {
    modifiers,
    proficiency: proficiencyFor(world, id),
    hp: s.hp,
    maxHp: s.maxHp,
    speed: exhausted ? 0 : enc.speed,
    overloaded: enc.over,
    exhausted,
    dying: d === undefined ? null : { downAt: d.downAt, deadAfter: d.downAt + osrSettings(world).deathWindowSeconds, untilFightEnds: d.fight },
    dead: st.dead.includes(id),
    hidden: isHidden(world, id),
    resilience: { hours, limit: s.con, dc: resilienceDc(s.con, hours) },
    xp: st.xp[id] ?? 0,
  };
}

/** "What are my odds?" for an attack as the table stands: modifier, AC, light, load and the rest. */
export function attackOddsAt(
  world: World,
  o: { attacker: string; target: string; kind?: AttackKind; proficient?: boolean; bonus?: number; ranged?: boolean; inMelee?: boolean; longRange?: boolean; advantage?: number; disadvantage?: number; damage?: { count: number; sides: number; bonus: number } },
): AttackOdds & { readonly advantage: -1 | 0 | 1; readonly modifier: number; readonly ac: number; readonly damageWords: string } {
  const kind = o.kind ?? 'melee';
  const s = sheetOf(world, o.attacker);
  const abilityMod = abilityModifier(s[ATTACK_ABILITY[kind]]);
  const modifier = abilityMod + (o.proficient === true ? proficiencyFor(world, o.attacker) : 0) + (o.bonus ?? 0);
  const ranged = o.ranged ?? kind !== 'melee';
  const tags: CheckTag[] = ranged ? ['attack', 'ranged-attack'] : ['attack'];
  // As osr.attack: a long-range shot carries its own tag, which dim light, darkness and brilliant light hinder (001 "Light").
  if (o.longRange === true) tags.push('long-range-attack');
  // As osr.attack: a flanked target gives the attack advantage (ADR 70).
  const flanked = conditionEffect(world, o.target, 'against.attack.advantage') > 0 ? 1 : 0;
  const adv = checkAdvantage(world, o.attacker, { advantage: (o.advantage ?? 0) + flanked, disadvantage: (o.disadvantage ?? 0) + (ranged && o.inMelee === true ? 1 : 0), tags }).advantage;
  const ac = sheetOf(world, o.target).ac;
  const set = osrSettings(world);
  const dmg = o.damage ?? { count: 1, sides: 6, bonus: 0 };
  // As osr.attack: the ability modifier joins the dice (001 "Dealing Damage"), said in words beside the odds.
  const ability = ATTACK_ABILITY[kind];
  const odds = attackOdds(modifier, ac, adv, { ...dmg, bonus: dmg.bonus + abilityMod }, { natural20Succeeds: set.natural20AlwaysHits, natural1Fails: set.natural1AlwaysMisses });
  return { ...odds, advantage: adv, modifier, ac, damageWords: damageFormula(specText(dmg), ability, abilityMod) };
}

/** Exact chance of a check for a character, with every automatic advantage source. */
export function checkOddsAt(world: World, id: string, o: { modifier: number; dc: number; tags?: readonly CheckTag[]; advantage?: number; disadvantage?: number }): number {
  const adv = checkAdvantage(world, id, { advantage: o.advantage ?? 0, disadvantage: o.disadvantage ?? 0, tags: o.tags ?? [] });
  return adv.impossible ? 0 : checkChance(o.modifier, o.dc, adv.advantage);
}

/** 001 "Timekeeping": the clock's hour as time dice (one per quarter, the last showing the hours into it). */
export function timeOfDay(world: World): { readonly hour: number; readonly dice: readonly number[]; readonly quarter: Quarter; readonly day: number } {
  const hour = hourOfClock(world.clock.seconds);
  return { hour, dice: timeDiceFor(hour), quarter: quarterOf(hour), day: Math.floor(world.clock.seconds / 86_400) + 1 };
}
