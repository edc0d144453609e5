// Recorded table rolls through a real server: a player's roll is made by the
// engine and reaches the GM's log with its dice; the GM's secret roll never
// reaches a player's DOM or WebSocket frames; a player's roll "for the GM"
// reaches the GM and that player only. Also the tracker's kernel on-deck and
// the GM's NPC hit point buttons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2e } from './harness.ts';

const SECRET_LABEL = 'CANARY-r8Tq-ambush-check';
const ALICE_SECRET = 'CANARY-m3Pd-sneak';

let e2e: E2e | undefined;

beforeAll(async () => {
  e2e = await startE2e('rolls');
});

afterAll(async () => {
  await e2e?.close();
});

describe('recorded table rolls', () => {
  it('a player roll reaches the GM log with its dice; secret rolls stay secret', async () => {
    const made = await e2e!.table('osr', 'Rolls');
    const alice = await e2e!.seat(made, 'Alice');
    const bob = await e2e!.seat(made, 'Bob');
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const a = await e2e!.open(alice.link, { width: 390, height: 844 });
    const b = await e2e!.open(bob.link, { width: 390, height: 844 });
    const gmLog = gm.p.getByTestId('log');

    // --- Alice rolls 1d20+2 at the table: the server rolls it, the GM's log shows the die and the total.
    await a.p.getByLabel('Dice notation').fill('1d20+2');
    await a.p.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(() => gmLog.textContent()).toContain('Alice rolled 1d20+2: ');
    const line = /Alice rolled 1d20\+2: (\d+) \[(\d+)\]/.exec((await gmLog.textContent())!);
    expect(line).not.toBeNull();
    const [total, face] = [Number(line![1]), Number(line![2])];
    expect(face).toBeGreaterThanOrEqual(1);
    expect(face).toBeLessThanOrEqual(20);
    expect(total).toBe(face + 2);
    // Alice's tray lists the recorded roll (the server's dice, not a local roll); Bob sees it too.
    await expect.poll(() => a.p.getByTestId('roll-total').first().textContent()).toBe(String(total));
    await expect.poll(() => b.p.getByTestId('log').textContent()).toContain(`Alice rolled 1d20+2: ${total} [${face}]`);
    // The event on the wire carries the whole record.
    expect(a.frames.some((f) => f.includes('"dice.rolled"') && f.includes('"kept":true'))).toBe(true);

    // --- a bad notation is refused in place, with its column, and nothing is sent.
    const before = gm.frames.length;
    await a.p.getByLabel('Dice notation').fill('101d6');
    await a.p.getByRole('button', { name: 'Roll', exact: true }).click();
    await a.p.getByTestId('dice-error').waitFor();
    expect(await a.p.getByTestId('dice-error').textContent()).toContain('Column 1');
    expect(gm.frames.slice(before).some((f) => f.includes('101d6'))).toBe(false);

    // --- the GM's secret roll (the switch starts on): GM-only in the log, never in a player's DOM or frames.
    const tray = gm.p.locator('.area-dice');
    expect(await tray.getByLabel(/Secret roll/).isChecked()).toBe(true);
    await tray.getByLabel('Dice notation').fill('7d7+77');
    await tray.getByLabel('Roll for (optional)').fill(SECRET_LABEL);
    await tray.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(() => gmLog.textContent()).toContain(`The GM rolled 7d7+77 (${SECRET_LABEL})`);
    expect(await gmLog.locator('li', { hasText: SECRET_LABEL }).locator('.badge', { hasText: 'GM only' }).count()).toBe(1);
    await tray.getByTestId('roll-log').getByText('secret').first().waitFor();

    // --- then an open roll, so the players have certainly caught up past the secret one.
    await tray.getByLabel(/Secret roll/).uncheck();
    await tray.getByLabel('Roll for (optional)').fill('');
    await tray.getByLabel('Dice notation').fill('1d6');
    await tray.getByRole('button', { name: 'Roll', exact: true }).click();
    for (const p of [a, b]) await expect.poll(() => p.p.getByTestId('log').textContent()).toContain('The GM rolled 1d6: ');

    // --- Alice rolls for the GM only: the GM and Alice read it, Bob does not.
    await a.p.getByLabel(/Secret roll/).check();
    await a.p.getByLabel('Roll for (optional)').fill(ALICE_SECRET);
    await a.p.getByLabel('Dice notation').fill('3d3');
    await a.p.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(() => gmLog.textContent()).toContain(`Alice rolled 3d3 (${ALICE_SECRET}) for the GM: `);
    await expect.poll(() => a.p.getByTestId('log').textContent()).toContain(`(${ALICE_SECRET}) for the GM`);
    // One more open roll from the GM, so Bob's screen is past Alice's secret one.
    await tray.getByRole('button', { name: 'Roll', exact: true }).click();
    await expect.poll(async () => ((await b.p.getByTestId('log').textContent())!.match(/The GM rolled 1d6/g) ?? []).length).toBe(2);

    for (const secret of [SECRET_LABEL, '7d7+77']) {
      for (const p of [a, b]) {
        expect(await p.p.content()).not.toContain(secret);
        expect(p.frames.filter((f) => f.includes(secret))).toEqual([]);
      }
    }
    expect(await b.p.content()).not.toContain(ALICE_SECRET);
    expect(b.frames.filter((f) => f.includes(ALICE_SECRET))).toEqual([]);
    for (const p of [gm, a, b]) expect(p.errors).toEqual([]);
  });

  it('the tracker shows the kernel on-deck and the GM edits an NPC’s hit points', async () => {
    const made = await e2e!.table('osr', 'Fight');
    const alice = await e2e!.seat(made, 'Alice');
    const gm = await e2e!.open(made.links.gm, { width: 1440, height: 960 });
    const a = await e2e!.open(alice.link, { width: 390, height: 844 });
    const enc = gm.p.locator('.area-encounter');
    for (const [name, score, hp, hidden] of [['Ada', '18', '', false], ['Lurker', '15', '9', true], ['Goblin', '12', '7', false]] as const) {
      await enc.getByLabel('Name').fill(name);
      await enc.getByLabel('Kind').selectOption(name === 'Ada' ? 'pc' : 'npc');
      await enc.getByLabel('DEX').fill(score);
      await enc.getByLabel('HP', { exact: true }).fill(hp);
      if (hidden) await enc.getByLabel('hidden', { exact: true }).check();
      await enc.getByRole('button', { name: 'Add to encounter' }).click();
    }
    await enc.getByRole('button', { name: 'Roll initiative' }).click();
    // The GM sees the hidden Lurker on deck; the player sees the Goblin (the Lurker is never named).
    await expect.poll(() => enc.getByTestId('now-acting').textContent()).toBe('Now acting: Ada · on deck: Lurker');
    await expect.poll(() => a.p.getByTestId('now-acting').textContent()).toBe('Now acting: Ada · on deck: Goblin');
    expect(await a.p.content()).not.toContain('Lurker');

    // The Goblin has no character: its HP changes through encounter.setStats. A foe's HP is the GM's (ADR 33): the phone lists the Goblin, never its HP.
    await enc.getByText('Adjust Goblin').click();
    await enc.getByRole('button', { name: 'Goblin loses 1 HP' }).click();
    await expect.poll(() => enc.getByRole('meter', { name: 'Goblin HP' }).getAttribute('aria-valuenow')).toBe('6');
    await expect.poll(() => a.p.getByTestId('now-acting').textContent()).toBe('Now acting: Ada · on deck: Goblin');
    expect(await a.p.getByRole('meter', { name: 'Goblin HP' }).count()).toBe(0);
    await enc.getByText('Adjust Lurker').click();
    await enc.getByRole('button', { name: 'Lurker loses 1 HP' }).click();
    await expect.poll(() => enc.getByRole('meter', { name: 'Lurker HP' }).getAttribute('aria-valuenow')).toBe('8');
    expect(a.frames.filter((f) => f.includes('Lurker'))).toEqual([]);
    for (const p of [gm, a]) expect(p.errors).toEqual([]);
  });
});
