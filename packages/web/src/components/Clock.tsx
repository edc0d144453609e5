// The one in-fiction clock: the time of day and what has elapsed, with the
// GM's rest and time buttons (rests tick long-term countdowns).
import type { ClockUnit, World } from '@tablekeeper/engine';
import type { Send } from './types.ts';
import { elapsedLabel, timeOfDay } from '../lib/clock.ts';
import { ClockControls } from './LazyPanels.tsx';

export { timeOfDay };

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
      <p class="small muted" data-testid="clock-elapsed">
        {counts.length > 0 ? counts.map(([u, n]) => elapsedLabel(u, n, world.rulesetId)).join(' · ') : 'No time has passed yet.'}
      </p>
      {gm ? <ClockControls world={world} send={send} /> : null}
    </section>
  );
}
