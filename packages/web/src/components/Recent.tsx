// Recent tables on this device: remembered when a table opens, listed on the
// landing page with a way to remove each.
import { useState } from 'preact/hooks';
import { deviceStore, forget, readRecent, type RecentTable } from '../lib/recent.ts';
import { rulesetTitleOf } from '@tablekeeper/rulesets/browser';

const ROLE_WORDS: { readonly [r in RecentTable['role']]: string } = { gm: 'GM', player: 'player', spectator: 'table display' };

export function RecentTables() {
  const [list, setList] = useState<RecentTable[]>(() => readRecent(deviceStore()));
  return (
    <section class="panel" aria-labelledby="recent-title" data-testid="recent-tables">
      <h2 id="recent-title">Your tables on this device</h2>
      {list.length === 0 ? (
        <p class="small muted">Tables you open here are listed, so you can come back after closing the tab.</p>
      ) : (
        <ul class="list">
          {list.map((r) => (
            <li key={r.hash} class="row">
              <a class="grow" href={`#${r.hash}`}>
                {r.name}
              </a>
              <span class="small muted">
                {rulesetTitleOf(r.rulesetId)} · {ROLE_WORDS[r.role]}
                {r.seat ? ` (${r.seat})` : ''}
              </span>
              <button class="small" aria-label={`Remove ${r.name} (${ROLE_WORDS[r.role]}) from this list`} onClick={() => setList(forget(deviceStore(), r.hash))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
