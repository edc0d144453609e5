// Between fights: the conditions the last one left on someone ("until
// removed", until a rest), shown where the GM builds the next (ADR 66). A
// character's stays until the GM clears it, lined up or not (Foundry keeps an
// actor's statuses); here the GM sees who carries what into the fight and may
// clear those left out in one click. A bearer with no character ends its own
// at the start (the engine), and the line says so.
import { useState } from 'preact/hooks';
import type { EncounterState, World } from '@tablekeeper/engine';
import { lingeringConditions, type Lingering } from '../lib/lingering.ts';
import { sentenceOf } from '../lib/words.ts';
import type { Send } from './types.ts';

const STANDS: { readonly [k in Lingering['stands']]: string } = {
  carried: 'goes on in this fight',
  absent: 'not in this fight: stays on them until cleared',
  ends: 'ends when the fight starts (not at the table any more)',
};

export function LingeringConditions({ world, enc, lined, send }: { world: World; enc: EncounterState | null; lined: readonly string[]; send: Send }) {
  const [msg, setMsg] = useState<string | null>(null);
  const rows = lingeringConditions(world, enc, lined);
  if (rows.length === 0) return null;
  const absent = rows.filter((r) => r.stands === 'absent');
  const clear = async (list: readonly Lingering[]) => {
    for (const r of list) {
      const sent = await send({ type: 'condition.remove', conditionId: r.conditionId });
      if (!sent.ok) return setMsg(sentenceOf(sent.rejection));
    }
    setMsg(null);
  };
  return (
    <div class="small" data-testid="lingering">
      <p class="muted" style={{ margin: '4px 0' }}>
        Still on from the last fight:
      </p>
      <ul class="list" aria-label="Conditions still on from the last fight">
        {rows.map((r) => (
          <li key={r.conditionId} data-testid="lingering-row">
            {r.name}: {r.condition} ({r.lasts}) · {STANDS[r.stands]}{' '}
            {r.stands === 'ends' ? null : (
              <button type="button" class="small" onClick={() => void clear([r])}>
                Clear {r.condition} from {r.name}
              </button>
            )}
          </li>
        ))}
      </ul>
      {absent.length > 1 ? (
        <button type="button" class="small" onClick={() => void clear(absent)}>
          Clear from everyone not in this fight ({absent.length})
        </button>
      ) : null}
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
    </div>
  );
}
