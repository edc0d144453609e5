// The one in-fiction clock: the time of day and what has elapsed, with the
// GM's rest and time buttons (rests tick long-term countdowns).
import type { ClockUnit, World } from '@tablekeeper/engine';
import type { Send } from './types.ts';
import { elapsedLabel } from '../lib/clock.ts';
import { useState } from 'preact/hooks';
import { clockRestsOf, restNoteOf, restsOf } from '@tablekeeper/rulesets/browser';
import { sentenceOf } from '../lib/words.ts';
import { TswRests } from './LazyPanels.tsx';


/** "Day 1, 08:10"; seconds show when there are any, so a fight's rounds are seen to move the clock (ADR 44). */
export function timeOfDay(seconds: number): string {
  const day = Math.floor(seconds / 86400) + 1;
  const h = Math.floor(seconds / 3600) % 24;
  const m = Math.floor(seconds / 60) % 60;
  const s = Math.floor(seconds) % 60;
  return `Day ${day}, ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}${s === 0 ? '' : `:${String(s).padStart(2, '0')}`}`;
}

export function ClockPanel({ world, gm, send }: { world: World; gm: boolean; send: Send }) {
  const clock = world.clock;
  if (!clock) return null;
  const counts = Object.entries(clock.counts ?? {}).filter(([, n]) => typeof n === 'number' && n > 0) as [ClockUnit, number][];
  return (
    <section class="panel area-clock" aria-labelledby="clock-title">
      <h2 id="clock-title">
        <span>Clock</span>
        <span class="badge" data-testid="clock-time">
          {timeOfDay(clock.seconds)}
        </span>
      </h2>
      {counts.length > 0 ? <p class="small muted">{counts.map(([u, n]) => elapsedLabel(u, n)).join(' · ')}</p> : <p class="small muted">No time has passed yet.</p>}
      {gm ? (
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
      ) : null}
      {gm ? <RulesetRests world={world} send={send} /> : null}
    </section>
  );
}

/** The ruleset's own rests (they move the clock and heal by its rules), when it has any. */
function RulesetRests({ world, send }: { world: World; send: Send }) {
  const rests = restsOf(world.rulesetId);
  const [msg, setMsg] = useState<string | null>(null);
  if (world.rulesetId === '36th-way') return <TswRests world={world} send={send} />;
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
