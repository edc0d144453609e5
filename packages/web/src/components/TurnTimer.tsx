// The turn timer in the tracker (issue 20, ADR 29): the acting combatant's time
// left, counted from the server's recorded start (so every screen agrees and a
// reload resumes it), ticking locally between updates; the GM sets, pauses,
// resumes and restarts it. Display only: no rule reads it.
import { useEffect, useState } from 'preact/hooks';
import type { World } from '@tablekeeper/engine';
import { timerOf } from '@tablekeeper/engine/timer';
import { serverNow, timerText, TURN_TIMES } from '../lib/timer.ts';
import type { Send } from './types.ts';

export function TurnTimer({ world, gm, send }: { world: World; gm: boolean; send: Send }) {
  const t = timerOf(world);
  const [now, setNow] = useState(() => serverNow());
  const running = t.seconds > 0 && t.startedAt !== null && t.pausedAt === null;
  useEffect(() => {
    setNow(serverNow());
    if (!running) return;
    const id = setInterval(() => setNow(serverNow()), 500);
    return () => clearInterval(id);
  }, [running, t.startedAt, t.pausedAt]);
  const shown = timerText(t, now);
  if (!gm && shown === null) return null;
  return (
    <div class="row turn-timer">
      {shown !== null ? (
        <span role="timer" aria-label="Turn time left" class={`badge ${shown.over ? 'warn' : ''}`} data-testid="turn-timer">
          Timer {shown.text}
          {shown.paused ? ' (paused)' : ''}
        </span>
      ) : null}
      {gm ? (
        <>
          <label for="turn-time">Time per turn</label>
          <select id="turn-time" value={String(t.seconds)} onChange={(e) => void send({ type: 'timer.set', seconds: Number(e.currentTarget.value) })}>
            {(TURN_TIMES.some(([s]) => s === t.seconds) ? TURN_TIMES : [...TURN_TIMES, [t.seconds, `${t.seconds} s`] as const]).map(([s, label]) => (
              <option key={s} value={String(s)}>
                {label}
              </option>
            ))}
          </select>
          {t.seconds > 0 && t.startedAt !== null ? (
            <>
              <button class="small" type="button" onClick={() => void send({ type: t.pausedAt === null ? 'timer.pause' : 'timer.resume' })}>
                {t.pausedAt === null ? 'Pause timer' : 'Resume timer'}
              </button>
              <button class="small" type="button" onClick={() => void send({ type: 'timer.restart' })}>
                Restart timer
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
