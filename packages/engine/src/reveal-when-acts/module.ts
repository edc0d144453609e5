// Foes hidden until they act (issue 20, ADR 71): the GM marks a hidden or
// veiled combatant "reveal when it acts"; when its turn starts, a reaction
// reveals it (the kernel's encounter.visibilitySet, so the log tells everyone,
// as the Reveal button does). The turn start is the moment: a foe acts on its
// turn in every ruleset's turn model, and a skipped turn (it cannot act) is no
// action. The marks are the GM's (default-deny: no projector, GM-only events).
import { z } from 'zod';
import { catalogOf, combatantId, defineCommand, type DefinedCommand } from '../core/catalog.js';
import { appendLog } from '../core/log.js';
import { own } from '../core/own.js';
import { err, ErrorCode, ok } from '../core/result.js';
import { asJson, memberOf, reducersOf, type Evolve } from '../core/events.js';
import type { Module, Reaction, World } from '../core/types.js';
import type { EncounterEvent } from '../encounter/events.js';
import { AUDIENCE_GM } from '../core/visibility.js';
import { needActor } from '../encounter/input.js';
import { getEncounter } from '../encounter/state.js';
import { REVEAL_WHEN_ACTS_ID, revealMarks } from './model.js';

const put = (w: World, ids: readonly string[]): World => ({ ...w, ext: { ...w.ext, [REVEAL_WHEN_ACTS_ID]: asJson({ ids: [...ids] }) } });

const defined: DefinedCommand<z.ZodType>[] = [
  defineCommand('revealWhenActs.set', {
    summary: 'Reveal a hidden combatant to the players automatically when its turn starts (on: false takes the mark off)',
    who: 'gm',
    label: 'reveal a combatant when it acts',
    input: z.strictObject({ characterId: combatantId('the hidden combatant'), on: z.boolean().meta({ description: 'true: reveal it when its turn starts; false: keep it hidden' }) }),
    decide(world, p) {
      const a = needActor(world, p.characterId);
      if (!a.ok) return a;
      const c = a.value.combatant;
      if (p.on && c.visibility === 'visible') return err(ErrorCode.INVALID_VALUE, `${c.name} is already visible to the players`, 'characterId');
      const marked = revealMarks(world).includes(c.id);
      if (marked === p.on) return err(ErrorCode.INVALID_VALUE, p.on ? `${c.name} is already set to be revealed when it acts` : `${c.name} is not set to be revealed when it acts`, 'on');
      // Marked during its own turn: it is acting now, so it is revealed now.
      if (p.on && a.value.enc.current === c.id) return ok([{ type: 'encounter.visibilitySet', id: c.id, visibility: 'visible' }]);
      return ok([{ type: 'revealWhenActs.set', id: c.id, on: p.on }]);
    },
  }),
];

/** The module's events, as stored. */
export type RevealWhenActsEvent = { readonly type: 'revealWhenActs.set'; readonly id: string; readonly on: boolean } | { readonly type: 'revealWhenActs.done'; readonly id: string };

const evolve: Evolve<RevealWhenActsEvent> = {
  'revealWhenActs.set': (w, e) => {
    const id = e.id;
    const on = e.on;
    const ids = revealMarks(w).filter((x) => x !== id);
    const name = own(getEncounter(w).combatants, id)?.name ?? 'that combatant';
    const next = put(w, on ? [...ids, id] : ids);
    return appendLog(next, { audience: AUDIENCE_GM, kind: 'revealWhenActs.set', text: on ? `${name} will be revealed when its turn starts.` : `${name} stays hidden when its turn starts.` });
  },
  // Taken off by the reveal itself, so an undo of that turn start puts the mark back with the hiding.
  'revealWhenActs.done': (w, e) => put(w, revealMarks(w).filter((x) => x !== e.id)),
};
const reducers: Module['reducers'] = reducersOf(evolve);

/**
 * A marked combatant still hidden from the players is revealed as its turn starts; a reveal by hand takes the mark off.
 * With `characterFollows` (OSR: attacks name a foe's own character), the foe's hidden character is shown with it,
 * as the GM's Reveal button does, or the revealed foe would be no target on the phones.
 */
const revealOnTurn = (characterFollows: boolean): Reaction => (w, e) => {
  const shown = memberOf<EncounterEvent, 'encounter.visibilitySet'>(e, 'encounter.visibilitySet');
  if (shown !== undefined && shown.visibility === 'visible' && revealMarks(w).includes(shown.id)) return [{ type: 'revealWhenActs.done', id: shown.id }];
  const started = memberOf<EncounterEvent, 'encounter.turnStarted'>(e, 'encounter.turnStarted');
  if (started === undefined) return [];
  const id = started.id;
  if (!revealMarks(w).includes(id)) return [];
  const c = own(getEncounter(w).combatants, id);
  if (c === undefined) return [{ type: 'revealWhenActs.done', id }];
  if (c.visibility === 'visible') return [{ type: 'revealWhenActs.done', id }];
  const ch = characterFollows && c.kind === 'npc' && c.characterId !== null ? own(w.characters, c.characterId) : undefined;
  const follow =
    ch !== undefined && ch.kind === 'npc' && ch.visibility !== 'visible' ? [{ type: 'character.updated', id: ch.id, visibility: 'visible', wasVisibility: ch.visibility, seatId: ch.seatId, wasSeatId: ch.seatId }] : [];
  return [{ type: 'encounter.visibilitySet', id, visibility: 'visible' }, ...follow, { type: 'revealWhenActs.done', id }];
};

const gmOnly = () => AUDIENCE_GM;

/** For every ruleset's table: the marks and the reaction that reveals (`characterFollows`: a foe's own character is shown with it). */
export function revealWhenActsModule(o: { readonly characterFollows?: boolean } = {}): Module {
  return {
    id: REVEAL_WHEN_ACTS_ID,
    commands: Object.fromEntries(defined.map((d) => [d.declaration.type, d.handler])),
    catalog: catalogOf(...defined.map((d) => d.declaration)),
    reducers,
    reactions: [revealOnTurn(o.characterFollows === true)],
    // No projector: default-deny keeps the marks (ids of hidden foes) with the GM.
    audience: { 'revealWhenActs.set': gmOnly, 'revealWhenActs.done': gmOnly },
  };
}
