// The GM's clock buttons and the ruleset's rests, loaded with the GM's screen
// only: a phone reads the clock and never rests anyone.
import type { World } from '@tablekeeper/engine';
import { useState } from 'preact/hooks';
import { clockRestsOf, hasPanel, restNoteOf, restsOf } from '@tablekeeper/rulesets/browser';
import type { Send } from './types.ts';
import { sentenceOf } from '../lib/words.ts';
import { lazyPanel } from './LazyPanels.tsx';

// The 36th Way's rests with the recoveries each PC spends (GM only, so declared here).
const TswRests = lazyPanel(() => import('./TswRests.tsx').then((m) => m.TswRests), 'tsw-rests');

export function ClockControls({ world, send }: { world: World; send: Send }) {
  return (
    <>
      <div class="row" role="group" aria-label="Advance the clock">
        <button class="small" onClick={() => send({ type: 'clock.advance', unit: 'time', count: 0, seconds: 600 })}>
          +10 min
        </button>
        <button class="small" onClick={() => send({ type: 'clock.advance', unit: 'time', count: 0, seconds: 3600 })}>
          +1 hour
        </button>
        {clockRestsOf(world.rulesetId) ? (
          <>
            <button class="small" onClick={() => send({ type: 'clock.advance', unit: 'shortRest', count: 1 })}>
              Short rest
            </button>
            <button class="small" onClick={() => send({ type: 'clock.advance', unit: 'longRest', count: 1 })}>
              Long rest
            </button>
          </>
        ) : null}
      </div>
      <RulesetRests world={world} send={send} />
    </>
  );
}

/** The ruleset's own rests (they move the clock and heal by its rules), when it has any. */
function RulesetRests({ world, send }: { world: World; send: Send }) {
  const rests = restsOf(world.rulesetId);
  const [msg, setMsg] = useState<string | null>(null);
  if (hasPanel(world.rulesetId, 'recoveries')) return <TswRests world={world} send={send} />;
  if (rests.length === 0) {
    const note = restNoteOf(world.rulesetId);
    return note === null ? null : (
      <p class="small muted" data-testid="rest-note">
        {note}
      </p>
    );
  }
  return (
    <div role="group" aria-label="Rest by the rules" style={{ marginTop: '8px' }}>
      <div class="row">
        {rests.map((r) => (
          <button
            key={r.label}
            class="small"
            title={r.summary}
            onClick={async () => {
              const res = await send(r.command);
              setMsg(res.ok ? null : sentenceOf(res.rejection));
            }}
          >
            {r.label}
          </button>
        ))}
      </div>
      <p class="small muted">{rests.map((r) => `${r.label}: ${r.summary}`).join(' ')}</p>
      {msg ? (
        <p class="error small" role="alert">
          {msg}
        </p>
      ) : null}
    </div>
  );
}
