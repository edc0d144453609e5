// A combatant's own turn in the Main phase (004 "Movement", "Dash", "Free
// Actions", "Improvised Maneuvers"): free actions, movement styles, going
// prone and standing, Dash, granted styles, interruptions and maneuvers.
import { asJson } from '@tablekeeper/engine/events';
import { combatantNamed, controlsCombatant, err, getEncounter, handlerOf, ok, own, type CommandHandler, type EncounterKit, type EngineEvent, type RuleError, type Viewer, type World } from '@tablekeeper/engine';
import { distanceFor } from '../distances.js';
import { planDash, planDropProne, planMove, planStand } from '../movement.js';
import { kleptoTest } from '../roll.js';
import { K, numberSetting, setting, sixthDistance } from '../settings.js';
import { getKlepto } from '../state.js';
import { BEATS_PER_ROUND, FORBIDDEN, inEncounterPhase, interruption, MAX_TEXT, nameOf, sheet, turnMovement } from '../context.js';
import { dashDeclaration, dropProneDeclaration, freeActionDeclaration, grantStyleDeclaration, improvisedManeuverDeclaration, interruptDeclaration, moveDeclaration, standDeclaration } from '../declarations.js';
import type { KleptoEvent } from '../events.js';

/** The GM, or the player whose character the combatant plays (judged on the parsed payload, old field names already moved). */
const mayAct = (world: World, actor: Viewer, characterId: string): RuleError | null => (controlsCombatant(world, actor, characterId) ? null : FORBIDDEN);

export function turnCommands(kit: EncounterKit): Record<string, CommandHandler> {
  return {
    'kleptonomicon.freeAction': handlerOf(freeActionDeclaration, {
      label: 'take a free action',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId, description, gmAllows }, env) {
        const tm = turnMovement(world, characterId);
        if (!tm.ok) return tm;
        // The schema bounds the length; blank text says nothing.
        if (description.trim() === '') return err('INVALID_VALUE', `description must be a non-empty string of at most ${MAX_TEXT} characters`, 'description');
        const used = getKlepto(world).freeActions[tm.value.id] ?? 0;
        const limit = numberSetting(world, K.freeActionsPerTurn) ?? 2;
        // Only the GM may allow more, when they fit in the same six seconds.
        if (used >= limit && !(gmAllows === true && env.actor.role === 'gm')) return err('FREE_ACTIONS_USED', `${limit} improvised free actions already this turn; the GM may allow more`, 'gmAllows');
        return ok([{ type: 'kleptonomicon.freeActionTaken', combatant: tm.value.id, description, count: used + 1 } satisfies KleptoEvent]);
      },
    }),
    // ------------------------------------------------------------ movement (Main phase, own turn)
    'kleptonomicon.move': handlerOf(moveDeclaration, {
      label: 'move',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId, style: styleIn, units, leaving = [] }) {
        const t = turnMovement(world, characterId);
        if (!t.ok) return t;
        const style = styleIn ?? t.value.tm.active;
        const r = planMove(t.value.tm, style, units);
        if (!r.ok) return { ok: false, error: r.error };
        // Leaving an enemy's Swinging Distance invites an Opportunity Attack (a reaction: it needs a Beat).
        const enc = getEncounter(world);
        const attackers: string[] = [];
        for (let i = 0; i < leaving.length; i++) {
          const id = leaving[i]!;
          if (own(enc.combatants, id) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(id)}`, `leaving[${i}]`);
          const econ = kit.economy(world, id);
          if ((econ.spent['beats'] ?? 0) >= BEATS_PER_ROUND + (econ.granted['beats'] ?? 0)) continue;
          attackers.push(id);
        }
        return ok([{ type: 'kleptonomicon.moved', combatant: t.value.id, style, units, cost: r.value.spent - t.value.tm.spent, distance: distanceFor(units, sixthDistance(world)).name, opportunityAttackers: attackers } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.dropProne': handlerOf(dropProneDeclaration, {
      label: 'drop prone',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId }) {
        const t = turnMovement(world, characterId);
        if (!t.ok) return t;
        const r = planDropProne(t.value.tm);
        return r.ok ? ok([{ type: 'kleptonomicon.wentProne', combatant: t.value.id } satisfies KleptoEvent]) : { ok: false, error: r.error };
      },
    }),
    'kleptonomicon.stand': handlerOf(standDeclaration, {
      label: 'stand up',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId }) {
        const t = turnMovement(world, characterId);
        if (!t.ok) return t;
        const r = planStand(t.value.tm);
        return r.ok ? ok([{ type: 'kleptonomicon.stood', combatant: t.value.id } satisfies KleptoEvent]) : { ok: false, error: r.error };
      },
    }),
    'kleptonomicon.dash': handlerOf(dashDeclaration, {
      label: 'Dash',
      authorize: (world, p, actor) => mayAct(world, actor, p.characterId),
      decide(world, { characterId }, env) {
        const t = turnMovement(world, characterId);
        if (!t.ok) return t;
        const id = t.value.id;
        const enc = getEncounter(world);
        const d = getKlepto(world).dashes[id];
        const count = d !== undefined && d.round === enc.round ? d.count : 0;
        let test: ReturnType<typeof kleptoTest> | null = null;
        if (count === 1) {
          const athletics = sheet(world, id)['athletics'];
          test = kleptoTest(env.rng, { modifier: typeof athletics === 'number' ? athletics : 0, advantage: 0 });
        }
        const failAt = numberSetting(world, K.failAtOrBelow) ?? 6;
        const plan = planDash(t.value.tm, count, test === null ? null : { passed: test.score > failAt });
        if (!plan.ok) return { ok: false, error: plan.error };
        const events: EngineEvent[] = [];
        if (setting(world, K.dashCostsBeat) === true) {
          const spend = kit.spend(world, id, { kind: 'ability', cost: 1 });
          if (!spend.ok) return err('NO_BEATS', `${nameOf(world, id)} has no Beat left for the Dash`, 'characterId');
          events.push(spend.value);
        }
        events.push({ type: 'kleptonomicon.dashed', combatant: id, round: enc.round, outcome: plan.value.outcome.kind, test: asJson(test) } satisfies KleptoEvent);
        if (plan.value.outcome.kind === 'slowed') {
          const slowed = kit.applyCondition(world, { target: id, condition: 'slowed', duration: { kind: 'indefinite' }, source: id }, env.rng);
          if (slowed.ok) events.push(slowed.value);
        }
        return ok(events);
      },
    }),
    'kleptonomicon.grantStyle': handlerOf(grantStyleDeclaration, {
      label: 'grant a movement style',
      decide(world, { characterId, style, variant = 'half' }) {
        const t = turnMovement(world, characterId);
        if (!t.ok) return t;
        // Improvised styles are Half unless the GM says otherwise.
        return ok([{ type: 'kleptonomicon.styleGranted', combatant: t.value.id, style, variant } satisfies KleptoEvent]);
      },
    }),
    'kleptonomicon.interrupt': handlerOf(interruptDeclaration, {
      label: 'interrupt movement',
      decide(world, { characterId, heavy }) {
        const c = combatantNamed(getEncounter(world), characterId);
        if (c === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(characterId)}`, 'characterId');
        return ok([interruption(world, c.id, 'an ability that interrupts movement', heavy === true)]);
      },
    }),
    'kleptonomicon.improvisedManeuver': handlerOf(improvisedManeuverDeclaration, {
      label: 'make an improvised maneuver',
      authorize: (world, p, actor) => mayAct(world, actor, p.attackerId),
      decide(world, { attackerId: attacker, targetId: target, modifier = 0, advantage = 0, defense }, env) {
        const st = getKlepto(world);
        const bad = inEncounterPhase(st, 'main');
        if (bad !== null) return { ok: false, error: bad };
        const enc = getEncounter(world);
        if (own(enc.combatants, attacker) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(attacker)}`, 'attackerId');
        if (own(enc.combatants, target) === undefined) return err('NOT_FOUND', `no combatant ${JSON.stringify(target)}`, 'targetId');
        if (enc.current !== attacker) return err('NOT_YOUR_TURN', 'a maneuver is a Basic Attack on your own turn', 'attackerId');
        const spend = kit.spend(world, attacker, { kind: 'ability', cost: 1 });
        if (!spend.ok) return err('NO_BEATS', `${nameOf(world, attacker)} has no Beat left for a Basic Attack`, 'attackerId');
        // The improvised maneuver adds Slowed to a Basic Attack at one extra Disadvantage.
        const roll = kleptoTest(env.rng, { modifier, advantage: advantage - 1 });
        const hit = defense === undefined ? null : roll.score >= defense;
        const events: EngineEvent[] = [spend.value, { type: 'kleptonomicon.maneuverRolled', attackerId: attacker, targetId: target, roll: asJson(roll), defense: defense ?? null, hit } satisfies KleptoEvent];
        if (hit === true) {
          const slowed = kit.applyCondition(world, { target, condition: 'slowed', duration: { kind: 'indefinite' }, source: attacker }, env.rng);
          if (slowed.ok) events.push(slowed.value);
        }
        return ok(events);
      },
    }),
  };
}
