// Taking turns: choosing who acts, ending, advancing, delaying and readying.
import { handlerOf } from '../../core/catalog.js';
import { own } from '../../core/own.js';
import { ErrorCode } from '../../core/result.js';
import type { CommandHandler } from '../../core/types.js';
import type { EncounterDeclarations } from '../declarations.js';
import { asJson, FORBIDDEN, needActive, needCombatant, needCurrent, ownsCreature, ownsCurrent } from '../input.js';
import { canAct, withSheet, withSheets } from '../selectors.js';
import { controlsCombatant, errR, getEncounter, okR } from '../state.js';
import type { TurnFlow } from '../turn-order.js';
import type { EncounterRules } from '../types.js';

export function turnCommands(rules: EncounterRules, d: EncounterDeclarations, flow: TurnFlow): Record<string, CommandHandler> {
  const seqr = rules.sequencer;
  return {
    'encounter.choose': handlerOf(d.choose, {
      authorize(world, p, actor) {
        if (actor.role === 'gm') return null;
        const pending = getEncounter(world).pending;
        if (pending === null || pending.chooser.kind !== 'players' || p.id === undefined) return FORBIDDEN;
        return controlsCombatant(world, actor, p.id) ? null : FORBIDDEN;
      },
      decide(world, p, env) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        const pending = enc.pending;
        if (pending === null) return errR('NO_DECISION', 'no decision is waiting');
        const choice = p.id ?? pending.default;
        if (choice === null) return errR('CHOICE_REQUIRED', `${pending.prompt}: choose one of ${pending.options.join(', ')}`, 'id');
        if (!pending.options.includes(choice)) return errR('INVALID_CHOICE', `"${choice}" cannot act now; choose one of ${pending.options.join(', ')}`, 'id');
        if (pending.act === 'roll') {
          const c = own(enc.combatants, choice);
          if (c === undefined) return errR(ErrorCode.NOT_FOUND, `no combatant "${choice}"`, 'id');
          const pl = seqr.place(withSheets(world, rules, enc), withSheet(world, rules, c), undefined, env.rng);
          if (!pl.ok) return pl;
          return okR([{ type: 'encounter.placed', id: choice, placement: pl.value }]);
        }
        if (!canAct(world, rules, choice)) return errR('INVALID_CHOICE', `"${choice}" is no longer able to act`, 'id');
        return okR([...flow.skipsBefore(world, choice), { type: 'encounter.turnStarted', id: choice, round: enc.round }]);
      },
    }),
    'encounter.endTurn': handlerOf(d.endTurn, {
      authorize: ownsCurrent,
      decide(world, { id }) {
        const a = needActive(world);
        if (!a.ok) return a;
        if (id !== undefined && a.value.current !== id) return errR('TURN_MOVED_ON', `the turn of "${id}" is already over: it is someone else's turn now (nothing was ended)`, 'id');
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        return okR([{ type: 'encounter.turnEnded', id: cur.value, round: a.value.round }]);
      },
    }),
    'encounter.advance': handlerOf(d.advance, {
      decide(world) {
        const a = needActive(world);
        if (!a.ok) return a;
        const ev = flow.advance(world);
        return ev.length === 0 ? errR('CANNOT_ADVANCE', a.value.current !== null || a.value.pending !== null ? 'a turn or decision is already under way' : 'nobody is able to act') : okR(ev);
      },
    }),
    'encounter.delay': handlerOf(d.delay, {
      authorize: ownsCurrent,
      decide(world, { to }) {
        const a = needActive(world);
        if (!a.ok) return a;
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        if (seqr.delay === undefined) return errR('NO_DELAY', `the ${seqr.id} turn order has no delay`);
        const pl = seqr.delay(a.value, cur.value, asJson(to));
        if (!pl.ok) return pl;
        return okR([{ type: 'encounter.delayed', id: cur.value, placement: pl.value }]);
      },
    }),
    'encounter.ready': handlerOf(d.ready, {
      authorize: ownsCurrent,
      decide(world, { action, trigger }) {
        const a = needActive(world);
        if (!a.ok) return a;
        const cur = needCurrent(a.value);
        if (!cur.ok) return cur;
        // Only actions paid on your own turn can be readied (not free actions or interrupts).
        const payer = own(rules.economy.payers, action)?.[0];
        if (payer === undefined || rules.economy.pools[payer]?.when === 'off') {
          return errR('UNKNOWN_ACTION', `cannot ready "${action}"; readiable: ${Object.entries(rules.economy.payers).filter(([, p]) => p.length > 0 && rules.economy.pools[p[0]!]?.when !== 'off').map(([k]) => k).join(', ')}`, 'action');
        }
        const enc = a.value;
        return okR([
          { type: 'encounter.readied', id: cur.value, action, trigger, round: enc.round },
          { type: 'encounter.turnEnded', id: cur.value, round: enc.round },
        ]);
      },
    }),
    'encounter.triggerReady': handlerOf(d.triggerReady, {
      authorize: ownsCreature,
      decide(world, p) {
        const a = needActive(world);
        if (!a.ok) return a;
        const enc = a.value;
        const c = needCombatant(enc, p.characterId, 'characterId');
        if (!c.ok) return c;
        const before = needCombatant(enc, p.beforeId, 'beforeId');
        if (!before.ok) return before;
        const r = c.value.readied;
        if (r === null) return errR('NOT_READIED', `"${c.value.id}" has no readied action`, 'characterId');
        const placement = seqr.readyTriggered?.(enc, c.value.id, before.value.id) ?? null;
        // Taken in a later round before your own turn: that action is spent from your coming turn (002).
        const forNextTurn = rules.economy.readiedActionOwed === true && r.round < enc.round && !enc.acted.includes(c.value.id);
        return okR([{ type: 'encounter.readyTaken', id: c.value.id, before: before.value.id, action: r.action, placement, forNextTurn }]);
      },
    }),
  };
}
