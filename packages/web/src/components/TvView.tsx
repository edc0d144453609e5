// The shared display for a TV (issue 20): a spectator link with view=tv. Turn
// order with each creature's visible health and conditions, the round, the
// turn timer and the visible countdowns in large type; the spectator's
// projection is all it ever receives. Its own chunk.
import { useEffect, useRef } from 'preact/hooks';
import type { Capability } from '../net/client.ts';
import { useTable } from '../lib/use-table.ts';
import { tvModel } from '../lib/tv.ts';
import { LinkProblem, useLinkProblem } from './LinkCheck.tsx';
import { useRemember } from './remember.ts';
import { StatusDot } from './Chrome.tsx';
import { TurnTimer } from './TurnTimer.tsx';

export function TvView({ capability }: { capability: Capability }) {
  const client = useTable(capability);
  const view = client.view.value;
  const problem = useLinkProblem(client);
  useRemember(view?.world, 'spectator');
  const model = view ? tvModel(view.world) : null;
  const currentRef = useRef<HTMLLIElement>(null);
  useEffect(() => currentRef.current?.scrollIntoView({ block: 'nearest' }), [model?.turn, model?.round]);
  return (
    <div class="tv" data-testid="tv">
      <header class="tv-top">
        <h1 data-testid="tv-table">{model?.table ?? 'Tablekeeper'}</h1>
        {model?.round ? (
          <p class="tv-round" data-testid="tv-round">
            {model.round}
          </p>
        ) : null}
        {model ? (
          <p class="tv-clock" data-testid="tv-clock" aria-label={`Clock: ${model.clock}`}>
            {model.clock}
          </p>
        ) : null}
        {/* The timer "shown to all" (issue 20): the same count as the GM's and the phones', from the server's start. */}
        {view ? <TurnTimer world={view.world} gm={false} send={(c) => client.send(c)} /> : null}
        <StatusDot client={client} bad={problem !== null} />
      </header>
      {model === null ? (
        <main>{problem ? <LinkProblem message={problem} /> : <p role="status">{client.closeReason.value ?? 'Joining the table…'}</p>}</main>
      ) : (
        <main class="tv-main">
          <section aria-labelledby="tv-order-h" class="tv-order">
            <h2 id="tv-order-h">Turn order</h2>
            {/* Polite: the room hears whose turn it is without the screen being read over. */}
            <p class="sr-only" aria-live="polite">
              {model.turn ? `${model.turn}'s turn` : ''}
            </p>
            {model.order.length === 0 ? (
              <p class="tv-idle" data-testid="tv-idle">
                {model.idle}
              </p>
            ) : (
              <ol data-testid="tv-order">
                {model.order.map((r) => (
                  <li
                    key={r.id}
                    ref={r.current ? currentRef : undefined}
                    class={`tv-row ${r.side}${r.current ? ' current' : ''}${r.acted ? ' acted' : ''}${r.defeated ? ' defeated' : ''}`}
                    aria-current={r.current ? 'step' : undefined}
                    data-testid="tv-row"
                  >
                    <div class="tv-line">
                      <span class="tv-name">{r.name}</span>
                      {r.current ? <span class="tv-tag">now</span> : r.defeated ? <span class="tv-tag">defeated</span> : null}
                    </div>
                    {r.tracks.map((t) => (
                      <div key={t.label} class="tv-track" data-testid="tv-track">
                        <span class="tv-track-words">
                          {t.label} {t.value}/{t.max}
                        </span>
                        <span class={`hpbar ${t.states.join(' ')}`} role="meter" aria-label={`${r.name} ${t.label}`} aria-valuemin={0} aria-valuemax={t.max} aria-valuenow={t.value}>
                          <span style={{ width: `${Math.max(0, Math.min(100, (100 * t.value) / t.max))}%` }} />
                        </span>
                        {t.states.map((s) => (
                          <span key={s} class={`tv-chip ${s === 'down' || s === 'dead' ? 'bad' : 'warn'}`}>
                            {s}
                          </span>
                        ))}
                      </div>
                    ))}
                    {r.conditions.length > 0 ? (
                      <ul class="tv-chips" aria-label={`${r.name}'s conditions`} data-testid="tv-conditions">
                        {r.conditions.map((c) => (
                          <li key={c} class="tv-chip warn">
                            {c}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ol>
            )}
          </section>
          {model.countdowns.length > 0 ? (
            <section aria-labelledby="tv-cd-h" class="tv-countdowns">
              <h2 id="tv-cd-h">Countdowns</h2>
              <ul data-testid="tv-countdowns">
                {model.countdowns.map((c) => (
                  <li key={c.id} data-testid="tv-countdown">
                    <span>{c.name}</span> <strong>{c.value === null ? '?' : `${c.value}`}</strong>
                    {c.start !== null ? <span class="tv-of"> of {c.start}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </main>
      )}
    </div>
  );
}
