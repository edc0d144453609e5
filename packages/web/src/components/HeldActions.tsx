// What a creature holds on its row (issue 20): a readied action waiting for its
// trigger, which the GM or its player takes before someone's turn, and an
// extended action under way, which they may cancel. Its own chunk: a phone
// loads it only when one of its creatures holds one.
import type { Combatant, EncounterState, World } from '@tablekeeper/engine';
import { capabilitiesOf } from '@tablekeeper/rulesets/browser';
import { displayOrder, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import { InlineForm } from './InlineForm.tsx';
import type { Send } from './types.ts';

export function HeldActions({ c, enc, world, send }: { c: Combatant; enc: EncounterState; world: World; send: Send }) {
  const ext = enc.economy?.[c.id]?.extended ?? null;
  // A record stored before readied actions existed has none.
  const readied = c.readied ?? null;
  const said = (r: Awaited<ReturnType<Send>>): string | null => (r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
  // Whose turn it comes before: the one acting now (the trigger is usually theirs), else the next in the order.
  const others = displayOrder(enc).filter((x) => x.id !== c.id);
  const first = others.find((x) => x.id === enc.current) ?? others.find((x) => x.id === enc.onDeck) ?? others[0];
  return (
    <div class="small" data-held={c.id}>
      {readied !== null && first !== undefined ? (
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
