// What a creature holds on its row (issue 20): a readied action waiting for its
// trigger, which the GM or its player takes before someone's turn, and an
// extended action under way, which they may cancel. Its own chunk: a phone
// loads it only when one of its creatures holds one.
import type { Combatant, EncounterState, World } from '@tablekeeper/engine';
import { useEffect, useState } from 'preact/hooks';
import { actionsQueryOf, capabilitiesOf } from '@tablekeeper/rulesets/browser';
import { actionsInputs, readActions, type TurnAction } from '../lib/actions.ts';
import type { Ask } from '../lib/attack.ts';
import { displayOrder, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { ActionFormView } from './Actions.tsx';
import { InlineForm } from './InlineForm.tsx';
import type { Send } from './types.ts';

export function HeldActions({ c, enc, world, send, ask }: { c: Combatant; enc: EncounterState; world: World; send: Send; ask?: Ask | undefined }) {
  const ext = enc.economy?.[c.id]?.extended ?? null;
  // A record stored before readied actions existed has none.
  const readied = c.readied ?? null;
  const said = (r: Awaited<ReturnType<Send>>): string | null => (r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
  // Whose turn it comes before: the one acting now (the trigger is usually theirs), else the next in the order.
  const others = displayOrder(enc).filter((x) => x.id !== c.id);
  const first = others.find((x) => x.id === enc.current) ?? others.find((x) => x.id === enc.onDeck) ?? others[0];
  return (
    <div class="small" data-held={c.id}>
      {readied !== null && first !== undefined && readied.action === 'Attack' && ask !== undefined && capabilitiesOf(world.rulesetId).readiedAttackAction !== undefined ? (
        <ReadiedAttack c={c} enc={enc} world={world} send={send} ask={ask} trigger={readied.trigger} />
      ) : readied !== null && first !== undefined ? (
        <InlineForm
          label={`${c.name}'s readied action`}
          button="Take it now"
          buttonLabel={`Take it now: ${c.name}'s readied ${readied.action}`}
          act={async (form) => {
            const beforeId = String(new FormData(form).get('before') ?? '');
            // A ruleset whose readied action spends its own pool names its own command (teams: the reaction).
            const type = capabilitiesOf(world.rulesetId).triggerReadyCommand ?? 'encounter.triggerReady';
            return said(await send({ type, characterId: c.id, beforeId }));
          }}
        >
          <span>
            Readied: {readied.action}, when {readied.trigger}
          </span>
          <label for={`held-before-${c.id}`}>before the turn of</label>
          <select id={`held-before-${c.id}`} name="before" defaultValue={first.id}>
            {others.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </InlineForm>
      ) : null}
      {ext !== null ? (
        <InlineForm label={`${c.name}'s extended action`} button={`Cancel ${ext.label}`} buttonLabel={`Cancel ${ext.label}: ${c.name}'s extended action`} act={async () => said(await send({ type: 'encounter.cancelExtended', characterId: c.id }))}>
          <span>
            Under way: {ext.label}, {ext.remaining} more {ext.remaining === 1 ? 'action' : 'actions'} to finish (what is spent stays spent if cancelled)
          </span>
        </InlineForm>
      ) : null}
    </div>
  );
}

/**
 * A readied Attack (teams, 003 "Ready an Action") is rolled as the attack with the reaction: "Take it now" opens
 * the engine's own attack form for it (target, weapon, whose turn it interrupts, odds before the roll).
 */
function ReadiedAttack({ c, enc, world, send, ask, trigger }: { c: Combatant; enc: EncounterState; world: World; send: Send; ask: Ask; trigger: string }) {
  const id = capabilitiesOf(world.rulesetId).readiedAttackAction;
  const query = actionsQueryOf(world.rulesetId);
  const [found, setFound] = useState<TurnAction | string | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (query === null) return;
    let live = true;
    void ask(query, { combatantId: c.id }).then((a) => {
      if (!live) return;
      const action = a.ok ? readActions(a.result)?.actions.find((x) => x.id === id) : undefined;
      setFound(action ?? (a.ok ? `${c.name}'s readied attack cannot be rolled here` : a.error.message));
    });
    return () => {
      live = false;
    };
  }, [query, c.id, ...actionsInputs(world, enc, c.id)]);
  return (
    <div data-testid="readied-attack">
      <span>Readied: Attack, when {trigger} </span>
      <button type="button" class="small" aria-expanded={open} aria-label={`Take it now: ${c.name}'s readied Attack`} disabled={typeof found !== 'object' || found === null} onClick={() => setOpen(!open)}>
        Take it now
      </button>
      {typeof found === 'string' ? <span class="small muted"> {found}</span> : null}
      {open && found !== null && typeof found === 'object' ? <ActionFormView action={found} world={world} send={send} ask={ask} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}
