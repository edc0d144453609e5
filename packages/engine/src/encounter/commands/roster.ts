// Who is in the encounter and what they carry: start and end, add, remove and
// place combatants, their stats, hit points, visibility and ability to act.
import { handlerOf, type CommandDeclaration } from '../../core/catalog.js';
import { mintId } from '../../core/ids.js';
import { own } from '../../core/own.js';
import { ErrorCode } from '../../core/result.js';
import type { CommandHandler, EngineEvent, World } from '../../core/types.js';
import type { EncounterDeclarations } from '../declarations.js';
import { asJson, combatantFrom, MAX_COMBATANT_STATS, MAX_COMBATANTS, needActive, needActor, needCombatant } from '../input.js';
import { withSheet, withSheets } from '../selectors.js';
import { EMPTY_ENCOUNTER, errR, getEncounter, okR } from '../state.js';
import type { Combatant, EncounterRules, EncounterState, SurpriseParams } from '../types.js';
import type { z } from 'zod';

/** Why a turn order keeps no manual order (ADR 29), in the GM's words. */
const NO_MANUAL: { readonly [sequencerId: string]: string } = {
  teams: 'teams take turns and each team picks who acts (003 "Initiative and Rounds")',
  spotlight: 'the spotlight moves by the rolls and the GM\'s choices (000)',
  'edge-save': 'each PC slots in by the Edge Saves rolled at the start (004 "Turn Order")',
};

export function rosterCommands(rules: EncounterRules, d: EncounterDeclarations): Record<string, CommandHandler> {
  const seqr = rules.sequencer;
  return {
    'encounter.start': handlerOf(d.start, {
      decide(world, p, env) {
        const enc0 = getEncounter(world);
        if (enc0.active) return errR('ENCOUNTER_RUNNING', 'an encounter is already running; end it first');
        const gate = rules.mayStart?.(world) ?? null;
        if (gate !== null) return { ok: false, error: gate };
        // Options a turn order does not have are refused, not ignored (ADR 73).
        const g = p.params?.groupInitiative;
        if (g !== undefined && g !== 'each' && seqr.groupInitiative !== true) return errR('NOT_OFFERED', 'this ruleset\'s turn order does not let foes share one initiative (it is already by side or group, or fixed by the rules)', 'params.groupInitiative');
        if (p.params?.rerollEachRound === true && seqr.reroll === undefined) return errR('NOT_OFFERED', 'this ruleset\'s turn order is not rolled, so there is nothing to roll again each round', 'params.rerollEachRound');
        const list = p.combatants;
        const combatants: Record<string, Combatant> = {};
        const roster: string[] = [];
        let minting = world;
        const fresh = (): string => {
          const [id, next] = mintId(minting, 'cb', env.rng);
          minting = next;
          return id;
        };
        for (let i = 0; i < list.length; i++) {
          const c = combatantFrom(world, list[i]!, i, fresh);
          if (own(combatants, c.id) !== undefined) return errR('DUPLICATE_COMBATANT', `combatant "${c.id}" is listed twice`, `combatants[${i}].id`);
          combatants[c.id] = c;
          roster.push(c.id);
        }
        let enc: EncounterState = { ...EMPTY_ENCOUNTER, conditions: enc0.conditions, combatants, roster, nextJoin: roster.length };
        for (const id of roster) {
          const c = combatants[id]!;
          // A placement given by id wins; else the combatant's own placement fields (band, score, team...).
          const input = p.placements === undefined ? undefined : own(p.placements, id);
          const pl = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c), asJson(input ?? list[roster.indexOf(id)] ?? null), env.rng);
          if (!pl.ok) return pl;
          combatants[id] = { ...c, placement: pl.value };
        }
        enc = { ...enc, combatants: { ...combatants } };
        const setup = seqr.setup(withSheets(world, rules, enc), asJson(p.params), env.rng, world.settings);
        if (!setup.ok) return setup;
        for (const [id, pl] of Object.entries(setup.value.placements)) {
          const c = combatants[id];
          if (c !== undefined) combatants[id] = { ...c, placement: pl };
        }
        enc = { ...enc, combatants: { ...combatants }, seq: setup.value.state };
        let surpriseActors: readonly string[] | null = null;
        const sp = p.surprise;
        if (sp !== undefined && sp !== null) {
          const params: SurpriseParams = sp.actors === undefined ? { side: sp.side } : { side: sp.side, actors: sp.actors };
          const who = seqr.surprise(enc, params);
          if (!who.ok) return who;
          surpriseActors = who.value;
        }
        // A lingering condition ("until removed", until a rest) whose bearer can never come back ends here: no character
        // at the table and not in this line-up (a foe made for the last fight). A character's stays (ADR 57) and the
        // builder offers to clear it (ADR 66).
        const gone = Object.values(enc0.conditions)
          .filter((c) => own(world.characters, c.target) === undefined && own(combatants, c.target) === undefined)
          .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
          .map((c): EngineEvent => ({ type: 'condition.expired', id: c.id, target: c.target, condition: c.defId, reason: 'its bearer is not in this fight nor at the table' }));
        return okR([
          ...gone,
          {
            type: 'encounter.started',
            combatants: asJson(roster.map((id) => combatants[id])),
            seq: setup.value.state,
            surpriseActors: asJson(surpriseActors),
            round: surpriseActors === null ? 1 : 0,
          },
        ]);
      },
    }),
    'encounter.end': handlerOf(d.end, {
      decide(world) {
        const a = needActive(world);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.ended', round: a.value.round }]);
      },
    }),
    'encounter.add': handlerOf(d.add, {
      decide(world, p, env) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        if (enc.roster.length >= MAX_COMBATANTS) return errR('TOO_MANY', `at most ${MAX_COMBATANTS} combatants`);
        const c = combatantFrom(world, p.combatant, enc.nextJoin, () => mintId(world, 'cb', env.rng)[0]);
        if (own(enc.combatants, c.id) !== undefined) return errR('DUPLICATE_COMBATANT', `combatant "${c.id}" is already in the encounter`, 'combatant.id');
        const pl = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c), asJson(p.placement ?? p.combatant), env.rng);
        if (!pl.ok) return pl;
        return okR([{ type: 'encounter.combatantAdded', combatant: asJson({ ...c, placement: pl.value }) }]);
      },
    }),
    'encounter.remove': handlerOf(d.remove, {
      decide(world, p) {
        const a = needActor(world, p.characterId);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.combatantRemoved', id: a.value.combatant.id }]);
      },
    }),
    'encounter.place': handlerOf(d.place, {
      // The GM moves someone in the order (a band change from an effect, a new team, re-rolled Edge Saves).
      decide(world, p, env) {
        const a = needActor(world, p.characterId);
        if (!a.ok) return a;
        const { enc, combatant } = a.value;
        const pl = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, combatant), asJson(p.placement), env.rng);
        if (!pl.ok) return pl;
        return okR([{ type: 'encounter.placed', id: combatant.id, placement: pl.value }]);
      },
    }),
    'encounter.reorder': handlerOf(d.reorder, {
      // The GM's manual order (ADR 29): the turn order's own hook says what placements that takes, one placed event each.
      decide(world, p) {
        const a = needActor(world, p.characterId);
        if (!a.ok) return a;
        const { enc, combatant } = a.value;
        let before: string | null = null;
        if (p.beforeId !== null) {
          const b = needCombatant(enc, p.beforeId, 'beforeId');
          if (!b.ok) return b;
          if (b.value.id === combatant.id) return errR(ErrorCode.INVALID_VALUE, 'beforeId: a combatant cannot go before itself', 'beforeId');
          before = b.value.id;
        }
        if (seqr.reorder === undefined) return errR('NO_MANUAL_ORDER', `this turn order (${seqr.id}) has no manual order: ${NO_MANUAL[seqr.id] ?? 'it decides who acts as the round goes'}`, 'characterId');
        const r = seqr.reorder(enc, combatant.id, before);
        if (!r.ok) return r;
        return okR(Object.entries(r.value).map(([id, placement]) => ({ type: 'encounter.placed', id, placement })));
      },
    }),
    'encounter.damage': hpCommand(d.damage, 'damage'),
    'encounter.heal': hpCommand(d.heal, 'heal'),
    'encounter.setStats': handlerOf(d.setStats, {
      // The GM edits a combatant's own numbers (an unlinked NPC's HP or another track); a linked character's sheet is character.update's.
      decide(world, { characterId, stats }) {
        const c = needCombatant(getEncounter(world), characterId, 'characterId');
        if (!c.ok) return c;
        if (Object.keys(stats).length === 0) return errR(ErrorCode.INVALID_VALUE, 'stats must be an object with at least one key', 'stats');
        if (Object.keys({ ...c.value.stats, ...stats }).length > MAX_COMBATANT_STATS) return errR('TOO_MANY', `a combatant may have at most ${MAX_COMBATANT_STATS} stats`, 'stats');
        // Own keys only: a stat named "constructor" must not read Object's member.
        const from = Object.fromEntries(Object.keys(stats).map((k) => [k, Object.hasOwn(c.value.stats, k) ? (c.value.stats[k] ?? null) : null]));
        return okR([{ type: 'encounter.statsSet', id: c.value.id, stats, from }]);
      },
    }),
    'encounter.hide': visibilityCommand(d.hide, 'hidden'),
    'encounter.reveal': visibilityCommand(d.reveal, 'visible'),
    'encounter.obscure': visibilityCommand(d.obscure, 'existence'),
    // A foe added as a name only (no AC to attack it) gets its character later, from its row (issue 20).
    'encounter.link': handlerOf(d.link, {
      decide(world, { characterId, playsId }) {
        const a = needActive(world);
        if (!a.ok) return a;
        const c = needCombatant(a.value, characterId, 'characterId');
        if (!c.ok) return c;
        if (c.value.characterId !== null) return errR('ALREADY_LINKED', `${c.value.name} already plays a character`, 'characterId');
        const ch = own(world.characters, playsId);
        if (ch === undefined) return errR(ErrorCode.NOT_FOUND, `no character "${playsId}"`, 'playsId');
        const other = a.value.roster.map((id) => own(a.value.combatants, id)).find((x) => x?.characterId === playsId);
        if (other !== undefined) return errR('ALREADY_LINKED', `${ch.name} is already in this encounter as ${other.name}`, 'playsId');
        return okR([{ type: 'encounter.linked', id: c.value.id, characterId: playsId }]);
      },
    }),
    'encounter.setIncapacitated': handlerOf(d.setIncapacitated, {
      decide(world, { characterId, value }) {
        const a = needActor(world, characterId);
        if (!a.ok) return a;
        return okR([{ type: 'encounter.incapacitatedSet', id: a.value.combatant.id, value }]);
      },
    }),
  };
}

/**
 * The damage box: take or restore hit points on the combatant's own hp, or
 * on its linked character's when the combatant has none. Healing stops at
 * maxHp when there is one; damage stops at 0. Rulesets with damage modes
 * (resistance, armour, endurance) keep their own commands.
 */
function hpCommand(decl: CommandDeclaration<z.ZodType<{ characterId: string; amount: number }>>, kind: 'damage' | 'heal'): CommandHandler {
  return handlerOf(decl, {
    decide(world: World, { characterId, amount }) {
      const c = needCombatant(getEncounter(world), characterId, 'characterId');
      // A character in no fight keeps its hit points on its own sheet: healed after a fight, hurt by a fall (ADR 104).
      if (!c.ok) return own(world.characters, characterId) === undefined ? c : outsideFight(world, characterId, amount, kind);
      const ch = c.value.characterId === null ? undefined : world.characters[c.value.characterId];
      const onCombatant = typeof c.value.stats['hp'] === 'number';
      const stats = onCombatant ? c.value.stats : ch?.stats;
      const hp = stats?.['hp'];
      if (typeof hp !== 'number') return errR('NO_HP', `${c.value.name} has no hit points to change: give them HP first`, 'characterId');
      const max = stats?.['maxHp'];
      const to = kind === 'damage' ? Math.max(0, hp - amount) : typeof max === 'number' ? Math.max(hp, Math.min(max, hp + amount)) : hp + amount;
      return okR([{ type: 'encounter.hpChanged', id: c.value.id, on: onCombatant ? 'combatant' : 'character', kind, amount, from: hp, to }]);
    },
  });
}

/** encounter.damage / encounter.heal on a character no combatant plays: the same change, on the character's own HP. */
function outsideFight(world: World, characterId: string, amount: number, kind: 'damage' | 'heal') {
  const ch = own(world.characters, characterId)!;
  const hp = ch.stats['hp'];
  if (typeof hp !== 'number') return errR('NO_HP', `${ch.name} has no hit points to change: give them HP first`, 'characterId');
  const max = ch.stats['maxHp'];
  const to = kind === 'damage' ? Math.max(0, hp - amount) : typeof max === 'number' ? Math.max(hp, Math.min(max, hp + amount)) : hp + amount;
  return okR([{ type: 'encounter.hpChanged', id: characterId, on: 'character', kind, amount, from: hp, to }]);
}

function visibilityCommand(decl: EncounterDeclarations['hide'], to: 'hidden' | 'existence' | 'visible'): CommandHandler {
  return handlerOf(decl, {
    decide(world, { characterId }) {
      const a = needActor(world, characterId);
      if (!a.ok) return a;
      return okR([{ type: 'encounter.visibilitySet', id: a.value.combatant.id, visibility: to }]);
    },
  });
}
