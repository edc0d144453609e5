import type { ComponentChildren } from 'preact';
import type { LogEntry, World } from '@tablekeeper/engine';

/** The table log as this viewer may read it (the server filtered it by audience), newest first. */
export function LogPanel({ world, limit = 100, class: cls = 'area-log', children }: { world: World; limit?: number; class?: string; children?: ComponentChildren }) {
  const entries: readonly LogEntry[] = Array.isArray(world.log) ? world.log : [];
  const shown = entries.slice(-limit).reverse();
  return (
    <section class={`panel ${cls}`} aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      {children}
      {shown.length === 0 ? (
        <p class="muted">Nothing yet.</p>
      ) : (
        // Not a live region (review 13 #14): the turn announcer says each turn once; the log is read when the reader visits it.
        <ol class="list log" aria-label="Log entries, newest first" tabIndex={0} data-testid="log">
          {shown.map((e, i) => (
            <li key={`${e.tx}-${i}`}>
              {e.audience?.kind === 'gm' ? <span class="badge warn">GM only</span> : null} {e.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
