// Attacks (ADR 51): a Basic Attack, a sheet ability that attacks, and the
// improvised maneuver (004 "Interrupting Movement"), one command and one
// odds query sharing its input. The Test is 1d10ish + modifier (rules
// README); a hit needs a Score at or above the target's Defense.
import { asJson } from '@tablekeeper/engine/events';
import { defineQuery, err, FOE_SECRET, getEncounter, handlerOf, isFoe, ok, own, secretDefence, type Combatant, type CommandHandler, type EncounterKit, type EngineEvent, type Result, type Viewer, type World } from '@tablekeeper/engine';
import { averageDamage, basicAttackOf, damageEvent, damageText, defenseOf, parseDamage, reachOf, reachRefusal, type DamageDice } from '../attack.js';
import { distanceById, distances, distanceWords, type BasicAttack, type SaidDistance } from '../distances.js';
import { sixthDistance } from '../settings.js';
import { abilitiesOf, controlsCombatant, FORBIDDEN, inEncounterPhase, interruption, nameOf } from '../context.js';
import { attackDeclaration, attackOddsDeclaration } from '../declarations.js';
import { abilityUse, type Ability } from '../phases.js';
import { passChance } from '../roll.js';
import { kleptoTest } from '../roll.js';
import { getKlepto } from '../state.js';
import type { KleptoEvent } from '../events.js';

type AttackInput = {
  readonly attackerId: string;
  readonly targetId: string;
  readonly abilityId?: string | undefined;
  readonly maneuver?: boolean | undefined;
  readonly modifier?: number | undefined;
  readonly advantage?: number | undefined;
  readonly defense?: number | undefined;
  readonly damage?: string | undefined;
  readonly basic?: BasicAttack | undefined;
  readonly distance?: string | undefined;
  readonly units?: number | undefined;
};

interface Plan {
  readonly attacker: Combatant;
  readonly target: Combatant;
  readonly ability: Ability | null;
  readonly name: string;
  readonly modifier: number;
  /** Net Advantage with the maneuver's own Disadvantage counted in. */
  readonly advantage: number;
  readonly damage: DamageDice | null;
  /** How far the target was said to be, in words ("Throwing Distance (8u)", "10u"); null when unsaid (ADR 124). */
  readonly distance: string | null;
}

/** Who attacks whom with what: everything but the Defense and the cost, read alike by the command and its odds. */
function plan(world: World, p: AttackInput, viewer: Viewer): Result<Plan> {
  const enc = getEncounter(world);
  const attacker = own(enc.combatants, p.attackerId);
  if (attacker === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(p.attackerId)} in this Encounter`, 'attackerId');
  const target = own(enc.combatants, p.targetId);
  if (target === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(p.targetId)} in this Encounter`, 'targetId');
  if (target.id === attacker.id) return err('INVALID_VALUE', `${attacker.name} cannot attack themselves`, 'targetId');
  let ability: Ability | null = null;
  if (p.abilityId !== undefined) {
    if (p.basic !== undefined) return err('INVALID_VALUE', 'an ability reaches as its sheet says: only a Basic Attack is melee, ranged or magic', 'basic');
    ability = abilitiesOf(world, attacker.characterId, attacker.id).find((a) => a.id === p.abilityId) ?? null;
    if (ability === null) return err('NOT_FOUND', `${attacker.name} has no ability ${JSON.stringify(p.abilityId)}`, 'abilityId');
    if (ability.attack !== true) return err('INVALID_VALUE', `${ability.name} makes no attack: use it from its own button`, 'abilityId');
    // 004: the maneuver is made with one of the Basic Attacks, not an ability.
    if (p.maneuver === true) return err('INVALID_VALUE', 'the improvised maneuver is made with a Basic Attack, not an ability', 'maneuver');
  }
  const basic = basicAttackOf(world, attacker.id);
  const fromSheet = ability?.damage ?? (ability === null ? basic.damage : '');
  const dmg = parseDamage(p.damage ?? fromSheet);
  if (!dmg.ok) return dmg;
  // A player's damage on a hit is the sheet's (ADR 56): only the GM may roll other dice.
  if (viewer.role !== 'gm' && p.damage !== undefined) {
    const sheetDice = parseDamage(fromSheet);
    const same = sheetDice.ok && (sheetDice.value === null ? dmg.value === null : dmg.value !== null && damageText(sheetDice.value) === damageText(dmg.value));
    if (!same) return err('INVALID_VALUE', `the damage on a hit comes from ${attacker.name}'s sheet${fromSheet.trim() === '' ? ' (none there)' : ` (${fromSheet.trim()})`}: only the GM may roll other dice`, 'damage');
  }
  // A player's Test modifier and Advantage are the rules' too (review 9): the sheet's modifier, no Advantage of
  // their own (the maneuver's Disadvantage is added below). The GM may roll with others.
  const ruled = ability?.modifier ?? (ability === null ? basic.modifier : 0);
  if (viewer.role !== 'gm' && p.modifier !== undefined && p.modifier !== ruled) {
    return err('INVALID_VALUE', `the Test modifier of ${ability?.name ?? 'a Basic Attack'} comes from ${attacker.name}'s sheet (${ruled < 0 ? ruled : `+${ruled}`}): only the GM may roll with another`, 'modifier');
  }
  if (viewer.role !== 'gm' && p.advantage !== undefined && p.advantage !== 0) {
    return err('INVALID_VALUE', `an attack's Advantage or Disadvantage is the GM's to grant: ${attacker.name}'s player rolls without (ask the GM)`, 'advantage');
  }
  const said = saidDistance(world, p);
  if (!said.ok) return said;
  if (said.value !== null) {
    // ADR 124: the maneuver and the Opportunity Attack are Basic Attacks, so they reach as the Basic Attack chosen.
    const reach = reachOf(ability, p.basic ?? basic.kind, sixthDistance(world));
    const refusal = reachRefusal(target.name, said.value, reach);
    if (refusal !== null) return err('OUT_OF_REACH', refusal, p.units !== undefined ? 'units' : 'distance');
  }
  return ok({
    attacker,
    target,
    ability,
    name: ability?.name ?? (p.maneuver === true ? 'improvised maneuver' : 'Basic Attack'),
    modifier: p.modifier ?? ruled,
    advantage: (p.advantage ?? 0) - (p.maneuver === true ? 1 : 0),
    damage: dmg.value,
    distance: said.value === null ? null : 'distance' in said.value ? distanceWords(said.value.distance) : `${said.value.units}u`,
  });
}

/** How far the target was said to be (a distance's key at this table, or units), null when unsaid; a bad key in words. */
function saidDistance(world: World, p: AttackInput): Result<SaidDistance | null> {
  if (p.distance !== undefined && p.units !== undefined) return err('INVALID_VALUE', 'say how far the target is once: a named distance or units, not both', 'units');
  if (p.units !== undefined) return ok({ units: p.units });
  if (p.distance === undefined) return ok(null);
  const sixth = sixthDistance(world);
  const d = distanceById(p.distance, sixth);
  if (d === undefined) return err('INVALID_VALUE', `no distance ${JSON.stringify(p.distance)} at this table: one of ${distances(sixth).map((x) => x.id).join(', ')}`, 'distance');
  return ok({ distance: d });
}

/**
 * The Defense the Score must reach. The GM's typed one wins (the GM keeps the
 * numbers); a player's counts only for a target with none on record that is
 * no foe (a foe's is the GM's to give: without one the GM judges the hit).
 */
function defenseFor(world: World, viewer: Viewer, target: Combatant, typed: number | undefined): number | null {
  const record = defenseOf(world, target);
  if (viewer.role === 'gm') return typed ?? record;
  return record ?? (isFoe(world, target.id) ? null : (typed ?? null));
}

export function combatCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    'kleptonomicon.attack': handlerOf(attackDeclaration, {
      label: 'attack',
      authorize: (world, p, actor) => (controlsCombatant(world, actor, p.attackerId) ? null : FORBIDDEN),
      decide(world, p, env) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'main');
        if (bad !== null) return { ok: false, error: bad };
        const pl = plan(world, p, env.actor);
        if (!pl.ok) return pl;
        const { attacker, target, ability } = pl.value;
        const enc = getEncounter(world);
        const onTurn = enc.current === attacker.id;
        const events: EngineEvent[] = [];
        // The Basic Attack (and its maneuver) is an ability of one Beat on one's own turn; a sheet ability costs what its time says.
        // 004 "Movement Reactions": the Opportunity Attack is a Basic Attack against the mover, off turn, as a reaction.
        if (p.opportunity === true) {
          if (ability !== null || p.maneuver === true) return err('NOT_OPPORTUNITY', 'an Opportunity Attack is a Basic Attack', 'opportunity');
          if (own(st.opportunities ?? {}, attacker.id) !== target.id) return err('NO_OPPORTUNITY', `${attacker.name} has no Opportunity Attack open against ${target.name}`, 'opportunity');
          const spend = kit.spend(world, attacker.id, { kind: 'reaction', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${attacker.name} has no Beat left this round`, 'attackerId');
          events.push(spend.value);
        }
        const cost = p.opportunity === true ? ({ ok: true, cost: 'paid' } as const) : ability === null ? (onTurn ? ({ ok: true, cost: 'beat' } as const) : ({ ok: false, error: { code: 'NOT_YOUR_TURN', message: `${attacker.name} makes a Basic Attack on their own turn`, path: 'attackerId' } } as const)) : abilityUse(ability, { phase: st.phase, encounterPhase: st.encounterPhase, ownTurn: onTurn });
        if (!cost.ok) return { ok: false, error: cost.error };
        if (cost.cost === 'beat') {
          const spend = kit.spend(world, attacker.id, { kind: ability?.time === 'beatReaction' ? 'reaction' : 'ability', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${attacker.name} has no Beat left this round`, 'attackerId');
          events.push(spend.value);
        }
        const defense = defenseFor(world, env.actor, target, p.defense);
        const roll = kleptoTest(env.rng, { modifier: pl.value.modifier, advantage: pl.value.advantage });
        const hit = defense === null ? null : roll.score >= defense;
        const dice = pl.value.damage;
        const damageRolls: number[] = [];
        if (hit === true && dice !== null) for (let i = 0; i < dice.count; i++) damageRolls.push(env.rng.die(dice.sides));
        const damage = hit === true && dice !== null ? Math.max(0, damageRolls.reduce((a, b) => a + b, 0) + dice.bonus) : 0;
        events.push({
          type: 'kleptonomicon.attackRolled',
          attackerId: attacker.id,
          targetId: target.id,
          abilityId: ability?.id ?? null,
          name: pl.value.name,
          maneuver: p.maneuver === true,
          roll: asJson(roll),
          defense,
          hit,
          damageDice: dice === null ? null : damageText(dice),
          damageRolls,
          damage,
          ...(pl.value.distance === null ? {} : { distance: pl.value.distance }),
        } satisfies KleptoEvent);
        if (hit !== true) return ok(events);
        const hp = damageEvent(world, target, damage);
        if (hp !== null) events.push(hp);
        const stacks = (p.maneuver === true ? 1 : 0) + (ability?.slowed ?? 0);
        if (stacks > 0) {
          // Fleeting: no clock of its own; a stack goes at the end of each of the target's turns (ADR 43).
          const slowed = kit.applyCondition(world, { target: target.id, condition: 'slowed', duration: { kind: 'indefinite' }, source: attacker.id, stacks }, env.rng);
          if (slowed.ok) events.push(slowed.value);
        }
        if (ability?.interrupts === true) events.push(interruption(world, target.id, ability.name, false));
        return ok(events);
      },
    }),
  };
}

/** kleptonomicon.attackOdds: the exact chance to hit, on the asker's own view (a foe's Defense only where the GM shows it). */
export const attackOdds = defineQuery(attackOddsDeclaration, (world, p, viewer) => {
  const pl = plan(world, p, viewer);
  // ADR 124: an attack at a target said to be beyond its reach has no chance to give: the answer says so.
  if (!pl.ok) return pl.error.code === 'OUT_OF_REACH' ? err('OUT_OF_REACH', `out of reach: ${pl.error.message}`, pl.error.path) : pl;
  const { target } = pl.value;
  // A phone holds no foe's stats (ADR 33): with none in view, the odds would give the GM's number away or be made up.
  if (viewer.role !== 'gm' && isFoe(world, target.id) && defenseOf(world, target) === null) return err(FOE_SECRET, secretDefence(nameOf(world, target.id), 'Defense'), 'targetId');
  const defense = defenseFor(world, viewer, target, p.defense);
  if (defense === null) return err('INVALID_VALUE', viewer.role === 'gm' ? `${target.name} has no Defense on record: type the one to reach` : `${target.name} has no Defense on record: the GM judges the hit`, 'defense');
  const d = pl.value.damage;
  return ok({
    pass: passChance({ modifier: pl.value.modifier, advantage: pl.value.advantage }, defense - 1),
    defense,
    failAtOrBelow: defense - 1,
    damage: d === null ? null : damageText(d),
    averageDamage: d === null ? null : averageDamage(d),
  });
});
