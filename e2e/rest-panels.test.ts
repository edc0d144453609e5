// Rests between fights show only the ruleset's own rules (issue 20), in real
// Chromium. The 36th Way's clock offers its Quick and Full rest (002 "Quick
// Rest", "Full Rest"), not the clock's plain short and long rest; the
// Kleptonomicon has no timed rest (004: Heal Up and the other recovery
// abilities when Freeplay returns, resets at the Closing Credits), so its
// clock says so and offers none; Daggerheart rests in one place, its Rest
// panel (with downtime moves), and that rest moves the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { restNoteOf } from '@tablekeeper/rulesets/browser';
import { startE2e, type E2e } from './harness.ts';
import { axeViolations } from './session.ts';

let e2e: E2e | undefined;
beforeAll(async () => {
  e2e = await startE2e('rest-panels');
});
afterAll(async () => {
  await e2e?.close();
});

const GM = { width: 1440, height: 960 };
const names = async (l: Locator) => (await l.getByRole('button').allTextContents()).map((t) => t.trim());

describe('rest buttons follow the rule text', () => {
  it('the 36th Way: Quick rest and Full rest only, and each moves the clock', async () => {
    const t = await e2e!.table('36th-way', 'Rests 36');
    const gm = await e2e!.open(t.links.gm, GM);
    const clock = gm.p.locator('.area-clock');
    await expect.poll(() => names(clock)).toEqual(['+10 min', '+1 hour', 'Quick rest', 'Full rest']);
    // The header names the rules as people know them, not by the ruleset id.
    expect(await gm.p.getByTestId('ruleset-title').textContent()).toBe('The 36th Way');
    await clock.getByRole('button', { name: 'Quick rest' }).click();
    await expect.poll(() => clock.textContent()).toContain('1 short rest');
    // Each rest takes its length on the clock (settings 36th-way.quickRestMinutes 10, fullRestHours 8; ADR 44).
    await expect.poll(() => gm.p.getByTestId('clock-time').textContent()).toBe('Day 1, 00:10');
    await clock.getByRole('button', { name: 'Full rest' }).click();
    await expect.poll(() => clock.textContent()).toContain('1 long rest');
    await expect.poll(() => gm.p.getByTestId('clock-time').textContent()).toBe('Day 1, 08:10');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('teams: no rest button (003 has no rest rule), and the clock says so', async () => {
    const t = await e2e!.table('teams', 'Rests T');
    const gm = await e2e!.open(t.links.gm, GM);
    const clock = gm.p.locator('.area-clock');
    await expect.poll(() => names(clock)).toEqual(['+10 min', '+1 hour']);
    expect(await clock.getByTestId('rest-note').textContent()).toBe(restNoteOf('teams'));
    expect(gm.errors).toEqual([]);
  });

  it('the Kleptonomicon: no rest button, and the clock says what the text does instead', async () => {
    const t = await e2e!.table('kleptonomicon', 'Rests K');
    const gm = await e2e!.open(t.links.gm, GM);
    const clock = gm.p.locator('.area-clock');
    await expect.poll(() => names(clock)).toEqual(['+10 min', '+1 hour']);
    expect(await gm.p.getByTestId('ruleset-title').textContent()).toBe('The Kleptonomicon');
    expect(await clock.getByTestId('rest-note').textContent()).toBe(restNoteOf('kleptonomicon'));
    expect(restNoteOf('kleptonomicon')).toContain('Heal Up');
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });

  it('Daggerheart: rest only in the Rest panel, which moves the clock', async () => {
    const t = await e2e!.table('daggerheart', 'Rests D');
    const gm = await e2e!.open(t.links.gm, GM);
    const clock = gm.p.locator('.area-clock');
    await expect.poll(() => names(clock)).toEqual(['+10 min', '+1 hour']);
    expect(await clock.getByTestId('rest-note').textContent()).toContain('Rest panel');
    const panel = gm.p.getByTestId('rest');
    expect(await names(panel)).toEqual(['Short rest', 'Long rest']);
    await panel.getByRole('button', { name: 'Long rest' }).click();
    await expect.poll(() => clock.textContent()).toContain('1 long rest');
    // Eight hours on the clock (daggerheart.longRestHours; ADR 44).
    await expect.poll(() => gm.p.getByTestId('clock-time').textContent()).toBe('Day 1, 08:00');
    expect(await gm.p.getByRole('button', { name: 'Long rest' }).count()).toBe(1);
    expect(await axeViolations(gm.p)).toEqual([]);
    expect(gm.errors).toEqual([]);
  });
});
