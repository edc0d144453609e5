// The turn timer's words and clock without a DOM (issue 20, ADR 29).
import { describe, expect, it } from 'vitest';
import { clockText, serverNow, setServerClock, timerText } from '../packages/web/src/lib/timer.ts';

describe('turn timer on screen', () => {
  it('reads minutes and seconds, rounding up, and over time as "+m:ss over"', () => {
    expect([60_000, 42_001, 42_000, 999, 0, -7_000, 725_000].map(clockText)).toEqual(['1:00', '0:43', '0:42', '0:01', '0:00', '+0:07 over', '12:05']);
  });

  it('counts from the server start: 60 s set, started at server 1,000,000, page clock 3 s behind; paused shows the time frozen', () => {
    setServerClock(1_000_000, 997_000);
    expect(serverNow(1_012_000)).toBe(1_015_000);
    const running = { seconds: 60, startedAt: 1_000_000, pausedAt: null, pausedMs: 0 };
    expect(timerText(running, serverNow(1_012_000))).toEqual({ text: '0:45', over: false, paused: false });
    const paused = { ...running, pausedAt: 1_020_000 };
    expect(timerText(paused, serverNow(1_100_000))).toEqual({ text: '0:40', over: false, paused: true });
    expect(timerText({ ...running, seconds: 0 }, 0)).toBeNull();
    expect(timerText({ ...running, startedAt: null }, 0)).toBeNull();
  });
});
