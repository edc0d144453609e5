// The GM's hand on the escalation die (002 "Escalation Die"; "Surprise": an
// ambush may start it at 1), under the die where the round shows it: move it
// up or down from the round's count, or hold it (count it as 0) for one
// combatant mid-fight. GM screen only, its own chunk (a phone never loads it).
import { useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import { displayOrder, namesOf } from '../lib/encounter.ts';
import { sentenceOf } from '../lib/words.ts';
import type { ClientCommand } from '../net/codec.ts';
import type { Send } from './types.ts';

/** The encounter.escalationOffset command's own limits. */
const MAX_OFFSET = 6;

export function EscalationControls({ world, enc, esc, send }: { world: World; enc: EncounterState; esc: number; send: Send }) {
  const offset = enc.escalation?.offset ?? 0;
  const held = enc.escalation?.suppressed ?? [];
  const order = displayOrder(enc);
  const free = order.filter((c) => !held.includes(c.id));
  const [pick, setPick] = useState('');
  const [msg, setMsg] = useState<string | null>(null);
  const chosen = free.some((c) => c.id === pick) ? pick : (free[0]?.id ?? '');
  const go = async (cmd: ClientCommand) => {
    const r = await send(cmd);
    setMsg(r.ok ? null : sentenceOf(r.rejection, namesOf(world)));
  };
  const shift = (to: number) => void go({ type: 'encounter.escalationOffset', offset: to });
  return (
    <details class="small" data-testid="escalation-controls">
      <summary>Escalation die by hand ({offset === 0 ? "the round's count" : `${offset > 0 ? '+' : ''}${offset} by hand`})</summary>
      <div class="row" role="group" aria-label="Move the escalation die">
        <button class="small" disabled={offset <= -MAX_OFFSET} aria-label={`Escalation die down 1 (now ${esc})`} onClick={() => shift(offset - 1)}>
          −1
        </button>
        <button class="small" disabled={offset >= MAX_OFFSET} aria-label={`Escalation die up 1 (now ${esc})`} onClick={() => shift(offset + 1)}>
          +1
        </button>
        {offset !== 0 ? (
          <button class="small" onClick={() => shift(0)}>
            Back to the round's count
          </button>
        ) : null}
      </div>
      {free.length > 0 ? (
        <div class="row">
          <label for="escalation-hold">Hold it (counts as 0) for</label>
          <select id="escalation-hold" value={chosen} onChange={(e) => setPick(e.currentTarget.value)}>
            {free.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <button class="small" onClick={() => void go({ type: 'encounter.escalationSuppress', characterId: chosen, suppressed: true })}>
            Hold
          </button>
        </div>
      ) : null}
      {held.length > 0 ? (
        <ul class="chips list" aria-label="The escalation die is held for" style={{ display: 'flex' }}>
          {order
            .filter((c) => held.includes(c.id))
            .map((c) => (
              <li key={c.id} class="badge warn">
                {c.name}: held{' '}
                <button class="small" aria-label={`Release ${c.name}`} onClick={() => void go({ type: 'encounter.escalationSuppress', characterId: c.id, suppressed: false })}>
                  Release
                </button>
              </li>
            ))}
        </ul>
      ) : null}
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
    </details>
  );
}
